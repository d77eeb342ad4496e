---@brief
---
--- https://github.com/OWNER/rpn-lsp
---
--- `rpn-lsp`, a language server for `.rpn` calculator tapes in reverse Polish notation: the stack
--- after every line as an inlay hint, the stack before and after a token on hover, diagnostics,
--- completion, formatting and quick fixes.
---
--- Build it with Swift 6 and put `.build/release/rpn-lsp` on your PATH, or install it with Mason
--- (`:MasonInstall rpn-lsp`):
---
--- ```sh
--- swift build -c release --product rpn-lsp
--- ```
---
--- The `rpn` filetype is not detected automatically; register it:
---
--- ```lua
--- vim.filetype.add({ extension = { rpn = 'rpn' } })
--- ```
---
--- Each line's stack is an inlay hint: `vim.lsp.inlay_hint.enable()`. Settings (`precision`,
--- `angleUnit`, `display`, `inlayHints`) go under `rpn` and reach the server through
--- `workspace/didChangeConfiguration`:
---
--- ```lua
--- vim.lsp.config('rpn_lsp', {
---   settings = { rpn = { angleUnit = 'degrees', display = { notation = 'fixed', decimals = 2 } } },
--- })
--- ```

---@type vim.lsp.Config
return {
  cmd = { 'rpn-lsp', '--stdio' },
  filetypes = { 'rpn' },
  root_markers = { '.git' },
}
