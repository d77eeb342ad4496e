-- rpn-lsp for Neovim 0.11 and later: `.rpn` calculator tapes, with diagnostics, hover,
-- completion and each line's stack as an inlay hint.
--
-- Install: copy this file to ~/.config/nvim/plugin/rpn_lsp.lua (or `dofile()` it from your
-- init.lua). Neovim 0.7–0.10: use rpn_lsp_legacy.lua instead.
--
-- The server is `rpn-lsp` on your PATH, run as `rpn-lsp --stdio`. Another binary: set
--   vim.g.rpn_lsp_cmd = '/path/to/rpn-lsp'          (or a list: { '/path/to/rpn-lsp', '--stdio' })
-- in init.lua before this file is sourced, or the environment variable RPN_LSP.
-- Inlay hints are turned on for `.rpn` buffers; `vim.g.rpn_lsp_inlay_hints = false` keeps them
-- off (toggle them any time with `:lua vim.lsp.inlay_hint.enable(not vim.lsp.inlay_hint.is_enabled())`).
-- More settings (`precision`, `angleUnit`, `inlayHints.maxItems`) go in `init_options`:
--   vim.lsp.config('rpn_lsp', { init_options = { rpn = { angleUnit = 'degrees' } } })

vim.filetype.add({ extension = { rpn = 'rpn' } })

local function rpn_lsp_cmd()
  local cmd = vim.g.rpn_lsp_cmd
  if type(cmd) == 'table' then
    return cmd
  end
  if type(cmd) ~= 'string' or cmd == '' then
    cmd = vim.env.RPN_LSP
  end
  if type(cmd) ~= 'string' or cmd == '' then
    cmd = 'rpn-lsp'
  end
  return { cmd, '--stdio' }
end

vim.lsp.config('rpn_lsp', {
  cmd = rpn_lsp_cmd(),
  filetypes = { 'rpn' },
  -- A `.git` above the file makes that folder the workspace; without one the server runs in
  -- single-file mode (rootUri null), which rpn-lsp supports.
  root_markers = { '.git' },
})
vim.lsp.enable('rpn_lsp')

vim.api.nvim_create_autocmd('LspAttach', {
  group = vim.api.nvim_create_augroup('rpn_lsp', { clear = true }),
  callback = function(args)
    local client = vim.lsp.get_client_by_id(args.data.client_id)
    if client and client.name == 'rpn_lsp' and vim.g.rpn_lsp_inlay_hints ~= false then
      vim.lsp.inlay_hint.enable(true, { bufnr = args.buf })
    end
  end,
})
