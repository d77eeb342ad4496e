" Headless check of EditorConfigs/vim/README.md's Install steps, as a new user follows them: run.sh
" copies the folder as step 2 says, writes step 3's vimrc block as the whole ~/.vimrc of an empty
" home, and starts Vim as a user does (no -u: Vim reads that ~/.vimrc, then loads the packages).
" This script, run with -S after startup, opens a copy of the sample and checks:
"   - the vimrc ran without an error, and sourced the registration file it names;
"   - `.rpn` files get the filetype rpn, the comment settings of ftplugin/rpn.vim (not Vim's C
"     `/*%s*/`) and the colours of syntax/rpn.vim (syntax on: the groups are drawn);
"   - opening the sample raises no error (the LSP plugin is not installed: nothing starts).
" Environment (set by run.sh): RPN_TEST_LABEL, RPN_TEST_TAPE (the copy of the sample),
" RPN_TEST_LOG (one line per check), RPN_TEST_REGISTRATION (the file the vimrc sources).
" Exits 0 when every check passed (:qall!), 1 otherwise (:cquit).

let s:label = empty($RPN_TEST_LABEL) ? 'Vim' : $RPN_TEST_LABEL
let s:passed = 0
let s:failed = 0

function! s:Check(ok, what, ...) abort
  if a:ok
    let s:passed += 1
    call writefile(['  ok    ' . a:what], $RPN_TEST_LOG, 'a')
  else
    let s:failed += 1
    call writefile(['  FAIL  [' . s:label . '] ' . a:what . (a:0 ? ': ' . a:1 : '')], $RPN_TEST_LOG, 'a')
  endif
endfunction

function! s:Expect(actual, expected, what) abort
  call s:Check(a:actual ==# a:expected, a:what, 'expected ' . string(a:expected) . ', got ' . string(a:actual))
endfunction

" The syntax group at the first whole-token occurrence of `token` on the first line matching
" `line_pattern`.
function! s:GroupOf(line_pattern, token) abort
  let l:lnum = search(a:line_pattern, 'nw')
  if l:lnum == 0
    return '(no line matching ' . a:line_pattern . ')'
  endif
  let l:index = match(getline(l:lnum), '\V\%(\^\|\s\)\zs' . escape(a:token, '\') . '\ze\%(\s\|#\|\$\)')
  if l:index < 0
    return '(token not found)'
  endif
  return synIDattr(synID(l:lnum, l:index + 1, 1), 'name')
endfunction

call writefile(['== ' . s:label . ' + the README''s ~/.vimrc (EditorConfigs/vim/README.md, Install)'],
      \ $RPN_TEST_LOG, 'a')

" Startup errors land in v:errmsg (and in :messages); -S runs after the vimrc and the packages.
call s:Expect(v:errmsg, '', 'starting Vim with the README''s ~/.vimrc raises no error')
let s:sourced = map(split(execute('scriptnames'), "\n"), {_, line -> substitute(line, '^\s*\d\+:\s*', '', '')})
call s:Check(index(map(copy(s:sourced), {_, f -> fnamemodify(expand(f), ':p')}),
      \ fnamemodify($RPN_TEST_REGISTRATION, ':p')) >= 0,
      \ 'the vimrc sourced ' . fnamemodify($RPN_TEST_REGISTRATION, ':t'), 'sourced: ' . join(s:sourced, ', '))

let v:errmsg = ''
try
  execute 'edit ' . fnameescape($RPN_TEST_TAPE)
  call s:Expect(v:errmsg, '', 'opening sample.rpn raises no error')
catch
  call s:Check(0, 'opening sample.rpn raises no error', v:exception)
endtry
call s:Expect(&filetype, 'rpn', 'sample.rpn gets filetype rpn')
call s:Expect(&commentstring, '# %s', 'commentstring is "# %s" (ftplugin/rpn.vim ran: filetype plugins are on)')
call s:Expect(&comments, ':#', 'comments is ":#"')
call s:Expect(get(b:, 'current_syntax', ''), 'rpn', 'syntax/rpn.vim is loaded (syntax is on)')
call s:Expect(s:GroupOf('^2 3 +', '+'), 'rpnOperator', 'syntax: `+` on `2 3 +` is drawn as rpnOperator')
call s:Expect(s:GroupOf('^: hyp ', 'swap'), 'rpnFunction', 'syntax: `swap` in the definition of hyp is rpnFunction')
call s:Check(hlID('rpnOperator') > 0 && synIDtrans(hlID('rpnOperator')) == synIDtrans(hlID('Operator')),
      \ 'rpnOperator is linked to Operator (colours come from the colour scheme)')

call writefile([printf('vimrc: %d passed, %d failed', s:passed, s:failed)], $RPN_TEST_LOG, 'a')
if s:failed > 0
  cquit
endif
qall!
