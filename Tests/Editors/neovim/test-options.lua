-- Headless check of the options block of EditorConfigs/neovim/README.md, as a user sets it up:
-- run.sh writes that block as ~/.config/nvim/init.lua, copies the config into
-- ~/.config/nvim/plugin/ as the README's Install says, and starts Neovim with no -u (so it reads
-- that init.lua, then the plugin folder) on a copy of the sample, `rpn-lsp` on PATH. Checks:
--   - the client `rpn_lsp` attaches, started as `rpn-lsp --stdio`;
--   - its init_options are exactly the block's vim.g.rpn_lsp_init_options (vim.g.rpn_lsp_code_lens
--     is false, so the config adds nothing), and the server read them: the inlay hints of the
--     sample are in degrees, fixed notation with two decimals and grouped thousands;
--   - vim.g.rpn_lsp_inlay_hints = false: the built-in inlay-hint UI stays off (0.10+);
--   - vim.g.rpn_lsp_folding = false: the window keeps its 'foldmethod' (0.11);
--   - vim.g.rpn_lsp_autocomplete = false and vim.g.rpn_lsp_virtual_text = false: the buffer keeps
--     the global 'completeopt', and the server's diagnostics no virtual text (0.11).
-- Environment: RPN_TEST_LABEL. Prints one line per check; exits 0 when all passed, 1 otherwise.

local label = vim.env.RPN_TEST_LABEL or 'Neovim'
local passed, failed = 0, 0

local function out(line)
  io.stdout:write(line .. '\n')
  io.stdout:flush()
end

local function check(condition, what, detail)
  if condition then
    passed = passed + 1
    out('  ok    ' .. what)
  else
    failed = failed + 1
    out('  FAIL  [' .. label .. '] ' .. what .. (detail and (': ' .. detail) or ''))
  end
  return condition
end

local function show(value)
  return vim.inspect(value, { newline = ' ', indent = '' })
end

local function client_of(bufnr)
  if vim.lsp.get_clients then
    return vim.lsp.get_clients({ bufnr = bufnr, name = 'rpn_lsp' })[1]
  end
  for _, client in pairs(vim.lsp.buf_get_clients(bufnr)) do
    if client.name == 'rpn_lsp' then
      return client
    end
  end
end

local function finish()
  out(string.format('%s: %d checks passed, %d failed', label, passed, failed))
  vim.cmd(failed > 0 and 'cquit 1' or 'qall!')
end

local bufnr = vim.api.nvim_get_current_buf()
local client
vim.wait(10000, function()
  client = client_of(bufnr)
  return client ~= nil and client.initialized ~= false
end, 20)
if not check(client ~= nil, 'the client rpn_lsp attaches to the sample') then
  finish()
  return
end

check(vim.deep_equal(client.config.cmd, { 'rpn-lsp', '--stdio' }), 'the server runs as rpn-lsp --stdio (found on PATH)',
  show(client.config.cmd))

local want = vim.g.rpn_lsp_init_options
check(type(want) == 'table' and vim.deep_equal(client.config.init_options, want),
  "init_options are the README's vim.g.rpn_lsp_init_options, unchanged",
  'got ' .. show(client.config.init_options) .. ', want ' .. show(want))

-- The hints the server sends: line 17 `2450 =income`, line 36 `pi 6 / sin` (1-based).
local answers = vim.lsp.buf_request_sync(bufnr, 'textDocument/inlayHint', {
  textDocument = { uri = vim.uri_from_bufnr(bufnr) },
  range = { start = { line = 0, character = 0 }, ['end'] = { line = vim.api.nvim_buf_line_count(bufnr), character = 0 } },
}, 10000)
local labels = {}
for _, answer in pairs(answers or {}) do
  for _, hint in ipairs(answer.result or {}) do
    local text = hint.label
    if type(text) == 'table' then
      local parts = {}
      for _, part in ipairs(text) do
        table.insert(parts, part.value)
      end
      text = table.concat(parts)
    end
    labels[hint.position.line + 1] = labels[hint.position.line + 1] or text
  end
end
check(labels[17] == '[2,450.00]', 'the server read display (fixed, 2 decimals, grouping): line 17 is [2,450.00]',
  show(labels[17]))
check(labels[36] == '[0.01]', 'the server read angleUnit degrees: sin(pi/6 degrees) on line 36 is [0.01]', show(labels[36]))
check(labels[22] ~= nil and labels[22]:sub(1, #'[…') == '[…', 'the server read inlayHints.maxItems 5: line 22 is cut',
  show(labels[22]))

if vim.lsp.inlay_hint and vim.lsp.inlay_hint.is_enabled then
  local ok, enabled = pcall(vim.lsp.inlay_hint.is_enabled, { bufnr = bufnr })
  check(ok and enabled == false, 'vim.g.rpn_lsp_inlay_hints = false: the inlay-hint UI stays off', show(enabled))
end
if vim.lsp.completion then
  check(vim.api.nvim_get_option_value('completeopt', { scope = 'local', buf = bufnr }) == '',
    "vim.g.rpn_lsp_autocomplete = false: the buffer keeps the global 'completeopt'",
    show(vim.api.nvim_get_option_value('completeopt', { scope = 'local', buf = bufnr })))
  local namespace = vim.lsp.diagnostic.get_namespace(client.id, true)
  check(not (vim.diagnostic.config(nil, namespace) or {}).virtual_text,
    "vim.g.rpn_lsp_virtual_text = false: the server's diagnostics keep 0.11's default, no virtual text",
    show(vim.diagnostic.config(nil, namespace)))
end
if vim.lsp.foldexpr then
  check(vim.wo.foldexpr ~= 'v:lua.vim.lsp.foldexpr()', "vim.g.rpn_lsp_folding = false: the window keeps its 'foldexpr'",
    vim.wo.foldexpr)
end

finish()
