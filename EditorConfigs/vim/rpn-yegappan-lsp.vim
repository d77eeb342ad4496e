" rpn-lsp for Vim 9 with yegappan/lsp (https://github.com/yegappan/lsp): `.rpn` calculator tapes
" get diagnostics, hover (:LspHover), completion and each line's stack as an inlay hint.
"
" Install: source this file from your vimrc, e.g.
"   source ~/.vim/pack/rpn/start/rpn/rpn-yegappan-lsp.vim
" or copy it to ~/.vim/plugin/. It registers the server when yegappan/lsp loads (its
" `User LspSetup` event), or at once if the plugin is already loaded (`packadd lsp` before this
" file). Without yegappan/lsp it does nothing.
" The comment settings and colours of .rpn files need filetype plugins and syntax on in the vimrc
" (`filetype plugin on` and `syntax on`, or Vim's defaults.vim sourced: a vimrc turns it off).
"
" Options, set before this file is sourced:
"   let g:rpn_lsp_cmd = '/path/to/rpn-lsp'      " default: $RPN_LSP, else `rpn-lsp` on PATH
"   let g:rpn_lsp_settings = {'angleUnit': 'degrees', 'precision': 10}
"   let g:rpn_lsp_inlay_hints = 0               " do not call LspOptionsSet({'showInlayHints': v:true})
"   let g:rpn_lsp_omni_complete = 0             " leave <C-x><C-o> as the plugin has it (off)
"   let g:rpn_lsp_diagnostic_text = 0           " no diagnostic text at the end of its line

if exists('g:loaded_rpn_yegappan_lsp')
  finish
endif
let g:loaded_rpn_yegappan_lsp = 1

" yegappan/lsp wants the executable and its arguments apart.
function! s:RpnLspPath() abort
  let l:cmd = get(g:, 'rpn_lsp_cmd', '')
  if type(l:cmd) == v:t_list && !empty(l:cmd)
    let l:cmd = l:cmd[0]
  endif
  if type(l:cmd) != v:t_string || empty(l:cmd)
    let l:cmd = empty($RPN_LSP) ? 'rpn-lsp' : $RPN_LSP
  endif
  return l:cmd
endfunction

function! s:RegisterRpnLsp() abort
  if get(s:, 'registered', 0)
    return
  endif
  " The server reads `{"rpn": {...}}`, from the initialize request and from
  " workspace/didChangeConfiguration alike.
  let l:settings = {'rpn': get(g:, 'rpn_lsp_settings', {})}
  call LspAddServer([{
        \ 'name': 'rpn-lsp',
        \ 'filetype': ['rpn'],
        \ 'path': s:RpnLspPath(),
        \ 'args': ['--stdio'],
        \ 'initializationOptions': l:settings,
        \ 'workspaceConfig': l:settings,
        \ }])
  let s:registered = 1
  " Off by default in yegappan/lsp (Vim 9.0.0178 or later shows them). A global option: it
  " turns inlay hints on for every server that sends them.
  if get(g:, 'rpn_lsp_inlay_hints', 1)
    call LspOptionsSet({'showInlayHints': v:true})
    " The plugin links its hints to Label, which most colour schemes paint like the tape's
    " operators: give them the colour of text that is not the buffer's, unless you chose one.
    let l:hint = hlget('LspInlayHintsType')
    if empty(l:hint) || get(l:hint[0], 'linksto', '') ==# 'Label'
      highlight link LspInlayHintsType NonText
    endif
  endif
  " <C-x><C-o> completes too, beside completion as you type (the plugin leaves 'omnifunc' unset
  " while it completes as you type, and <C-x><C-o> then fails with E764). Global options.
  if get(g:, 'rpn_lsp_omni_complete', 1)
    call LspOptionsSet({'omniComplete': v:true})
  endif
  " A diagnostic's text at the end of its line, not only in :LspDiag (Vim 9.0.1157 or later).
  if get(g:, 'rpn_lsp_diagnostic_text', 1) && has('patch-9.0.1157')
    call LspOptionsSet({'showDiagWithVirtualText': v:true, 'diagVirtualTextAlign': 'after'})
  endif
endfunction

" Soon after the plugin's own TextChanged has marked the hints out of date.
function! s:ScheduleHints(bufnr) abort
  call timer_start(20, {-> s:RefreshHints(a:bufnr)})
endfunction

" The plugin asks for new inlay hints only when the cursor rests for 'updatetime' (4 s by
" default) after an edit: ask at once, once the edit is done, in a tape.
function! s:RefreshHints(bufnr) abort
  if a:bufnr == bufnr('%') && mode() !~# '^[iR]' && exists('#LspInlayHints#CursorHold#<buffer>')
    doautocmd <nomodeline> LspInlayHints CursorHold
  endif
endfunction

augroup rpn_yegappan_lsp
  autocmd!
  " The same detection as ftdetect/rpn.vim, for when only this file is installed.
  autocmd BufRead,BufNewFile *.rpn setfiletype rpn
  autocmd User LspSetup call s:RegisterRpnLsp()
  autocmd TextChanged *.rpn call s:ScheduleHints(str2nr(expand('<abuf>')))
augroup END

" yegappan/lsp already loaded (older versions have no LspSetup event): register now.
if exists('*LspAddServer')
  call s:RegisterRpnLsp()
endif
