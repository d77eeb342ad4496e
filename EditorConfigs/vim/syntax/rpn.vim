" rpn-lsp: syntax for `.rpn` calculator tapes, for when semantic tokens are not
" available (Vim's LSP plugins draw them only on request; plain Vim has none).
"
" A token is whatever lies between Unicode white space (here: spaces and tabs) and `#`, so each
" pattern must match a whole token: `4+` is one unknown word, not a number and an operator.
" Groups: rpnNumber, rpnOperator (symbols), rpnFunction (named operators), rpnConstant,
" rpnStore (`=name`), rpnCheckSign and rpnCheckValue (the `=` and the number of a check
" `=20.5`: Operator and Number), rpnDefinition (the `:` and `;` of a definition
" `: hyp sq swap sq + sqrt ;`: Keyword), rpnWordName (the name a definition defines: Function),
" rpnVariable (a name used, a variable's or a defined word's: a syntax cannot tell them apart;
" not linked, so plain unless a colour scheme links it), rpnComment, rpnHeading (a line holding
" only a comment that starts with `##`, which starts a section: Title), rpnTodo.

if exists('b:current_syntax')
  finish
endif

let s:cpo_save = &cpo
set cpo&vim

" Later definitions win when two items start at the same column, so the generic name comes
" first and the builtins (ASCII case-insensitive) override it.
" A name: a letter or `_`, then letters, digits or `_`. Non-ASCII letters are approximated by
" "any non-ASCII character but the operator symbols".
syntax match rpnVariable "\v\S@<!([A-Za-z_]|[^\x01-\x7f×÷−√])([0-9A-Za-z_]|[^\x01-\x7f×÷−√])*(\s|#|$)@="
syntax match rpnStore "\v\S@<!\=([A-Za-z_]|[^\x01-\x7f×÷−√])([0-9A-Za-z_]|[^\x01-\x7f×÷−√])*(\s|#|$)@="
" The name right after a definition's `:` (and white space). Before the builtins, so that `: dup`
" keeps `dup` a named operator: a builtin's name cannot be defined (the server says so).
syntax match rpnWordName "\v(\S@<!:[ \t]+)@<=([A-Za-z_]|[^\x01-\x7f×÷−√])([0-9A-Za-z_]|[^\x01-\x7f×÷−√])*(\s|#|$)@="
syntax match rpnFunction "\v\c\S@<!(pow|mod|min|max|neg|chs|abs|inv|sq|sqrt|exp|ln|log|log10|log2|sin|cos|tan|asin|acos|atan|atan2|sinh|cosh|tanh|asinh|acosh|atanh|floor|ceil|round|trunc|fact|dup|drop|swap|over|rot|clear|depth|pick|roll|lastx|sum|avg|mean|sdev|subtotal)(\s|#|$)@="
syntax match rpnConstant "\v\c\S@<!(pi|π|e)(\s|#|$)@="
syntax match rpnOperator "\v\S@<!(\*\*|[-+*/^%×÷−√]|\%([cC][hH]|[tT]))(\s|#|$)@="
" A number: an optional sign (`+`, `-`, U+2212), then either
"   - an integer in hex, octal or binary: `0x1F`, `0o17`, `0b1010` (prefix and hex digits in
"     either case), a single `_` between two digits (`0xFF_FF`); no fraction, no exponent;
"   - or digits with an optional fraction (`12`, `12.5`, `.5`, `12.`), a single `_` between two
"     mantissa digits, and an optional exponent of ASCII sign and digits. The whole part may be
"     grouped in thousands with commas: one to three digits, then `,` and exactly three digits,
"     again and again (`1,234,567.89`); any other comma (`1,5`, `12,34`, `1,000,00`, `,5`, or
"     one after the point) makes no number.
" Groups are `%(…)`: Vim has only nine capturing groups for a pattern.
syntax match rpnNumber "\v\S@<![-+−]?%(0%([xX][0-9A-Fa-f]%(_?[0-9A-Fa-f])*|[oO][0-7]%(_?[0-7])*|[bB][01]%(_?[01])*)|%(%(\d%(_?\d){,2}%(,\d%(_?\d){2})+|\d%(_?\d)*)%(\.%(\d%(_?\d)*)?)?|\.\d%(_?\d)*)%([eE][-+]?\d+)?)(\s|#|$)@="
" A check: `=` and a number literal, the whole token (`=20.5`, `=−2.5`, `=1.5e3`, `=1,234.50`,
" `=0xFF`; not `=1.5x`, `=1.2.3` nor `=1,5`). The `=` is rpnCheckSign, the number after it
" rpnCheckValue.
syntax match rpnCheckSign "\v\S@<!\=([-+−]?%(0%([xX][0-9A-Fa-f]%(_?[0-9A-Fa-f])*|[oO][0-7]%(_?[0-7])*|[bB][01]%(_?[01])*)|%(%(\d%(_?\d){,2}%(,\d%(_?\d){2})+|\d%(_?\d)*)%(\.%(\d%(_?\d)*)?)?|\.\d%(_?\d)*)%([eE][-+]?\d+)?)(\s|#|$))@=" nextgroup=rpnCheckValue
syntax match rpnCheckValue contained "\v[-+−]?%(0%([xX][0-9A-Fa-f]%(_?[0-9A-Fa-f])*|[oO][0-7]%(_?[0-7])*|[bB][01]%(_?[01])*)|%(%(\d%(_?\d){,2}%(,\d%(_?\d){2})+|\d%(_?\d)*)%(\.%(\d%(_?\d)*)?)?|\.\d%(_?\d)*)%([eE][-+]?\d+)?)(\s|#|$)@="

" A definition's `:` and `;`, each a token of its own (`4:` and `x;` are unknown words).
syntax match rpnDefinition "\v\S@<![:;](\s|#|$)@="

syntax keyword rpnTodo contained TODO FIXME XXX NOTE
syntax match rpnComment "#.*$" contains=rpnTodo,@Spell
" A heading: a line that holds only a comment starting with `##` (`## Groceries`, `  ### Fruit`).
" After rpnComment, so that it wins where both start; after a token (`1 2 ## x`) `##` starts a
" plain comment.
syntax match rpnHeading "^\s*##.*$" contains=rpnTodo,@Spell

highlight default link rpnNumber Number
highlight default link rpnOperator Operator
highlight default link rpnFunction Function
highlight default link rpnConstant Constant
highlight default link rpnStore Identifier
highlight default link rpnCheckSign Operator
highlight default link rpnCheckValue Number
highlight default link rpnDefinition Keyword
highlight default link rpnWordName Function
highlight default link rpnComment Comment
highlight default link rpnHeading Title
highlight default link rpnTodo Todo

let b:current_syntax = 'rpn'

let &cpo = s:cpo_save
unlet s:cpo_save
