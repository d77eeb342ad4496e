" rpn-lsp: syntax for `.rpn` calculator tapes, for when semantic tokens are not
" available (Vim's LSP plugins draw them only on request; plain Vim has none).
"
" A token is whatever lies between Unicode white space (here: spaces and tabs) and `#`, so each
" pattern must match a whole token: `4+` is one unknown word, not a number and an operator.
" Groups: rpnNumber, rpnOperator (symbols), rpnFunction (named operators), rpnConstant,
" rpnStore (`=name`), rpnCheckSign and rpnCheckValue (the `=` and the number of a check
" `=20.5`: Operator and Number), rpnQuantity and rpnQuantityUnit (the number and the unit of a
" quantity `12_km` or of a time in a unit `4:35_min`: Number and Type; rpnCheckQuantity in a
" check `=12_km`), rpnUnit (a unit word `_km`, `>mi`, or a format `>h:mm`: Type), rpnDefinition
" (the `:` and `;` of a definition `: hyp sq swap sq + sqrt ;`: Keyword), rpnWordName (the name a
" definition defines: Function), rpnVariable (a name used, a variable's or a defined word's: a
" syntax cannot tell them apart; not linked, so plain unless a colour scheme links it),
" rpnComment, rpnHeading (a line holding only a comment that starts with `##`, which starts a
" section: Title), rpnTodo.

if exists('b:current_syntax')
  finish
endif

let s:cpo_save = &cpo
set cpo&vim

" Later definitions win when two items start at the same column, so the generic name comes
" first and the builtins (ASCII case-insensitive) override it.
" A name: a letter, then letters, digits or `_` (`_km` is a unit word). Non-ASCII letters are
" approximated by "any non-ASCII character but the operator and unit symbols".
syntax match rpnVariable "\v\S@<!([A-Za-z]|[^\x01-\x7f×÷−√→·⁰¹²³⁴⁵⁶⁷⁸⁹⁻°′″∆€£¥])([0-9A-Za-z_]|[^\x01-\x7f×÷−√→·⁰¹²³⁴⁵⁶⁷⁸⁹⁻°′″∆€£¥])*(\s|#|$)@="
syntax match rpnStore "\v\S@<!\=([A-Za-z]|[^\x01-\x7f×÷−√→·⁰¹²³⁴⁵⁶⁷⁸⁹⁻°′″∆€£¥])([0-9A-Za-z_]|[^\x01-\x7f×÷−√→·⁰¹²³⁴⁵⁶⁷⁸⁹⁻°′″∆€£¥])*(\s|#|$)@="
" The name right after a definition's `:` (and white space). Before the builtins, so that `: dup`
" keeps `dup` a named operator: a builtin's name cannot be defined (the server says so).
syntax match rpnWordName "\v(\S@<!:[ \t]+)@<=([A-Za-z]|[^\x01-\x7f×÷−√→·⁰¹²³⁴⁵⁶⁷⁸⁹⁻°′″∆€£¥])([0-9A-Za-z_]|[^\x01-\x7f×÷−√→·⁰¹²³⁴⁵⁶⁷⁸⁹⁻°′″∆€£¥])*(\s|#|$)@="
syntax match rpnFunction "\v\c\S@<!(pow|mod|min|max|neg|chs|abs|inv|sq|sqrt|exp|ln|log|log10|log2|sin|cos|tan|asin|acos|atan|atan2|sinh|cosh|tanh|asinh|acosh|atanh|floor|ceil|round|trunc|fact|dup|drop|swap|over|rot|clear|depth|pick|roll|lastx|sum|avg|mean|sdev|subtotal|uval|ubase)(\s|#|$)@="
syntax match rpnConstant "\v\c\S@<!(pi|π|e)(\s|#|$)@="
syntax match rpnOperator "\v\S@<!(\*\*|[-+*/^%×÷−√]|\%([cC][hH]|[tT]))(\s|#|$)@="
" A number: an optional sign (`+`, `-`, U+2212), then either
"   - an integer in hex, octal or binary: `0x1F`, `0o17`, `0b1010` (prefix and hex digits in
"     either case), a single `_` between two digits (`0xFF_FF`); no fraction, no exponent;
"   - or a time or angle in fields of sixty: `1:30`, `1:30:15`, `1:30:15.5` (digits, then `:` and
"     two digits 00 to 59, once or twice; a fraction only in the last field); `1:75`, `1:5`,
"     `4:`, `:30`, `1::30`, `1.5:30` and `1:00:00:00` are none;
"   - or digits with an optional fraction (`12`, `12.5`, `.5`, `12.`), a single `_` between two
"     mantissa digits, and an optional exponent of ASCII sign and digits. The whole part may be
"     grouped in thousands with commas: one to three digits, then `,` and exactly three digits,
"     again and again (`1,234,567.89`); any other comma (`1,5`, `12,34`, `1,000,00`, `,5`, or
"     one after the point) makes no number.
" Groups are `%(…)`: Vim has only nine capturing groups for a pattern.
syntax match rpnNumber "\v\S@<![-+−]?%(0%([xX][0-9A-Fa-f]%(_?[0-9A-Fa-f])*|[oO][0-7]%(_?[0-7])*|[bB][01]%(_?[01])*)|\d+:[0-5]\d%(:[0-5]\d)?%(\.\d*)?|%(%(\d%(_?\d){,2}%(,\d%(_?\d){2})+|\d%(_?\d)*)%(\.%(\d%(_?\d)*)?)?|\.\d%(_?\d)*)%([eE][-+]?\d+)?)(\s|#|$)@="
" A check: `=` and a number literal, the whole token (`=20.5`, `=−2.5`, `=1.5e3`, `=1,234.50`,
" `=0xFF`, `=2:15`; not `=1.5x`, `=1.2.3` nor `=1,5`). The `=` is rpnCheckSign, the number after it
" rpnCheckValue.
syntax match rpnCheckSign "\v\S@<!\=([-+−]?%(0%([xX][0-9A-Fa-f]%(_?[0-9A-Fa-f])*|[oO][0-7]%(_?[0-7])*|[bB][01]%(_?[01])*)|\d+:[0-5]\d%(:[0-5]\d)?%(\.\d*)?|%(%(\d%(_?\d){,2}%(,\d%(_?\d){2})+|\d%(_?\d)*)%(\.%(\d%(_?\d)*)?)?|\.\d%(_?\d)*)%([eE][-+]?\d+)?)(\s|#|$))@=" nextgroup=rpnCheckValue
syntax match rpnCheckValue contained "\v[-+−]?%(0%([xX][0-9A-Fa-f]%(_?[0-9A-Fa-f])*|[oO][0-7]%(_?[0-7])*|[bB][01]%(_?[01])*)|\d+:[0-5]\d%(:[0-5]\d)?%(\.\d*)?|%(%(\d%(_?\d){,2}%(,\d%(_?\d){2})+|\d%(_?\d)*)%(\.%(\d%(_?\d)*)?)?|\.\d%(_?\d)*)%([eE][-+]?\d+)?)(\s|#|$)@="

" A quantity `12_km` (`9.81_m/s^2`, `-40_°C`, `1,250.00_EUR`): a decimal number (no `0x`, `0o`
" or `0b` integer), `_` and a unit expression, one token. The number is rpnQuantity (Number), the
" unit with its `_` rpnQuantityUnit (Type), as the unit word `_km` is. A unit expression is unit
" names (letters, and $ ° ′ ″ ∆ £ ¥ €; beyond ASCII any character but the operators and
" superscripts), each with an optional power of 1 to 99 in size (`^2`, `^-1`, `²`, `⁻¹`), joined
" by `*` or `·`, then at most one `/` and a name or a product in parentheses (`J/(kg*K)`). After a
" number an `_` before a digit separates digits (`1_000_km` is 1000 km), so a quantity's unit
" starts with a name. Whether a name is in the unit table is the server's to say
" (`unknown-unit`): any well-formed unit is coloured.
syntax match rpnQuantity "\v\S@<![-+−]?%(%(%(\d%(_?\d){,2}%(,\d%(_?\d){2})+|\d%(_?\d)*)%(\.%(\d%(_?\d)*)?)?|\.\d%(_?\d)*)%([eE][-+]?\d+)?)(_%([A-Za-z$]|[^\x01-\x7f×÷−√→·⁰¹²³⁴⁵⁶⁷⁸⁹⁻])+%(\^-?0*[1-9]\d?|⁻?⁰*[¹²³⁴⁵⁶⁷⁸⁹][⁰¹²³⁴⁵⁶⁷⁸⁹]?)?%([*·]%([A-Za-z$]|[^\x01-\x7f×÷−√→·⁰¹²³⁴⁵⁶⁷⁸⁹⁻])+%(\^-?0*[1-9]\d?|⁻?⁰*[¹²³⁴⁵⁶⁷⁸⁹][⁰¹²³⁴⁵⁶⁷⁸⁹]?)?)*%(/%(%([A-Za-z$]|[^\x01-\x7f×÷−√→·⁰¹²³⁴⁵⁶⁷⁸⁹⁻])+%(\^-?0*[1-9]\d?|⁻?⁰*[¹²³⁴⁵⁶⁷⁸⁹][⁰¹²³⁴⁵⁶⁷⁸⁹]?)?|\(%([A-Za-z$]|[^\x01-\x7f×÷−√→·⁰¹²³⁴⁵⁶⁷⁸⁹⁻])+%(\^-?0*[1-9]\d?|⁻?⁰*[¹²³⁴⁵⁶⁷⁸⁹][⁰¹²³⁴⁵⁶⁷⁸⁹]?)?%([*·]%([A-Za-z$]|[^\x01-\x7f×÷−√→·⁰¹²³⁴⁵⁶⁷⁸⁹⁻])+%(\^-?0*[1-9]\d?|⁻?⁰*[¹²³⁴⁵⁶⁷⁸⁹][⁰¹²³⁴⁵⁶⁷⁸⁹]?)?)*\)))?(\s|#|$))@=" nextgroup=rpnQuantityUnit
syntax match rpnQuantityUnit contained "\v_%([A-Za-z$]|[^\x01-\x7f×÷−√→·⁰¹²³⁴⁵⁶⁷⁸⁹⁻])+%(\^-?0*[1-9]\d?|⁻?⁰*[¹²³⁴⁵⁶⁷⁸⁹][⁰¹²³⁴⁵⁶⁷⁸⁹]?)?%([*·]%([A-Za-z$]|[^\x01-\x7f×÷−√→·⁰¹²³⁴⁵⁶⁷⁸⁹⁻])+%(\^-?0*[1-9]\d?|⁻?⁰*[¹²³⁴⁵⁶⁷⁸⁹][⁰¹²³⁴⁵⁶⁷⁸⁹]?)?)*%(/%(%([A-Za-z$]|[^\x01-\x7f×÷−√→·⁰¹²³⁴⁵⁶⁷⁸⁹⁻])+%(\^-?0*[1-9]\d?|⁻?⁰*[¹²³⁴⁵⁶⁷⁸⁹][⁰¹²³⁴⁵⁶⁷⁸⁹]?)?|\(%([A-Za-z$]|[^\x01-\x7f×÷−√→·⁰¹²³⁴⁵⁶⁷⁸⁹⁻])+%(\^-?0*[1-9]\d?|⁻?⁰*[¹²³⁴⁵⁶⁷⁸⁹][⁰¹²³⁴⁵⁶⁷⁸⁹]?)?%([*·]%([A-Za-z$]|[^\x01-\x7f×÷−√→·⁰¹²³⁴⁵⁶⁷⁸⁹⁻])+%(\^-?0*[1-9]\d?|⁻?⁰*[¹²³⁴⁵⁶⁷⁸⁹][⁰¹²³⁴⁵⁶⁷⁸⁹]?)?)*\)))?(\s|#|$)@="
" A check of a quantity `=12.5_km`: the `=` rpnCheckSign, the number rpnCheckQuantity (Number),
" the unit rpnQuantityUnit.
syntax match rpnCheckSign "\v\S@<!\=([-+−]?%(%(%(\d%(_?\d){,2}%(,\d%(_?\d){2})+|\d%(_?\d)*)%(\.%(\d%(_?\d)*)?)?|\.\d%(_?\d)*)%([eE][-+]?\d+)?)_%([A-Za-z$]|[^\x01-\x7f×÷−√→·⁰¹²³⁴⁵⁶⁷⁸⁹⁻])+%(\^-?0*[1-9]\d?|⁻?⁰*[¹²³⁴⁵⁶⁷⁸⁹][⁰¹²³⁴⁵⁶⁷⁸⁹]?)?%([*·]%([A-Za-z$]|[^\x01-\x7f×÷−√→·⁰¹²³⁴⁵⁶⁷⁸⁹⁻])+%(\^-?0*[1-9]\d?|⁻?⁰*[¹²³⁴⁵⁶⁷⁸⁹][⁰¹²³⁴⁵⁶⁷⁸⁹]?)?)*%(/%(%([A-Za-z$]|[^\x01-\x7f×÷−√→·⁰¹²³⁴⁵⁶⁷⁸⁹⁻])+%(\^-?0*[1-9]\d?|⁻?⁰*[¹²³⁴⁵⁶⁷⁸⁹][⁰¹²³⁴⁵⁶⁷⁸⁹]?)?|\(%([A-Za-z$]|[^\x01-\x7f×÷−√→·⁰¹²³⁴⁵⁶⁷⁸⁹⁻])+%(\^-?0*[1-9]\d?|⁻?⁰*[¹²³⁴⁵⁶⁷⁸⁹][⁰¹²³⁴⁵⁶⁷⁸⁹]?)?%([*·]%([A-Za-z$]|[^\x01-\x7f×÷−√→·⁰¹²³⁴⁵⁶⁷⁸⁹⁻])+%(\^-?0*[1-9]\d?|⁻?⁰*[¹²³⁴⁵⁶⁷⁸⁹][⁰¹²³⁴⁵⁶⁷⁸⁹]?)?)*\)))?(\s|#|$))@=" nextgroup=rpnCheckQuantity
syntax match rpnCheckQuantity contained "\v[-+−]?%(%(%(\d%(_?\d){,2}%(,\d%(_?\d){2})+|\d%(_?\d)*)%(\.%(\d%(_?\d)*)?)?|\.\d%(_?\d)*)%([eE][-+]?\d+)?)(_%([A-Za-z$]|[^\x01-\x7f×÷−√→·⁰¹²³⁴⁵⁶⁷⁸⁹⁻])+%(\^-?0*[1-9]\d?|⁻?⁰*[¹²³⁴⁵⁶⁷⁸⁹][⁰¹²³⁴⁵⁶⁷⁸⁹]?)?%([*·]%([A-Za-z$]|[^\x01-\x7f×÷−√→·⁰¹²³⁴⁵⁶⁷⁸⁹⁻])+%(\^-?0*[1-9]\d?|⁻?⁰*[¹²³⁴⁵⁶⁷⁸⁹][⁰¹²³⁴⁵⁶⁷⁸⁹]?)?)*%(/%(%([A-Za-z$]|[^\x01-\x7f×÷−√→·⁰¹²³⁴⁵⁶⁷⁸⁹⁻])+%(\^-?0*[1-9]\d?|⁻?⁰*[¹²³⁴⁵⁶⁷⁸⁹][⁰¹²³⁴⁵⁶⁷⁸⁹]?)?|\(%([A-Za-z$]|[^\x01-\x7f×÷−√→·⁰¹²³⁴⁵⁶⁷⁸⁹⁻])+%(\^-?0*[1-9]\d?|⁻?⁰*[¹²³⁴⁵⁶⁷⁸⁹][⁰¹²³⁴⁵⁶⁷⁸⁹]?)?%([*·]%([A-Za-z$]|[^\x01-\x7f×÷−√→·⁰¹²³⁴⁵⁶⁷⁸⁹⁻])+%(\^-?0*[1-9]\d?|⁻?⁰*[¹²³⁴⁵⁶⁷⁸⁹][⁰¹²³⁴⁵⁶⁷⁸⁹]?)?)*\)))?(\s|#|$))@=" nextgroup=rpnQuantityUnit
" A time or angle in a unit (`4:35_min`, `48:46:32_°`, `1:30_h`): two fields in `h`, `min`, `°` or
" `deg`, or three in `h`, `°` or `deg` (minutes have `min:ss` only: `1:30:15_min` is none). A
" quantity too: its fields rpnQuantity, its unit rpnQuantityUnit; in a check `=4:35_min`,
" rpnCheckSign, rpnCheckQuantity and rpnQuantityUnit. A unit other than these (`1:30_km`) makes
" none.
syntax match rpnQuantity "\v\S@<![-+−]?%(\d+:[0-5]\d%(\.\d*)?(_%(h|min|°|deg)(\s|#|$))@=|\d+:[0-5]\d:[0-5]\d%(\.\d*)?(_%(h|°|deg)(\s|#|$))@=)" nextgroup=rpnQuantityUnit
syntax match rpnCheckSign "\v\S@<!\=([-+−]?%(\d+:[0-5]\d%(\.\d*)?_%(h|min|°|deg)|\d+:[0-5]\d:[0-5]\d%(\.\d*)?_%(h|°|deg))(\s|#|$))@=" nextgroup=rpnCheckQuantity
syntax match rpnCheckQuantity contained "\v[-+−]?%(\d+:[0-5]\d%(\.\d*)?(_%(h|min|°|deg)(\s|#|$))@=|\d+:[0-5]\d:[0-5]\d%(\.\d*)?(_%(h|°|deg)(\s|#|$))@=)" nextgroup=rpnQuantityUnit
" Unit words, tokens of their own (rpnUnit, Type): `_km` gives the number before it a unit (`_1/s`
" too); `>mi`, `->mi` and `→mi` convert to another unit (`>km/h`, `>°F`).
syntax match rpnUnit "\v\S@<!%(_|[>]|-[>]|→)%(%([A-Za-z$]|[^\x01-\x7f×÷−√→·⁰¹²³⁴⁵⁶⁷⁸⁹⁻])+%(\^-?0*[1-9]\d?|⁻?⁰*[¹²³⁴⁵⁶⁷⁸⁹][⁰¹²³⁴⁵⁶⁷⁸⁹]?)?%([*·]%([A-Za-z$]|[^\x01-\x7f×÷−√→·⁰¹²³⁴⁵⁶⁷⁸⁹⁻])+%(\^-?0*[1-9]\d?|⁻?⁰*[¹²³⁴⁵⁶⁷⁸⁹][⁰¹²³⁴⁵⁶⁷⁸⁹]?)?)*%(/%(%([A-Za-z$]|[^\x01-\x7f×÷−√→·⁰¹²³⁴⁵⁶⁷⁸⁹⁻])+%(\^-?0*[1-9]\d?|⁻?⁰*[¹²³⁴⁵⁶⁷⁸⁹][⁰¹²³⁴⁵⁶⁷⁸⁹]?)?|\(%([A-Za-z$]|[^\x01-\x7f×÷−√→·⁰¹²³⁴⁵⁶⁷⁸⁹⁻])+%(\^-?0*[1-9]\d?|⁻?⁰*[¹²³⁴⁵⁶⁷⁸⁹][⁰¹²³⁴⁵⁶⁷⁸⁹]?)?%([*·]%([A-Za-z$]|[^\x01-\x7f×÷−√→·⁰¹²³⁴⁵⁶⁷⁸⁹⁻])+%(\^-?0*[1-9]\d?|⁻?⁰*[¹²³⁴⁵⁶⁷⁸⁹][⁰¹²³⁴⁵⁶⁷⁸⁹]?)?)*\)))?|1/%(%([A-Za-z$]|[^\x01-\x7f×÷−√→·⁰¹²³⁴⁵⁶⁷⁸⁹⁻])+%(\^-?0*[1-9]\d?|⁻?⁰*[¹²³⁴⁵⁶⁷⁸⁹][⁰¹²³⁴⁵⁶⁷⁸⁹]?)?|\(%([A-Za-z$]|[^\x01-\x7f×÷−√→·⁰¹²³⁴⁵⁶⁷⁸⁹⁻])+%(\^-?0*[1-9]\d?|⁻?⁰*[¹²³⁴⁵⁶⁷⁸⁹][⁰¹²³⁴⁵⁶⁷⁸⁹]?)?%([*·]%([A-Za-z$]|[^\x01-\x7f×÷−√→·⁰¹²³⁴⁵⁶⁷⁸⁹⁻])+%(\^-?0*[1-9]\d?|⁻?⁰*[¹²³⁴⁵⁶⁷⁸⁹][⁰¹²³⁴⁵⁶⁷⁸⁹]?)?)*\)))(\s|#|$)@="

" A format that `>` converts to, as it does to a unit (`>h:mm`, `->h:mm:ss`, `→min:ss`, `>°:mm`,
" `>deg:mm:ss`): rpnUnit. Any other `>x:y` (`>h:m`, `>hh:mm`) is none.
syntax match rpnUnit "\v\S@<!%([>]|-[>]|→)%(h:mm%(:ss)?|min:ss|%(°|deg):mm%(:ss)?)(\s|#|$)@="

" A definition's `:` and `;`, each a token of its own (`4:` is a time written wrongly, `x;` an
" unknown word).
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
highlight default link rpnQuantity Number
highlight default link rpnCheckQuantity Number
highlight default link rpnQuantityUnit Type
highlight default link rpnUnit Type
highlight default link rpnDefinition Keyword
highlight default link rpnWordName Function
highlight default link rpnComment Comment
highlight default link rpnHeading Title
highlight default link rpnTodo Todo

let b:current_syntax = 'rpn'

let &cpo = s:cpo_save
unlet s:cpo_save
