-- Headless: EditorConfigs/neovim/upstream/lsp/rpn_lsp.lua as nvim-lspconfig would ship it, loaded
-- by Neovim 0.11 from the runtimepath through vim.lsp.enable('rpn_lsp') (nvim-init.lua), with the
-- real rpn-lsp as `rpn-lsp` on PATH, on a tape of five lines in a folder with no .git. Checks
-- that the config is the file's, that the client attaches in single-file mode, and that the
-- server's inlay hints (raw, and drawn by vim.lsp.inlay_hint) and hover arrive; with
-- RPN_TEST_SETTINGS=1, that the `settings` of the file's ---@brief reach the server (degrees,
-- fixed notation with two decimals).
-- Prints one line per check ("ok" / "FAIL"); exits 1 when one failed.

local api = vim.api
local label = vim.env.RPN_TEST_LABEL or 'nvim-lspconfig'
local with_settings = vim.env.RPN_TEST_SETTINGS == '1'
local TIMEOUT = 10000
local failed = 0

local function out(line)
  io.stdout:write(line .. '\n')
  io.stdout:flush()
end

local function check(condition, what, detail)
  if condition then
    out('  ok    ' .. label .. ': ' .. what)
  else
    failed = failed + 1
    out('  FAIL  ' .. label .. ': ' .. what .. (detail and (': ' .. detail) or ''))
  end
  return condition
end

local function show(value)
  return vim.inspect(value, { newline = ' ', indent = '' })
end

local function finish()
  vim.cmd(failed > 0 and 'cquit 1' or 'qall!')
end

local bufnr = api.nvim_get_current_buf()
local expected_file = vim.fs.normalize(vim.env.RPN_UPSTREAM_RTP .. '/lsp/rpn_lsp.lua')
local found = vim.api.nvim_get_runtime_file('lsp/rpn_lsp.lua', true)
check(#found >= 1 and vim.fs.normalize(found[1]) == expected_file,
  'lsp/rpn_lsp.lua on the runtimepath is the upstream file', show(found))

local config = vim.lsp.config.rpn_lsp or {}
check(vim.deep_equal(config.cmd, { 'rpn-lsp', '--stdio' }) and vim.deep_equal(config.filetypes, { 'rpn' })
  and vim.deep_equal(config.root_markers, { '.git' }),
  "vim.lsp.config.rpn_lsp is the file's (cmd, filetypes, root_markers)",
  show({ config.cmd, config.filetypes, config.root_markers }))
check(vim.g.rpn_test_brief_blocks == 2, 'the ---@brief has two ```lua blocks (filetype, settings)',
  show(vim.g.rpn_test_brief_blocks))
check(vim.bo[bufnr].filetype == 'rpn', "the tape has the filetype rpn (the brief's vim.filetype.add)",
  vim.bo[bufnr].filetype)

local client
local attached = vim.wait(TIMEOUT, function()
  client = vim.lsp.get_clients({ bufnr = bufnr, name = 'rpn_lsp' })[1]
  return client ~= nil and client.initialized
end, 20)
if not check(attached, 'the rpn_lsp client attaches to the tape') then
  return finish()
end
check(client.config.root_dir == nil and client.workspace_folders == nil,
  'single-file mode: no root_dir, no workspace folders (no .git above the tape)',
  show({ client.config.root_dir, client.workspace_folders }))
check(client.server_capabilities.inlayHintProvider and client.server_capabilities.hoverProvider,
  'the server offers inlay hints and hover')

-- Each line's stack, as `rpn-lsp eval` labels it (with --notation fixed --decimals 2
-- --angle-unit degrees for the brief's settings).
local want = with_settings and { '[12.50]', '[12.50 8.00]', '[20.50]', '[6.83]', '[6.83 1.00]' }
  or { '[12.5]', '[12.5 8]', '[20.5]', '[6.83333333333333]', '[6.83333333333333 0.893996663600558]' }

local function labels(hints)
  local by_line = {}
  for _, hint in ipairs(hints or {}) do
    local text = hint.label
    if type(text) == 'table' then
      text = table.concat(vim.tbl_map(function(part)
        return part.value
      end, text))
    end
    by_line[hint.position.line + 1] = vim.trim(text)
  end
  return by_line
end

local response = client:request_sync('textDocument/inlayHint', {
  textDocument = { uri = vim.uri_from_bufnr(bufnr) },
  range = { start = { line = 0, character = 0 }, ['end'] = { line = api.nvim_buf_line_count(bufnr), character = 0 } },
}, TIMEOUT, bufnr)
local raw = labels(response and response.result)
check(vim.deep_equal(raw, want), 'textDocument/inlayHint: the stack after each line', show(raw))

vim.lsp.inlay_hint.enable(true, { bufnr = bufnr })
local drawn
vim.wait(TIMEOUT, function()
  drawn = labels(vim.tbl_map(function(item)
    return item.inlay_hint
  end, vim.lsp.inlay_hint.get({ bufnr = bufnr })))
  return vim.deep_equal(drawn, want)
end, 20)
check(vim.deep_equal(drawn, want), 'vim.lsp.inlay_hint shows the same hints', show(drawn))

-- Hover on the `+` of line 3: the stack before and after it.
local hover = client:request_sync('textDocument/hover', {
  textDocument = { uri = vim.uri_from_bufnr(bufnr) },
  position = { line = 2, character = 0 },
}, TIMEOUT, bufnr)
local contents = hover and hover.result and hover.result.contents
local text = type(contents) == 'table' and (contents.value or show(contents)) or tostring(contents)
local before, after = want[2], want[3]
check(text:find(before:sub(2, -2), 1, true) and text:find(after:sub(2, -2), 1, true),
  'hover on + shows the stack before ' .. before .. ' and after ' .. after, show(text))

finish()
