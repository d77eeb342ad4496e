-- rpn-lsp for Neovim 0.7 to 0.10 (it works on 0.11 too, but there rpn_lsp.lua is the
-- simpler choice): `.rpn` calculator tapes, with diagnostics, hover, completion and, on 0.10,
-- each line's stack as an inlay hint (Neovim 0.7–0.9 have no inlay-hint display).
--
-- Install: copy this file to ~/.config/nvim/plugin/rpn_lsp.lua (or `dofile()` it from your
-- init.lua / `luafile` it from init.vim).
--
-- The server is `rpn-lsp` on your PATH, run as `rpn-lsp --stdio`. Another binary: set
--   vim.g.rpn_lsp_cmd = '/path/to/rpn-lsp'          (or a list: { '/path/to/rpn-lsp', '--stdio' })
-- before this file is sourced (`let g:rpn_lsp_cmd = '…'` in init.vim), or the environment
-- variable RPN_LSP. `vim.g.rpn_lsp_inlay_hints = false` keeps inlay hints off on 0.10.
-- Settings (`precision`, `angleUnit`, `inlayHints.maxItems`) go in
-- `vim.g.rpn_lsp_init_options`, e.g. `{ rpn = { angleUnit = 'degrees' } }`.

local api = vim.api
local group = api.nvim_create_augroup('rpn_lsp', { clear = true })

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

local function on_attach(_, bufnr)
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
end

-- Neovim 0.7 has no vim.lsp.start: one client per root, started by hand.
local clients_by_root = {}

local function start(bufnr)
  local root = find_root(bufnr)
  local config = {
    name = 'rpn_lsp',
    cmd = rpn_lsp_cmd(),
    root_dir = root,
    init_options = vim.g.rpn_lsp_init_options,
    on_attach = on_attach,
  }
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
