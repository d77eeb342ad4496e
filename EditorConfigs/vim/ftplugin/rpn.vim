" rpn-lsp: settings for `.rpn` calculator tapes (filetype `rpn`).
" `#` starts a comment anywhere on a line and runs to its end; there are no block comments.

if exists('b:did_ftplugin')
  finish
endif
let b:did_ftplugin = 1

setlocal commentstring=#\ %s comments=:#

let b:undo_ftplugin = 'setlocal commentstring< comments<'
