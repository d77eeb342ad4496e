-- rpn-lsp for Neovim 0.7 to 0.10 (it works on 0.11 too, but there rpn_lsp.lua is the
-- simpler choice): `.rpn` calculator tapes, with diagnostics, hover, completion, on 0.10 each
-- line's stack as an inlay hint (Neovim 0.7–0.9 have no inlay-hint display), and each section's
-- summary (`## Groceries`) as a code lens.
--
-- Install: copy this file to ~/.config/nvim/plugin/rpn_lsp.lua (or `dofile()` it from your
-- init.lua / `luafile` it from init.vim).
--
-- The server is `rpn-lsp` on your PATH, run as `rpn-lsp --stdio`. Another binary: set
--   vim.g.rpn_lsp_cmd = '/path/to/rpn-lsp'          (or a list: { '/path/to/rpn-lsp', '--stdio' })
-- before this file is sourced (`let g:rpn_lsp_cmd = '…'` in init.vim), or the environment
-- variable RPN_LSP. `vim.g.rpn_lsp_inlay_hints = false` keeps inlay hints off on 0.10.
-- Settings (`precision`, `angleUnit`, `display`, `inlayHints.maxItems`, `inlayHints.position`) go in
-- `vim.g.rpn_lsp_init_options`, e.g. `{ rpn = { angleUnit = 'degrees' } }`; `display` says how
-- values are written: { notation = 'auto' | 'fixed' | 'scientific' | 'engineering',
-- decimals = 0–15 (default 2), grouping = true | false (commas between thousands) }.
-- Diagnostics show their message at the end of their line (virtual text: Neovim's default before
-- 0.11, turned on here for rpn-lsp's diagnostics on 0.11); `vim.g.rpn_lsp_virtual_text = false`
-- leaves them as signs there. Completion: `<C-x><C-o>`; on 0.11 it also comes up as you type, as
-- with rpn_lsp.lua (`vim.g.rpn_lsp_autocomplete = false` turns that off).
-- Sections: each heading's summary (`Σ 20.5 · 2 values · avg 10.25`) is a code lens at the end of
-- the heading's line; `vim.g.rpn_lsp_code_lens = false` leaves it to the server's inlay hint
-- there (0.10). Neovim 0.7–0.10 cannot fold with a server's ranges; on 0.11 this file folds as
-- rpn_lsp.lua does (`vim.g.rpn_lsp_folding = false` keeps your own 'foldmethod').

local api = vim.api
local group = api.nvim_create_augroup('rpn_lsp', { clear = true })
local show_lenses = vim.g.rpn_lsp_code_lens ~= false and vim.lsp.codelens ~= nil
local fold = vim.g.rpn_lsp_folding ~= false and vim.lsp.foldexpr ~= nil

-- `.rpn` files get the filetype `rpn` (vim.filetype.add is not on by default before 0.8).
api.nvim_create_autocmd({ 'BufRead', 'BufNewFile' }, {
  group = group,
  pattern = '*.rpn',
  command = 'setfiletype rpn',
})

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

-- The folder holding `.git` above the file, or nil: single-file mode (rootUri null), which
-- rpn-lsp supports.
local function find_root(bufnr)
  local name = api.nvim_buf_get_name(bufnr)
  if name == '' then
    return nil
  end
  local dir = vim.fn.fnamemodify(name, ':p:h')
  while true do
    if vim.fn.isdirectory(dir .. '/.git') == 1 or vim.fn.filereadable(dir .. '/.git') == 1 then
      return dir
    end
    local parent = vim.fn.fnamemodify(dir, ':h')
    if parent == dir then
      return nil
    end
    dir = parent
  end
end

-- Asks the server for a buffer's code lenses (0.7–0.9 ask for the current buffer's).
local function refresh_lenses(bufnr)
  if api.nvim_buf_is_loaded(bufnr) then
    api.nvim_buf_call(bufnr, function()
      vim.lsp.codelens.refresh({ bufnr = bufnr })
    end)
  end
end

-- The server asks for fresh lenses when a summary changes, given workspace.codeLens.refreshSupport
-- (which Neovim does not declare by itself); the reply must not be nil.
local function on_lens_refresh(_, _, ctx)
  for _, bufnr in ipairs(vim.lsp.get_buffers_by_client_id(ctx.client_id)) do
    refresh_lenses(bufnr)
  end
  return vim.NIL
end

-- The settings, with the server's inlay hint on headings turned off while lenses show the same
-- summary beside it (unless the settings say otherwise). Either form of the settings: `{ rpn =
-- { … } }` or the inner object alone.
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

-- Folds from the server's ranges in a window showing a tape (0.11+), all open: set once per
-- window, so that `zM` there outlasts a visit to another buffer.
local function fold_with_server(win)
  if vim.wo[win][0].foldexpr ~= 'v:lua.vim.lsp.foldexpr()' then
    vim.wo[win][0].foldmethod = 'expr'
    vim.wo[win][0].foldexpr = 'v:lua.vim.lsp.foldexpr()'
    vim.wo[win][0].foldlevel = 99
  end
end

local function on_attach(client, bufnr)
  -- Neovim 0.8+ sets omnifunc itself and 0.10+ maps K to hover; 0.7 does neither.
  if vim.bo[bufnr].omnifunc == '' then
    vim.bo[bufnr].omnifunc = 'v:lua.vim.lsp.omnifunc'
  end
  if vim.fn.has('nvim-0.10') == 0 and vim.fn.maparg('K', 'n') == '' then
    api.nvim_buf_set_keymap(bufnr, 'n', 'K', '<cmd>lua vim.lsp.buf.hover()<CR>', { noremap = true, silent = true })
  end
  local inlay = vim.lsp.inlay_hint
  if vim.g.rpn_lsp_inlay_hints ~= false and type(inlay) == 'table' and inlay.enable then
    pcall(inlay.enable, true, { bufnr = bufnr })
  end
  -- 0.11 turns virtual text off by default: on for the server's diagnostics only (its namespaces,
  -- pulled and pushed; 0.7–0.10 have one, pushed, with virtual text on already).
  if vim.g.rpn_lsp_virtual_text ~= false and vim.fn.has('nvim-0.11') == 1 then
    for _, pulled in ipairs({ true, false }) do
      vim.diagnostic.config({ virtual_text = true }, vim.lsp.diagnostic.get_namespace(client.id, pulled))
    end
  end
  -- Completion as one types where Neovim has it (0.11), as in rpn_lsp.lua: noselect, or the first
  -- item is inserted at the first letter typed (`9 s` → `9 sq`, then `q` → `9 sqq`).
  if vim.g.rpn_lsp_autocomplete ~= false and vim.fn.has('nvim-0.11') == 1 then
    vim.bo[bufnr].completeopt = 'menuone,noselect,popup,fuzzy'
    vim.lsp.completion.enable(true, client.id, bufnr, { autotrigger = true })
  end
  local caps = client.server_capabilities or {}
  if show_lenses and caps.codeLensProvider then
    refresh_lenses(bufnr)
    -- 0.10+ refreshes after each change sent (LspNotify, below); before, on Neovim's own advice.
    if vim.fn.exists('##LspNotify') == 0 then
      local events = { 'BufEnter', 'CursorHold', 'InsertLeave', 'TextChanged' }
      api.nvim_clear_autocmds({ group = group, buffer = bufnr, event = events })
      api.nvim_create_autocmd(events, {
        group = group,
        buffer = bufnr,
        callback = function()
          refresh_lenses(bufnr)
        end,
      })
    end
  end
  if fold and caps.foldingRangeProvider then
    for _, win in ipairs(vim.fn.win_findbuf(bufnr)) do
      fold_with_server(win)
    end
    api.nvim_clear_autocmds({ group = group, buffer = bufnr, event = 'BufWinEnter' })
    api.nvim_create_autocmd('BufWinEnter', {
      group = group,
      buffer = bufnr,
      callback = function()
        fold_with_server(api.nvim_get_current_win())
      end,
    })
  end
end

if show_lenses and vim.fn.exists('##LspNotify') == 1 then
  api.nvim_create_autocmd('LspNotify', {
    group = group,
    callback = function(args)
      if args.data.method ~= 'textDocument/didChange' then
        return
      end
      local client = vim.lsp.get_client_by_id(args.data.client_id)
      if client and client.name == 'rpn_lsp' and (client.server_capabilities or {}).codeLensProvider then
        refresh_lenses(vim.uri_to_bufnr(args.data.params.textDocument.uri))
      end
    end,
  })
end

-- Neovim 0.7 has no vim.lsp.start: one client per root, started by hand.
local clients_by_root = {}

local function start(bufnr)
  local root = find_root(bufnr)
  local config = {
    name = 'rpn_lsp',
    cmd = rpn_lsp_cmd(),
    root_dir = root,
    init_options = init_options(),
    on_attach = on_attach,
  }
  if show_lenses then
    -- Before 0.11, capabilities given here replace Neovim's instead of adding to them.
    config.capabilities = vim.tbl_deep_extend('force', vim.lsp.protocol.make_client_capabilities(),
      { workspace = { codeLens = { refreshSupport = true } } })
    config.handlers = { ['workspace/codeLens/refresh'] = on_lens_refresh }
  end
  if vim.lsp.start then
    api.nvim_buf_call(bufnr, function()
      vim.lsp.start(config, { bufnr = bufnr })
    end)
    return
  end
  local key = root or ''
  local id = clients_by_root[key]
  local client = id and vim.lsp.get_client_by_id(id)
  if not client or client.is_stopped() then
    id = vim.lsp.start_client(config)
    clients_by_root[key] = id
  end
  if id then
    vim.lsp.buf_attach_client(bufnr, id)
  end
end

api.nvim_create_autocmd('FileType', {
  group = group,
  pattern = 'rpn',
  callback = function(args)
    start(args.buf)
  end,
})
