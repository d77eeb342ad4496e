" rpn-lsp: `.rpn` calculator tapes get the filetype `rpn`.
autocmd BufRead,BufNewFile *.rpn setfiletype rpn
