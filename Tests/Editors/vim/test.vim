" Headless editor test for EditorConfigs/vim/: runs inside plain Vim (no plugins) started by
" run.sh as `vim -Nu NONE -i NONE -es --cmd 'set rtp^=EditorConfigs/vim' --cmd 'filetype plugin
" on' --cmd 'syntax on' -S test.vim`, i.e. with the folder on 'runtimepath' as its README says.
" Environment (set by run.sh):
"   RPN_TEST_LABEL  what to call this run in messages, e.g. "Vim 9.0.1378"
"   RPN_TEST_TAPE   a copy of EditorConfigs/sample.rpn in a scratch folder
"   RPN_TEST_DIR    the scratch folder (for a new, unsaved .rpn file)
"   RPN_TEST_LOG    where to write one line per check (Vim's -es mode prints no :echo)
"   RPN_TEST_CONFIGS  EditorConfigs/vim, for sourcing the two LSP registration files
" Exits 0 when every check passed (:qall!), 1 otherwise (:cquit).
"
" In order: filetype detection (ftdetect) and the comment settings (ftplugin) on the sample and
" on a new file; the syntax groups of tokens in the sample and of tricky tokens (whole-token
" rule, every spelling of a number: thousands commas `1,234.50`, hex, octal and binary `0x1F`
" `0o17` `0b1010`; non-numbers such as `1,5` and `0xG`); sourcing rpn-vim-lsp.vim and
" rpn-yegappan-lsp.vim without their plugins (no error, nothing registered); then, with stand-ins
" for lsp#register_server, LspAddServer and LspOptionsSet, what each file registers when its
" plugin's setup event fires. Checks (`=20.5`, in the sample and alone) get groups of their own
" for the `=` and the number (`=1,234.50`, `=0xFF` too), linked to Operator and Number; their
" near-misses (`=1.5x`, `=2x`, `=`, `=1,5`, `=0xG`) keep no colour. Definitions (`: hyp sq swap
" sq + sqrt ;`, in the sample and in tricky lines): `:` and `;` are rpnDefinition (Keyword) only
" as tokens of their own, the name after `:` rpnWordName (Function) unless it is a builtin's, and
" a use of the word a name (rpnVariable).
" Headings (a line holding only a comment that starts with `##`) are rpnHeading (Title); after a
" token, `##` starts a plain comment.
" Units: a quantity `12_km` is rpnQuantity (Number) then rpnQuantityUnit (Type) from its `_`; in a
" check `=12.5_km`, rpnCheckSign, rpnCheckQuantity, rpnQuantityUnit; unit words `_km` `>mi` `->mi`
" `→mi` are rpnUnit (Type); malformed units (`12_m/s/s`, `12_m^0`, `>h:m`) none.
" Times and angles in fields of sixty: `1:30`, `1:30:15.5` are rpnNumber, `=2:15` a check; in a unit
" (`4:35_min`, `48:46:32_°`) a quantity, and `=4:35_min` a check of one; formats `>h:mm` `→min:ss`
" rpnUnit; written wrongly (`1:75`, `1:5`, `:30`, `1:30_km`, `1:30:15_min`, `>hh:mm`), no byte coloured.

let s:label = empty($RPN_TEST_LABEL) ? 'Vim' : $RPN_TEST_LABEL
let s:passed = 0
let s:failed = 0

function! s:Out(line) abort
  call writefile([a:line], $RPN_TEST_LOG, 'a')
endfunction

function! s:Check(ok, what, ...) abort
  if a:ok
    let s:passed += 1
    call s:Out('  ok    ' . a:what)
  else
    let s:failed += 1
    call s:Out('  FAIL  [' . s:label . '] ' . a:what . (a:0 ? ': ' . a:1 : ''))
  endif
  return a:ok
endfunction

function! s:Expect(actual, expected, what) abort
  return s:Check(a:actual ==# a:expected, a:what,
        \ 'expected ' . string(a:expected) . ', got ' . string(a:actual))
endfunction

" Runs an Ex command; any Vim error (thrown, or only left in v:errmsg) fails the check.
function! s:Run(command, what) abort
  let v:errmsg = ''
  try
    execute a:command
  catch
    return s:Check(0, a:what, v:exception . ' (at ' . v:throwpoint . ')')
  endtry
  return s:Check(empty(v:errmsg), a:what, v:errmsg)
endfunction

" The syntax group at the first whole-token occurrence of `token` on line `lnum`.
function! s:GroupOf(lnum, token) abort
  let l:pattern = '\V\%(\^\|\s\)\zs' . escape(a:token, '\') . '\ze\%(\s\|#\|\$\)'
  let l:index = match(getline(a:lnum), l:pattern)
  if l:index < 0
    return '(token not found)'
  endif
  return synIDattr(synID(a:lnum, l:index + 1, 1), 'name')
endfunction

" The groups of a check token's characters on line `lnum` (its first whole-token occurrence):
" [group of the `=`, group of every byte after it, or 'mixed: …' when they differ].
function! s:CheckGroups(lnum, token) abort
  let l:pattern = '\V\%(\^\|\s\)\zs' . escape(a:token, '\') . '\ze\%(\s\|#\|\$\)'
  let l:index = match(getline(a:lnum), l:pattern)
  if l:index < 0
    return ['(token not found)', '']
  endif
  let l:rest = []
  for l:col in range(l:index + 2, l:index + strlen(a:token))
    call add(l:rest, synIDattr(synID(a:lnum, l:col, 1), 'name'))
  endfor
  let l:groups = uniq(copy(l:rest))
  return [synIDattr(synID(a:lnum, l:index + 1, 1), 'name'),
        \ len(l:groups) <= 1 ? get(l:groups, 0, '') : 'mixed: ' . join(l:rest, ' ')]
endfunction

" The first line matching `pattern` (very nomagic is not used: patterns are plain regexes).
function! s:LineOf(pattern) abort
  for l:lnum in range(1, line('$'))
    if getline(l:lnum) =~# a:pattern
      return l:lnum
    endif
  endfor
  return 0
endfunction

call s:Out('== ' . s:label . ' + EditorConfigs/vim')

" --- Filetype detection and comment settings -----------------------------------------------

call s:Run('edit ' . fnameescape($RPN_TEST_TAPE), 'opening sample.rpn raises no error')
call s:Expect(&filetype, 'rpn', '`.rpn` files get filetype rpn (ftdetect/rpn.vim)')
call s:Expect(&commentstring, '# %s', 'commentstring is "# %s" (ftplugin/rpn.vim)')
call s:Expect(&comments, ':#', 'comments is ":#" (ftplugin/rpn.vim)')
call s:Check(exists('b:undo_ftplugin') && b:undo_ftplugin =~# 'commentstring<',
      \ 'b:undo_ftplugin restores the comment settings', string(get(b:, 'undo_ftplugin', '')))
call s:Expect(get(b:, 'current_syntax', ''), 'rpn', 'syntax/rpn.vim is loaded for the buffer')

let s:new_tape = $RPN_TEST_DIR . '/new.rpn'
call s:Run('edit ' . fnameescape(s:new_tape), 'a new (unsaved) .rpn file opens without error')
call s:Expect(&filetype, 'rpn', 'a new .rpn file gets filetype rpn (BufNewFile)')
call s:Expect(&commentstring, '# %s', 'a new .rpn file gets the comment settings')
call s:Run('edit ' . fnameescape($RPN_TEST_TAPE), 'back to sample.rpn')

" --- Syntax groups on the sample -------------------------------------------------------------

" [a regex for the line, a token on it, the expected group]
let s:sample_cases = [
      \ ['^# A tour', '#', 'rpnComment'],
      \ ['^12 12\.5 ', '12', 'rpnNumber'],
      \ ['^12 12\.5 ', '12.5', 'rpnNumber'],
      \ ['^12 12\.5 ', '.5', 'rpnNumber'],
      \ ['^12 12\.5 ', '12.', 'rpnNumber'],
      \ ['^12 12\.5 ', '−3', 'rpnNumber'],
      \ ['^12 12\.5 ', '1e3', 'rpnNumber'],
      \ ['^12 12\.5 ', '2.5E-4', 'rpnNumber'],
      \ ['^12 12\.5 ', '1_000_000', 'rpnNumber'],
      \ ['^2 3 +', '+', 'rpnOperator'],
      \ ['^2 3 +', '#', 'rpnComment'],
      \ ['^10 4 −', '−', 'rpnOperator'],
      \ ['^6 7 ×', '×', 'rpnOperator'],
      \ ['^6 7 ×', '÷', 'rpnOperator'],
      \ ['^2 10 ^', '^', 'rpnOperator'],
      \ ['^2 10 ^', '**', 'rpnOperator'],
      \ ['^2 10 ^', 'pow', 'rpnFunction'],
      \ ['^2450 =income', '=income', 'rpnStore'],
      \ ['^rent groceries', 'rent', 'rpnVariable'],
      \ ['^rent groceries', '=spent', 'rpnStore'],
      \ ['^48\.60 18 %', '%', 'rpnOperator'],
      \ ['^round =total', 'round', 'rpnFunction'],
      \ ['^pi 6 / sin', 'pi', 'rpnConstant'],
      \ ['^pi 6 / sin', '/', 'rpnOperator'],
      \ ['^pi 6 / sin', 'sin', 'rpnFunction'],
      \ ['^2 √ sq', '√', 'rpnOperator'],
      \ ['^2 √ sq', 'sq', 'rpnFunction'],
      \ ['^depth', 'depth', 'rpnFunction'],
      \ ['^1 2 3 rot', 'rot', 'rpnFunction'],
      \ ['^4 5 swpa', 'swpa', 'rpnVariable'],
      \ ['^12\.5 8 + =20\.5', '12.5', 'rpnNumber'],
      \ ['^left =849', 'left', 'rpnVariable'],
      \ ['^: hyp ', ':', 'rpnDefinition'],
      \ ['^: hyp ', 'hyp', 'rpnWordName'],
      \ ['^: hyp ', 'swap', 'rpnFunction'],
      \ ['^: hyp ', ';', 'rpnDefinition'],
      \ ['^3 4 hyp', 'hyp', 'rpnVariable'],
      \ ['^5 12 hyp lastx', 'lastx', 'rpnFunction'],
      \ ['^# Sections', '##', 'rpnComment'],
      \ ['^## Groceries', '##', 'rpnHeading'],
      \ ['^## Groceries', 'Groceries', 'rpnHeading'],
      \ ['^subtotal', 'subtotal', 'rpnFunction'],
      \ ]
for [s:line_pattern, s:token, s:group] in s:sample_cases
  let s:lnum = s:LineOf(s:line_pattern)
  if s:lnum == 0
    call s:Check(0, 'sample.rpn has a line matching ' . string(s:line_pattern), 'none (was the sample changed?)')
    continue
  endif
  call s:Expect(s:GroupOf(s:lnum, s:token), s:group,
        \ 'syntax: ' . string(s:token) . ' on sample.rpn line ' . s:lnum . ' is ' . s:group)
endfor

" The sample's checks: [a regex for the line, the check token].
for [s:line_pattern, s:token] in [['^12\.5 8 + =20\.5', '=20.5'], ['^1 3 / =0\.333', '=0.333'],
      \ ['^left =849', '=849.61'], ['^1480 =1\.5e3', '=1.5e3']]
  let s:lnum = s:LineOf(s:line_pattern)
  if s:lnum == 0
    call s:Check(0, 'sample.rpn has a line matching ' . string(s:line_pattern), 'none (was the sample changed?)')
    continue
  endif
  call s:Expect(s:CheckGroups(s:lnum, s:token), ['rpnCheckSign', 'rpnCheckValue'],
        \ 'syntax: ' . string(s:token) . ' on sample.rpn line ' . s:lnum . ' is a check (rpnCheckSign, rpnCheckValue)')
endfor

" --- Syntax groups on tricky tokens (whole tokens only) -------------------------------------

let s:tricky = [
      \ ['+3', 'rpnNumber'], ['-0.5e-3', 'rpnNumber'], ['0.000_1', 'rpnNumber'],
      \ ['−12.', 'rpnNumber'], ['.5E+2', 'rpnNumber'], ['007', 'rpnNumber'],
      \ ['4+', ''], ['1__0', ''], ['1_', ''], ['1e3_0', ''], ['1.2.3', ''], ['1e', ''],
      \ ['--3', ''], ['+-3', ''], ['.', ''], ['1e3.5', ''], ['=', ''], ['=2x', ''],
      \ ['E3', 'rpnVariable'], ['é', 'rpnVariable'], ['x2', 'rpnVariable'], ['x_1', 'rpnVariable'],
      \ ['=rate', 'rpnStore'], ['=é', 'rpnStore'], ['=x_1', 'rpnStore'], ['=_x1', ''], ['=_km', ''], ['_x1', ''],
      \ ['uval', 'rpnFunction'], ['UBASE', 'rpnFunction'],
      \ ['_km', 'rpnUnit'], ['_tmp', 'rpnUnit'], ['_m/s', 'rpnUnit'], ['_1/s', 'rpnUnit'], ['_kg·m²', 'rpnUnit'],
      \ ['_°C', 'rpnUnit'], ['_J/(kg*K)', 'rpnUnit'], ['>mi', 'rpnUnit'], ['->mi', 'rpnUnit'], ['→mi', 'rpnUnit'],
      \ ['>km/h', 'rpnUnit'], ['>°F', 'rpnUnit'], ['_s⁻²', 'rpnUnit'], ['→Δ°C', 'rpnUnit'], ['>m/s^2', 'rpnUnit'],
      \ ['_', ''], ['>', ''], ['->', ''], ['→', ''], ['_1', ''], ['__km', ''], ['>>mi', ''], ['_km/', ''],
      \ ['>12', ''], ['-->mi', ''], ['>h:m', ''], ['_1*s', ''], ['>_km', ''], ['>m^0', ''],
      \ ['0x1F_km', ''], ['12_', ''], ['12__km', ''], ['12_km_', ''], ['12_1/s', ''], ['12_km/', ''], ['12_m^', ''],
      \ ['12_m/s/s', ''], ['12_(m)', ''], ['12_m2', ''], ['12_m^0', ''], ['12_m^100', ''], ['12_m⁰', ''],
      \ ['12_m/(s', ''], ['1,5_km', ''], ['=0xFF_km', ''], ['=12_', ''], ['=12.5_km/', ''],
      \ ['DUP', 'rpnFunction'], ['Sqrt', 'rpnFunction'], ['log2', 'rpnFunction'],
      \ ['mean', 'rpnFunction'], ['chs', 'rpnFunction'],
      \ ['PI', 'rpnConstant'], ['π', 'rpnConstant'], ['e', 'rpnConstant'],
      \ ['-', 'rpnOperator'], ['*', 'rpnOperator'], ['−', 'rpnOperator'],
      \ ['lastx', 'rpnFunction'], ['LastX', 'rpnFunction'], ['pick', 'rpnFunction'], ['roll', 'rpnFunction'],
      \ ['%ch', 'rpnOperator'], ['%CH', 'rpnOperator'], ['%t', 'rpnOperator'], ['%c', ''], ['%t2', ''],
      \ ['log10', 'rpnFunction'], ['ATAN2', 'rpnFunction'], ['sinh', 'rpnFunction'], ['acosh', 'rpnFunction'],
      \ ['fact', 'rpnFunction'], ['sdev', 'rpnFunction'],
      \ ['subtotal', 'rpnFunction'], ['SubTotal', 'rpnFunction'], ['subtotals', 'rpnVariable'],
      \ [':', 'rpnDefinition'], [';', 'rpnDefinition'], ['4:', ''], ['x;', ''], [':x', ''], [';x', ''],
      \ ['::', ''], [';;', ''], [':;', ''],
      \ ['1,234,567.89', 'rpnNumber'], ['-1,000', 'rpnNumber'], ['−1,000', 'rpnNumber'], ['+1,000', 'rpnNumber'],
      \ ['1,234.', 'rpnNumber'], ['999,999', 'rpnNumber'], ['1,234e3', 'rpnNumber'], ['1,234.5_6', 'rpnNumber'],
      \ ['0,001', 'rpnNumber'], ['1_2,345', 'rpnNumber'],
      \ ['1,5', ''], ['12,34', ''], ['1,,000', ''], [',5', ''], ['1,000,00', ''], ['1234,567', ''],
      \ ['1,234.5,6', ''], ['1,_000', ''], ['1_,000', ''], ['1,', ''], ['1,2345', ''], ['.5,000', ''],
      \ ['0x1F', 'rpnNumber'], ['0X1f', 'rpnNumber'], ['0o17', 'rpnNumber'], ['0O17', 'rpnNumber'],
      \ ['0b1010', 'rpnNumber'], ['0B1010', 'rpnNumber'], ['-0xFF', 'rpnNumber'], ['−0xFF', 'rpnNumber'],
      \ ['+0o7', 'rpnNumber'], ['0xFF_FF', 'rpnNumber'], ['0b1010_1010', 'rpnNumber'], ['0xdead_BEEF', 'rpnNumber'],
      \ ['0x1e3', 'rpnNumber'],
      \ ['0x', ''], ['0xG', ''], ['0b102', ''], ['0x1p3', ''], ['0o8', ''], ['0x_FF', ''], ['0xFF_', ''],
      \ ['0xF__F', ''], ['00x1F', ''], ['0x1F.5', ''], ['0xFFz', ''], ['0b1e3', ''], ['0x1F,000', ''], ['0x-1', ''],
      \ ]
new
setfiletype rpn
call s:Expect(get(b:, 'current_syntax', ''), 'rpn', 'syntax loads for a scratch buffer set to rpn')
call setline(1, map(copy(s:tricky), 'v:val[0] . " # after"'))
call setline(len(s:tricky) + 1, 'x#y TODO')
for s:index in range(len(s:tricky))
  let [s:token, s:group] = s:tricky[s:index]
  call s:Expect(s:GroupOf(s:index + 1, s:token), s:group,
        \ 'syntax: ' . string(s:token) . ' is ' . (empty(s:group) ? 'not highlighted' : s:group))
endfor
let s:last = len(s:tricky) + 1
call s:Expect(synIDattr(synID(s:last, 1, 1), 'name'), 'rpnVariable', 'syntax: `x` in `x#y` is a name')
call s:Expect(synIDattr(synID(s:last, 2, 1), 'name'), 'rpnComment', 'syntax: `#` right after a token starts a comment')
call s:Expect(synIDattr(synID(s:last, 5, 1), 'name'), 'rpnTodo', 'syntax: TODO inside a comment')
bwipeout!

" --- Checks: `=` and a number literal, the whole token -----------------------------------------

" [token, the group of its `=`, the group of the rest]. Near-misses keep what they had before
" checks existed: nothing (`=2x`, `=`, `=1.2.3`), or a store for `=dup` (the server says a
" builtin's name cannot be stored).
let s:checks = [
      \ ['=20.5', 'rpnCheckSign', 'rpnCheckValue'], ['=0.333', 'rpnCheckSign', 'rpnCheckValue'],
      \ ['=-2.5', 'rpnCheckSign', 'rpnCheckValue'], ['=−2.5', 'rpnCheckSign', 'rpnCheckValue'],
      \ ['=+3', 'rpnCheckSign', 'rpnCheckValue'], ['=1.5e3', 'rpnCheckSign', 'rpnCheckValue'],
      \ ['=2.5E-4', 'rpnCheckSign', 'rpnCheckValue'], ['=1_000', 'rpnCheckSign', 'rpnCheckValue'],
      \ ['=.5', 'rpnCheckSign', 'rpnCheckValue'], ['=12.', 'rpnCheckSign', 'rpnCheckValue'],
      \ ['=007', 'rpnCheckSign', 'rpnCheckValue'],
      \ ['=1,234.50', 'rpnCheckSign', 'rpnCheckValue'], ['=-1,000', 'rpnCheckSign', 'rpnCheckValue'],
      \ ['=−1,000', 'rpnCheckSign', 'rpnCheckValue'], ['=0xFF', 'rpnCheckSign', 'rpnCheckValue'],
      \ ['=−0b1010', 'rpnCheckSign', 'rpnCheckValue'], ['=0o17', 'rpnCheckSign', 'rpnCheckValue'],
      \ ['=0XFF_FF', 'rpnCheckSign', 'rpnCheckValue'], ['=1,000e3', 'rpnCheckSign', 'rpnCheckValue'],
      \ ['=1,5', '', ''], ['=0xG', '', ''], ['=0x', '', ''], ['=12,34', '', ''], ['=0b102', '', ''],
      \ ['=,5', '', ''], ['=1,000,00', '', ''], ['=0x1F.5', '', ''],
      \ ['=2x', '', ''], ['=', '', ''], ['=1.2.3', '', ''], ['=1.5x', '', ''], ['=1e3.5', '', ''],
      \ ['=--3', '', ''], ['=1__0', '', ''], ['==5', '', ''], ['=5=', '', ''], ['=1e', '', ''],
      \ ['=dup', 'rpnStore', 'rpnStore'], ['=rate', 'rpnStore', 'rpnStore'],
      \ ]
new
setfiletype rpn
call setline(1, map(copy(s:checks), 'v:val[0] . " # after"'))
call setline(len(s:checks) + 1, '12.5 8 + =20.5#c')
call setline(len(s:checks) + 2, 'a=5 =20.5x')
for s:index in range(len(s:checks))
  let [s:token, s:sign, s:value] = s:checks[s:index]
  call s:Expect(s:CheckGroups(s:index + 1, s:token), [s:sign, s:value],
        \ 'syntax: ' . string(s:token) . (s:sign ==# 'rpnCheckSign' ? ' is a check (rpnCheckSign, rpnCheckValue)'
        \ : ' is ' . (empty(s:sign) ? 'not highlighted' : s:sign) . ', no check'))
endfor
let s:line = len(s:checks) + 1
call s:Expect([s:GroupOf(s:line, '12.5'), synIDattr(synID(s:line, 10, 1), 'name'),
      \ synIDattr(synID(s:line, 11, 1), 'name'), synIDattr(synID(s:line, 15, 1), 'name')],
      \ ['rpnNumber', 'rpnCheckSign', 'rpnCheckValue', 'rpnComment'],
      \ 'syntax: `12.5 8 + =20.5#c`: a number, a check right before `#`, a comment')
call s:Expect([synIDattr(synID(s:line + 1, 2, 1), 'name'), synIDattr(synID(s:line + 1, 5, 1), 'name'),
      \ synIDattr(synID(s:line + 1, 6, 1), 'name')], ['', '', ''],
      \ 'syntax: no check inside `a=5` nor in `=20.5x`')
" What a group is linked to (`:highlight default link`), as `:highlight GROUP` shows it.
function! s:LinkOf(group) abort
  return matchstr(execute('highlight ' . a:group), 'links to \zs\S\+')
endfunction
call s:Expect(s:LinkOf('rpnCheckSign'), 'Operator', "syntax: a check's `=` is coloured as an Operator")
call s:Expect(s:LinkOf('rpnCheckValue'), 'Number', "syntax: a check's value is coloured as a Number")
call s:Expect(s:LinkOf('rpnStore'), 'Identifier', 'syntax: a store stays an Identifier, apart from checks')
bwipeout!

" --- Quantities `12_km` and checks of quantities `=12.5_km` ---------------------------------------

" The groups of a quantity token's parts on line `lnum` (its first whole-token occurrence): [its
" first byte, the byte before the unit's `_`, the `_`, its last byte].
function! s:QuantityGroups(lnum, token) abort
  let l:pattern = '\V\%(\^\|\s\)\zs' . escape(a:token, '\') . '\ze\%(\s\|#\|\$\)'
  let l:index = match(getline(a:lnum), l:pattern)
  if l:index < 0
    return ['(token not found)']
  endif
  let l:unit = match(a:token, '_\d\@!')
  return map([0, l:unit - 1, l:unit, strlen(a:token) - 1], 'synIDattr(synID(a:lnum, l:index + v:val + 1, 1), "name")')
endfunction

" Times and angles in a unit are quantities too: two fields in h, min, ° or deg, three in h, ° or deg.
let s:quantities = ['12_km', '1_000_km', '9.81_m/s^2', '-40_°C', '2.5_kW*h', '1_J/(kg*K)', '5_m²', '0.2_s^-1',
      \ '3_Ω', '20_Δ°C', '1,250.00_EUR', '−3_m', '+2_kg·m²/s³', '1e3_m', '.5_h', '12._km', '1_000.5_¥', '12_m²²',
      \ '12_m^99', '5_m⁴', '1_∆°C',
      \ '4:35_min', '48:46:32_°', '48:46_deg', '1:30_h', '1:30:15_h', '48:46:32.5_deg', '−0:30_°', '2:15.5_min']
let s:quantity_checks = ['=12.5_km', '=-40_°C', '=9.81_m/s^2', '=1_000_km', '=−3_J/(kg*K)',
      \ '=4:35_min', '=48:46:32_°', '=-1:30_h']
new
setfiletype rpn
call setline(1, map(s:quantities + s:quantity_checks, 'v:val . " # after"'))
for s:index in range(len(s:quantities))
  let s:token = s:quantities[s:index]
  call s:Expect(s:QuantityGroups(s:index + 1, s:token), ['rpnQuantity', 'rpnQuantity', 'rpnQuantityUnit',
        \ 'rpnQuantityUnit'], 'syntax: ' . string(s:token) . ' is a quantity (rpnQuantity, rpnQuantityUnit)')
endfor
for s:index in range(len(s:quantity_checks))
  let s:token = s:quantity_checks[s:index]
  call s:Expect(s:QuantityGroups(len(s:quantities) + s:index + 1, s:token), ['rpnCheckSign', 'rpnCheckQuantity',
        \ 'rpnQuantityUnit', 'rpnQuantityUnit'],
        \ 'syntax: ' . string(s:token) . ' is a check of a quantity (rpnCheckSign, rpnCheckQuantity, rpnQuantityUnit)')
endfor
call s:Expect(map(['rpnQuantity', 'rpnCheckQuantity', 'rpnQuantityUnit', 'rpnUnit'], 's:LinkOf(v:val)'),
      \ ['Number', 'Number', 'Type', 'Type'], 'syntax: a quantity is a Number and its unit a Type; a unit word a Type')
bwipeout!

" --- Times and angles in fields of sixty: `1:30`, `=2:15`, `>h:mm` -------------------------------------

" [token, the group of its first byte, the group of every byte after it]. A time or angle is one
" number (rpnNumber), after `=` a check (rpnCheckSign, rpnCheckValue); a format that `>` converts
" to is a unit word (rpnUnit). Written wrongly (the server says invalid-number or invalid-unit), a
" token has no byte coloured: not `1:30` of `1:30_km`, nor `_min` of `1:30:15_min`.
let s:sexagesimals = [
      \ ['1:30', 'rpnNumber', 'rpnNumber'], ['1:30:15', 'rpnNumber', 'rpnNumber'], ['27:10', 'rpnNumber', 'rpnNumber'],
      \ ['-0:30', 'rpnNumber', 'rpnNumber'], ['−0:30', 'rpnNumber', 'rpnNumber'], ['+1:30', 'rpnNumber', 'rpnNumber'],
      \ ['1:30:15.5', 'rpnNumber', 'rpnNumber'], ['1:30.5', 'rpnNumber', 'rpnNumber'], ['1:30.', 'rpnNumber', 'rpnNumber'],
      \ ['100:59:59', 'rpnNumber', 'rpnNumber'],
      \ ['=2:15', 'rpnCheckSign', 'rpnCheckValue'], ['=1:30:15.5', 'rpnCheckSign', 'rpnCheckValue'],
      \ ['=-0:30', 'rpnCheckSign', 'rpnCheckValue'], ['=−1:30:15', 'rpnCheckSign', 'rpnCheckValue'],
      \ ['>h:mm', 'rpnUnit', 'rpnUnit'], ['>h:mm:ss', 'rpnUnit', 'rpnUnit'], ['>min:ss', 'rpnUnit', 'rpnUnit'],
      \ ['>°:mm', 'rpnUnit', 'rpnUnit'], ['>°:mm:ss', 'rpnUnit', 'rpnUnit'], ['>deg:mm', 'rpnUnit', 'rpnUnit'],
      \ ['>deg:mm:ss', 'rpnUnit', 'rpnUnit'], ['->h:mm', 'rpnUnit', 'rpnUnit'], ['→min:ss', 'rpnUnit', 'rpnUnit'],
      \ ['→h:mm:ss', 'rpnUnit', 'rpnUnit'], ['->deg:mm:ss', 'rpnUnit', 'rpnUnit'],
      \ ['1:75', '', ''], ['1:5', '', ''], ['1:', '', ''], [':30', '', ''], ['1:30:', '', ''], ['1::30', '', ''],
      \ ['1.5:30', '', ''], ['1:30_km', '', ''], ['1:00:00:00', '', ''], ['1:30:15_min', '', ''], ['1:60', '', ''],
      \ ['1:300', '', ''], ['1:30.5.5', '', ''], ['1:30e3', '', ''], ['1,000:30', '', ''], ['0x1:30', '', ''],
      \ ['1:30_', '', ''], ['1:30__h', '', ''], ['1:30_min_', '', ''], ['--1:30', '', ''], ['4:', '', ''],
      \ ['=1:75', '', ''], ['=1:30_km', '', ''], ['=1:30:15_min', '', ''], ['=:30', '', ''], ['=4:', '', ''],
      \ ['==2:15', '', ''],
      \ ['>h:m', '', ''], ['>hh:mm', '', ''], ['>min:mm', '', ''], ['>h:mm:s', '', ''], ['>°:ss', '', ''],
      \ ['>h:mm:ss:ss', '', ''], ['_min:ss', '', ''], ['_h:mm', '', ''],
      \ ]
new
setfiletype rpn
call setline(1, map(copy(s:sexagesimals), 'v:val[0] . " # after"'))
for s:index in range(len(s:sexagesimals))
  let [s:token, s:first, s:rest] = s:sexagesimals[s:index]
  call s:Expect(s:CheckGroups(s:index + 1, s:token), [s:first, s:rest],
        \ 'syntax: ' . string(s:token) . ' is ' . (empty(s:first) ? 'not highlighted'
        \ : s:first ==# s:rest ? s:first : s:first . ', ' . s:rest))
endfor
bwipeout!

" --- Definitions: `: name body… ;` ---------------------------------------------------------------

" The groups of a line's tokens (split at white space; the line holds no comment).
function! s:TokenGroups(lnum) abort
  let l:text = getline(a:lnum)
  let l:groups = []
  let l:from = 0
  while 1
    let l:start = match(l:text, '\S', l:from)
    if l:start < 0
      break
    endif
    let l:from = matchend(l:text, '\S\+', l:start)
    call add(l:groups, synIDattr(synID(a:lnum, l:start + 1, 1), 'name'))
  endwhile
  return l:groups
endfunction

" [line, the group of each of its tokens]. A builtin's name cannot be defined: after `:` it keeps
" its group. A use of a word is a name, as a variable's is: a syntax cannot tell them apart.
let s:definitions = [
      \ [': hyp sq swap sq + sqrt ;', ['rpnDefinition', 'rpnWordName', 'rpnFunction', 'rpnFunction', 'rpnFunction',
      \   'rpnOperator', 'rpnFunction', 'rpnDefinition']],
      \ ['3 4 hyp lastx =5', ['rpnNumber', 'rpnNumber', 'rpnVariable', 'rpnFunction', 'rpnCheckSign']],
      \ ["1 2 :\tw_2 + ; w_2", ['rpnNumber', 'rpnNumber', 'rpnDefinition', 'rpnWordName', 'rpnOperator',
      \   'rpnDefinition', 'rpnVariable']],
      \ [': é ; : x_2 ;', ['rpnDefinition', 'rpnWordName', 'rpnDefinition', 'rpnDefinition', 'rpnWordName',
      \   'rpnDefinition']],
      \ [': tokm _km ; 5 tokm : _km ;', ['rpnDefinition', 'rpnWordName', 'rpnUnit', 'rpnDefinition', 'rpnNumber',
      \   'rpnVariable', 'rpnDefinition', 'rpnUnit', 'rpnDefinition']],
      \ [': _EUR 1.08_USD ; 100_EUR >USD : _box ; 3_box', ['rpnDefinition', 'rpnUnit', 'rpnQuantity',
      \   'rpnDefinition', 'rpnQuantity', 'rpnUnit', 'rpnDefinition', 'rpnUnit', 'rpnDefinition', 'rpnQuantity']],
      \ [': dup 2 * ;', ['rpnDefinition', 'rpnFunction', 'rpnNumber', 'rpnOperator', 'rpnDefinition']],
      \ [': PI ; : π ; : e ;', ['rpnDefinition', 'rpnConstant', 'rpnDefinition', 'rpnDefinition', 'rpnConstant',
      \   'rpnDefinition', 'rpnDefinition', 'rpnConstant', 'rpnDefinition']],
      \ [': 12 ; : =x ; : ;', ['rpnDefinition', 'rpnNumber', 'rpnDefinition', 'rpnDefinition', 'rpnStore',
      \   'rpnDefinition', 'rpnDefinition', 'rpnDefinition']],
      \ ['4: x; :x ;x :: ;; :; : 4+ ;', ['', '', '', '', '', '', '', 'rpnDefinition', '', 'rpnDefinition']],
      \ [': half 2 / ; 1:30 half 4: : 4:35_min >h:mm', ['rpnDefinition', 'rpnWordName', 'rpnNumber', 'rpnOperator',
      \   'rpnDefinition', 'rpnNumber', 'rpnVariable', '', 'rpnDefinition', 'rpnQuantity', 'rpnUnit']],
      \ [':: hyp ; ; hyp', ['', 'rpnVariable', 'rpnDefinition', 'rpnDefinition', 'rpnVariable']],
      \ ]
new
setfiletype rpn
call setline(1, map(copy(s:definitions), 'v:val[0]'))
call setline(len(s:definitions) + 1, ':# a comment right after `:`')
for s:index in range(len(s:definitions))
  let [s:text, s:groups] = s:definitions[s:index]
  call s:Expect(s:TokenGroups(s:index + 1), s:groups, 'syntax: ' . string(s:text) . ', token by token')
endfor
let s:line = len(s:definitions) + 1
call s:Expect([synIDattr(synID(s:line, 1, 1), 'name'), synIDattr(synID(s:line, 2, 1), 'name')],
      \ ['rpnDefinition', 'rpnComment'], 'syntax: `:#c`: a `:` right before `#`, then a comment')
call s:Expect(s:LinkOf('rpnDefinition'), 'Keyword', "syntax: a definition's `:` and `;` are coloured as a Keyword")
call s:Expect(s:LinkOf('rpnWordName'), 'Function', 'syntax: the name a definition defines is coloured as a Function')
bwipeout!

" --- Headings: a line that holds only a comment starting with `##` ----------------------------

" [line, the group of every character from its first `#` on]. After a token `##` starts a plain
" comment.
let s:headings = [
      \ ['## Groceries', 'rpnHeading'], ['  ### Fruit and veg', 'rpnHeading'], ['##', 'rpnHeading'],
      \ ["\t## Rent # and bills", 'rpnHeading'],
      \ ['1 2 ## total', 'rpnComment'], ['# a comment that mentions ## is no heading', 'rpnComment'],
      \ ['=20.5 ## checked', 'rpnComment'],
      \ ]
new
setfiletype rpn
call setline(1, map(copy(s:headings), 'v:val[0]'))
call setline(len(s:headings) + 1, '## TODO: the receipts')
for s:index in range(len(s:headings))
  let [s:text, s:group] = s:headings[s:index]
  let s:groups = uniq(map(range(stridx(s:text, '#') + 1, strlen(s:text)),
        \ 'synIDattr(synID(s:index + 1, v:val, 1), "name")'))
  call s:Expect(s:groups, [s:group], 'syntax: ' . string(s:text) . ' from its first `#` is ' . s:group)
endfor
let s:line = len(s:headings) + 1
call s:Expect([synIDattr(synID(s:line, 1, 1), 'name'), synIDattr(synID(s:line, 4, 1), 'name')],
      \ ['rpnHeading', 'rpnTodo'], 'syntax: TODO inside a heading')
call s:Expect(s:LinkOf('rpnHeading'), 'Title', 'syntax: a heading is coloured as a Title')
bwipeout!

" --- The LSP registration files, without their plugins ---------------------------------------

let s:vim_lsp_file = $RPN_TEST_CONFIGS . '/rpn-vim-lsp.vim'
let s:yegappan_file = $RPN_TEST_CONFIGS . '/rpn-yegappan-lsp.vim'
call s:Run('source ' . fnameescape(s:vim_lsp_file), 'rpn-vim-lsp.vim sources without error, vim-lsp not installed')
call s:Run('source ' . fnameescape(s:yegappan_file), 'rpn-yegappan-lsp.vim sources without error, yegappan/lsp not installed')
call s:Check(exists('#User#lsp_setup'), 'rpn-vim-lsp.vim waits for vim-lsp (a User lsp_setup autocmd)')
call s:Check(exists('#User#LspSetup'), 'rpn-yegappan-lsp.vim waits for yegappan/lsp (a User LspSetup autocmd)')
call s:Expect(get(g:, 'lsp_inlay_hints_enabled', 0), 1, 'rpn-vim-lsp.vim sets g:lsp_inlay_hints_enabled')
call s:Run('edit ' . fnameescape($RPN_TEST_TAPE), 'sample.rpn still opens with both files sourced')
call s:Expect(&filetype, 'rpn', 'sample.rpn still gets filetype rpn')
call s:Check(empty(filter(split(execute('messages'), "\n"), 'v:val =~# "^E\\d\\+:"')),
      \ 'no error message in :messages so far', execute('messages'))

" --- What each file registers when its plugin fires its setup event --------------------------

" vim-lsp's lsp#register_server lives in autoload/lsp.vim; a stand-in must live there too.
let s:stubs = $RPN_TEST_DIR . '/stubs'
call mkdir(s:stubs . '/autoload', 'p')
call writefile([
      \ 'let g:rpn_test_vim_lsp_servers = []',
      \ 'function! lsp#register_server(info) abort',
      \ '  call add(g:rpn_test_vim_lsp_servers, a:info)',
      \ 'endfunction',
      \ ], s:stubs . '/autoload/lsp.vim')
execute 'set runtimepath+=' . fnameescape(s:stubs)
let s:vim_lsp_servers = []
call s:Run('doautocmd <nomodeline> User lsp_setup', 'vim-lsp stand-in: User lsp_setup runs without error')
let s:vim_lsp_servers = get(g:, 'rpn_test_vim_lsp_servers', [])
if s:Expect(len(s:vim_lsp_servers), 1, 'vim-lsp: one server registered')
  let s:info = s:vim_lsp_servers[0]
  call s:Expect(get(s:info, 'name', ''), 'rpn-lsp', 'vim-lsp: the server is named rpn-lsp')
  call s:Expect(get(s:info, 'allowlist', []), ['rpn'], 'vim-lsp: allowlist is the rpn filetype')
  call s:Expect(s:info.cmd({}), ['rpn-lsp', '--stdio'], 'vim-lsp: cmd is rpn-lsp --stdio by default')
  let $RPN_LSP = '/opt/rpn/bin/rpn-lsp'
  call s:Expect(s:info.cmd({}), ['/opt/rpn/bin/rpn-lsp', '--stdio'], 'vim-lsp: cmd follows $RPN_LSP')
  let g:rpn_lsp_cmd = '/usr/local/bin/rpn-lsp'
  call s:Expect(s:info.cmd({}), ['/usr/local/bin/rpn-lsp', '--stdio'], 'vim-lsp: cmd follows g:rpn_lsp_cmd')
  let g:rpn_lsp_cmd = ['/usr/local/bin/rpn-lsp', '--stdio', '--stdio']
  call s:Expect(s:info.cmd({}), g:rpn_lsp_cmd, 'vim-lsp: a list in g:rpn_lsp_cmd is the whole command')
  unlet g:rpn_lsp_cmd
  let $RPN_LSP = ''
  call s:Expect(get(s:info, 'initialization_options', {}), {'rpn': {}}, 'vim-lsp: initialization_options is {"rpn": {}}')
  call s:Expect(get(s:info, 'workspace_config', {}), {'rpn': {}}, 'vim-lsp: workspace_config is {"rpn": {}}')
endif
call s:Run('doautocmd <nomodeline> User lsp_setup', 'vim-lsp stand-in: a second lsp_setup runs without error')
call s:Expect(len(s:vim_lsp_servers), 1, 'vim-lsp: a second lsp_setup registers nothing more')
call s:Run('doautocmd <nomodeline> User lsp_buffer_enabled', 'vim-lsp stand-in: User lsp_buffer_enabled in the tape')
call s:Expect(&omnifunc, 'lsp#complete', 'vim-lsp: .rpn buffers complete with lsp#complete (<C-x><C-o>)')
call s:Check(maparg('K', 'n') =~? '<Plug>(lsp-hover)', 'vim-lsp: K hovers in .rpn buffers', string(maparg('K', 'n')))

let s:yegappan_servers = []
let s:yegappan_options = []
function! LspAddServer(servers) abort
  call extend(s:yegappan_servers, a:servers)
endfunction
function! LspOptionsSet(options) abort
  call add(s:yegappan_options, a:options)
endfunction
let g:rpn_lsp_settings = {'angleUnit': 'degrees'}
call s:Run('doautocmd <nomodeline> User LspSetup', 'yegappan/lsp stand-in: User LspSetup runs without error')
if s:Expect(len(s:yegappan_servers), 1, 'yegappan/lsp: one server registered')
  let s:server = s:yegappan_servers[0]
  call s:Expect(get(s:server, 'name', ''), 'rpn-lsp', 'yegappan/lsp: the server is named rpn-lsp')
  call s:Expect(get(s:server, 'filetype', []), ['rpn'], 'yegappan/lsp: filetype is rpn')
  call s:Expect(get(s:server, 'path', ''), 'rpn-lsp', 'yegappan/lsp: path is rpn-lsp')
  call s:Expect(get(s:server, 'args', []), ['--stdio'], 'yegappan/lsp: args is --stdio')
  call s:Expect(get(s:server, 'initializationOptions', {}), {'rpn': {'angleUnit': 'degrees'}},
        \ 'yegappan/lsp: initializationOptions carry g:rpn_lsp_settings under "rpn"')
endif
call s:Expect(get(s:yegappan_options, 0, {}), {'showInlayHints': v:true},
      \ 'yegappan/lsp: inlay hints turned on (showInlayHints)')
call s:Expect(get(s:yegappan_options, 1, {}), {'omniComplete': v:true},
      \ 'yegappan/lsp: <C-x><C-o> completes (omniComplete, else E764: omnifunc is not set)')
if has('patch-9.0.1157')
  call s:Expect(get(s:yegappan_options, 2, {}), {'showDiagWithVirtualText': v:true, 'diagVirtualTextAlign': 'after'},
        \ 'yegappan/lsp: each diagnostic text after its line (showDiagWithVirtualText)')
endif
call s:Expect(len(s:yegappan_options), has('patch-9.0.1157') ? 3 : 2, 'yegappan/lsp: no other global option set')
call s:Expect(get(get(hlget('LspInlayHintsType'), 0, {}), 'linksto', ''), 'NonText',
      \ 'yegappan/lsp: inlay hints coloured as NonText, not as Label like the operators')
call s:Check(exists('#rpn_yegappan_lsp#TextChanged#*.rpn'),
      \ 'yegappan/lsp: hints asked for as soon as an edit is done (TextChanged in .rpn buffers)')
" The refresh runs the plugin's own CursorHold update in the buffer (a stand-in counts it).
let s:hint_updates = 0
augroup LspInlayHints
  autocmd CursorHold <buffer> let s:hint_updates += 1
augroup END
doautocmd <nomodeline> TextChanged
sleep 100m
call s:Expect(s:hint_updates, 1, 'yegappan/lsp: an edit done in a tape asks for its hints at once')
augroup LspInlayHints
  autocmd!
augroup END

" Sourced when yegappan/lsp is already loaded (`packadd lsp` first, or a version without the
" LspSetup event): it registers at once. A copy is a fresh script, so its own guard is unset.
let s:copy = $RPN_TEST_DIR . '/rpn-yegappan-lsp-copy.vim'
call writefile(readfile(s:yegappan_file), s:copy)
unlet g:loaded_rpn_yegappan_lsp
call s:Run('source ' . fnameescape(s:copy), 'rpn-yegappan-lsp.vim sources without error with yegappan/lsp loaded')
call s:Expect(len(s:yegappan_servers), 2, 'yegappan/lsp: sourced after the plugin, it registers at once')
call s:Check(empty(filter(split(execute('messages'), "\n"), 'v:val =~# "^E\\d\\+:"')),
      \ 'no error message in :messages at the end', execute('messages'))

call s:Out(printf('vim: %d passed, %d failed', s:passed, s:failed))
if s:failed > 0
  cquit
endif
qall!
