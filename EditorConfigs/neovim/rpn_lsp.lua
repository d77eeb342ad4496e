-- rpn-lsp for Neovim 0.11 and later: `.rpn` calculator tapes, with diagnostics, hover,
-- completion, each line's stack as an inlay hint, and sections (`## Groceries`) that show their
-- summaries as code lenses and fold.
--
-- Install: copy this file to ~/.config/nvim/plugin/rpn_lsp.lua (or `dofile()` it from your
-- init.lua). Neovim 0.7–0.10: use rpn_lsp_legacy.lua instead.
--
-- The server is `rpn-lsp` on your PATH, run as `rpn-lsp --stdio`. Another binary: set
--   vim.g.rpn_lsp_cmd = '/path/to/rpn-lsp'          (or a list: { '/path/to/rpn-lsp', '--stdio' })
-- in init.lua before this file is sourced, or the environment variable RPN_LSP.
-- Inlay hints are turned on for `.rpn` buffers; `vim.g.rpn_lsp_inlay_hints = false` keeps them
-- off (toggle them any time with `:lua vim.lsp.inlay_hint.enable(not vim.lsp.inlay_hint.is_enabled())`).
-- The server's settings (`precision`, `angleUnit`, `display`, `inlayHints.maxItems`, `inlayHints.position`) go in
-- `vim.g.rpn_lsp_init_options`, in init.lua like the options above, in the `{ rpn = { … } }` form:
--   vim.g.rpn_lsp_init_options = { rpn = { angleUnit = 'degrees' } }
-- (as with rpn_lsp_legacy.lua). `vim.lsp.config('rpn_lsp', { init_options = … })` works too,
-- before or after this file: Neovim merges it with this file's.
-- `display` says how values are written: { notation = 'auto' | 'fixed' | 'scientific' |
-- 'engineering', decimals = 0–15 (default 2), grouping = true | false (commas between thousands) }.
-- Diagnostics show their message at the end of their line (virtual text, which Neovim 0.11 turns
-- off by default), for rpn-lsp's diagnostics only; `vim.g.rpn_lsp_virtual_text = false` leaves
-- them as signs.
-- Completion comes up as you type (`vim.lsp.completion` with autotrigger: the server triggers on
-- every letter), with `completeopt` `menuone,noselect,popup,fuzzy` in `.rpn` buffers: nothing is
-- inserted until you pick an item (<C-n>/<C-p>, then <C-y>), so what you type stays as typed, and
-- `sqt` finds `sqrt`. `<C-x><C-o>` works as well. With a completion plugin (nvim-cmp, blink.cmp),
-- set `vim.g.rpn_lsp_autocomplete = false`: the plugin's menu instead, your 'completeopt' untouched.
-- Sections: each heading's summary (`Σ 20.5 · 2 values · avg 10.25`) is a code lens at the end of
-- the heading's line; `vim.g.rpn_lsp_code_lens = false` leaves it to the server's inlay hint
-- there instead. Sections and runs of comment lines fold with the server's folding ranges
-- (`zc`, `zo`, `zM`, `zR`), all open when a tape opens; `vim.g.rpn_lsp_folding = false` keeps
-- your own 'foldmethod'.

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

local show_lenses = vim.g.rpn_lsp_code_lens ~= false
local fold = vim.g.rpn_lsp_folding ~= false

-- vim.g.rpn_lsp_init_options, with the server's inlay hint on headings turned off while lenses
-- show the same summary beside it (unless the settings say otherwise). Either form of the
-- settings: `{ rpn = { … } }` or the inner object alone.
local function init_options()
  local options = vim.g.rpn_lsp_init_options
  if not show_lenses then
    return options
  end
  options = type(options) == 'table' and vim.deepcopy(options) or {}
  local inner = options
  if type(options.rpn) == 'table' or next(options) == nil then
    options.rpn = options.rpn or {}
    inner = options.rpn
  end
  inner.inlayHints = type(inner.inlayHints) == 'table' and inner.inlayHints or {}
  if inner.inlayHints.sections == nil then
    inner.inlayHints.sections = false
  end
  return options
end

-- Neovim asks for code lenses only when told to, and 0.11 does not declare
-- workspace.codeLens.refreshSupport. So this config declares it and answers the server's refresh
-- requests (sent when a summary changes, a setting say), and asks itself when the server attaches
-- and after each change it is sent (an edit of a heading's own line changes no summary).
local function refresh_lenses(_, _, ctx)
  for _, bufnr in ipairs(vim.lsp.get_buffers_by_client_id(ctx.client_id)) do
    vim.lsp.codelens.refresh({ bufnr = bufnr })
  end
  return vim.NIL
end

vim.lsp.config('rpn_lsp', {
  cmd = rpn_lsp_cmd(),
  filetypes = { 'rpn' },
  -- A `.git` above the file makes that folder the workspace; without one the server runs in
  -- single-file mode (rootUri null), which rpn-lsp supports.
  root_markers = { '.git' },
  capabilities = show_lenses and { workspace = { codeLens = { refreshSupport = true } } } or nil,
  handlers = show_lenses and { ['workspace/codeLens/refresh'] = refresh_lenses } or nil,
  init_options = init_options(),
})
vim.lsp.enable('rpn_lsp')

local group = vim.api.nvim_create_augroup('rpn_lsp', { clear = true })

-- Folds from the server's ranges in a window showing a tape, all open (foldlevel 99: a tape
-- opens unfolded). Set once per window, so that `zM` there outlasts a visit to another buffer.
local function fold_with_server(win)
  if vim.wo[win][0].foldexpr ~= 'v:lua.vim.lsp.foldexpr()' then
    vim.wo[win][0].foldmethod = 'expr'
    vim.wo[win][0].foldexpr = 'v:lua.vim.lsp.foldexpr()'
    vim.wo[win][0].foldlevel = 99
  end
end

vim.api.nvim_create_autocmd('LspAttach', {
  group = group,
  callback = function(args)
    local client = vim.lsp.get_client_by_id(args.data.client_id)
    if not client or client.name ~= 'rpn_lsp' then
      return
    end
    if vim.g.rpn_lsp_inlay_hints ~= false then
      vim.lsp.inlay_hint.enable(true, { bufnr = args.buf })
    end
    -- The server's diagnostics only: its namespaces, pulled (0.11 asks for them) and pushed.
    if vim.g.rpn_lsp_virtual_text ~= false then
      for _, pulled in ipairs({ true, false }) do
        vim.diagnostic.config({ virtual_text = true }, vim.lsp.diagnostic.get_namespace(client.id, pulled))
      end
    end
    -- Neovim's own help asks for noselect with autotrigger: without it the first item is inserted
    -- as soon as the menu comes up, at the first letter typed (`9 s` → `9 sq`, then `q` → `9 sqq`).
    -- fuzzy: Neovim keeps the server's items that match what is typed in order, not only a prefix.
    if vim.g.rpn_lsp_autocomplete ~= false then
      vim.bo[args.buf].completeopt = 'menuone,noselect,popup,fuzzy'
      vim.lsp.completion.enable(true, client.id, args.buf, { autotrigger = true })
    end
    if show_lenses and client:supports_method('textDocument/codeLens', args.buf) then
      vim.lsp.codelens.refresh({ bufnr = args.buf })
    end
    if fold and client:supports_method('textDocument/foldingRange', args.buf) then
      for _, win in ipairs(vim.fn.win_findbuf(args.buf)) do
        fold_with_server(win)
      end
      vim.api.nvim_clear_autocmds({ group = group, buffer = args.buf, event = 'BufWinEnter' })
      vim.api.nvim_create_autocmd('BufWinEnter', {
        group = group,
        buffer = args.buf,
        callback = function()
          fold_with_server(vim.api.nvim_get_current_win())
        end,
      })
    end
  end,
})

vim.api.nvim_create_autocmd('LspNotify', {
  group = group,
  callback = function(args)
    if not show_lenses or args.data.method ~= 'textDocument/didChange' then
      return
    end
    local client = vim.lsp.get_client_by_id(args.data.client_id)
    if client and client.name == 'rpn_lsp' and client:supports_method('textDocument/codeLens') then
      vim.lsp.codelens.refresh({ bufnr = vim.uri_to_bufnr(args.data.params.textDocument.uri) })
    end
  end,
})
