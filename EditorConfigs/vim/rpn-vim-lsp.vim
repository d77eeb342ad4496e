" rpn-lsp for Vim with vim-lsp (https://github.com/prabirshrestha/vim-lsp): `.rpn` calculator
" tapes get diagnostics, hover, completion and each line's stack as an inlay hint.
"
" Install: source this file from your vimrc, after vim-lsp is installed (a plugin manager, or
" a package under ~/.vim/pack/*/start/), e.g.
"   source ~/.vim/pack/rpn/start/rpn/rpn-vim-lsp.vim
" or copy it to ~/.vim/plugin/. It only registers the server; without vim-lsp it does nothing.
" The comment settings and colours of .rpn files need filetype plugins and syntax on in the vimrc
" (`filetype plugin on` and `syntax on`, or Vim's defaults.vim sourced: a vimrc turns it off).
"
" Options, set before this file is sourced:
"   let g:rpn_lsp_cmd = '/path/to/rpn-lsp'      " or a full command: ['/path/to/rpn-lsp', '--stdio']
"                                               " (default: $RPN_LSP, else `rpn-lsp` on PATH)
"   let g:rpn_lsp_settings = {'angleUnit': 'degrees', 'precision': 10}
"   let g:rpn_lsp_inlay_hints = 0               " leave g:lsp_inlay_hints_enabled alone
"   let g:rpn_lsp_mappings = 0                  " no buffer-local K / gd / gr in .rpn buffers

if exists('g:loaded_rpn_vim_lsp')
  finish
endif
let g:loaded_rpn_vim_lsp = 1

" The command that starts the server; vim-lsp calls it with the server info when it starts it.
function! s:RpnLspCommand(server_info) abort
  let l:cmd = get(g:, 'rpn_lsp_cmd', '')
  if type(l:cmd) == v:t_list && !empty(l:cmd)
    return l:cmd
  endif
  if type(l:cmd) != v:t_string || empty(l:cmd)
    let l:cmd = empty($RPN_LSP) ? 'rpn-lsp' : $RPN_LSP
  endif
  return [l:cmd, '--stdio']
endfunction

" The server reads `{"rpn": {...}}`, from the initialize request and from
" workspace/didChangeConfiguration alike.
function! s:RpnLspSettings() abort
  return {'rpn': get(g:, 'rpn_lsp_settings', {})}
endfunction

function! s:RegisterRpnLsp() abort
  if get(s:, 'registered', 0)
    return
  endif
  call lsp#register_server({
        \ 'name': 'rpn-lsp',
        \ 'cmd': function('s:RpnLspCommand'),
        \ 'allowlist': ['rpn'],
        \ 'initialization_options': s:RpnLspSettings(),
        \ 'workspace_config': s:RpnLspSettings(),
        \ })
  let s:registered = 1
endfunction

function! s:OnRpnBuffer() abort
  if &filetype !=# 'rpn'
    return
  endif
  setlocal omnifunc=lsp#complete
  if get(g:, 'rpn_lsp_mappings', 1)
    nmap <buffer> K <plug>(lsp-hover)
    nmap <buffer> gd <plug>(lsp-definition)
    nmap <buffer> gr <plug>(lsp-references)
  endif
endfunction

" vim-lsp shows inlay hints only when this is set (and Vim is 9.0.0167 or later). It is a
" global switch: it turns them on for every server that sends them.
if get(g:, 'rpn_lsp_inlay_hints', 1) && !exists('g:lsp_inlay_hints_enabled')
  let g:lsp_inlay_hints_enabled = 1
endif

augroup rpn_vim_lsp
  autocmd!
  " The same detection as ftdetect/rpn.vim, for when only this file is installed.
  autocmd BufRead,BufNewFile *.rpn setfiletype rpn
  autocmd User lsp_setup call s:RegisterRpnLsp()
  autocmd User lsp_buffer_enabled call s:OnRpnBuffer()
augroup END

" Sourced after vim-lsp already started (lsp_setup fired at VimEnter): register now.
if get(g:, 'lsp_loaded', 0) && v:vim_did_enter
  call s:RegisterRpnLsp()
endif
