-- Headless editor test: runs inside Neovim (0.7 and later) after the shipped config
-- (EditorConfigs/neovim/*.lua) was loaded with `-u` and a copy of EditorConfigs/sample.rpn was
-- opened. Driven by run.sh, which sets:
--   RPN_TEST_LABEL     what to call this run in messages (e.g. "Neovim 0.7.2 + rpn_lsp_legacy.lua")
--   RPN_TEST_ENCODING  the position encoding the client must end up with (utf-8 / utf-16)
--   RPN_TEST_UI_HINTS  "1" when the built-in inlay-hint UI must hold the hints (0.10+)
-- Prints one line per check; exits 0 when all passed, 1 otherwise.

local api = vim.api
local label = vim.env.RPN_TEST_LABEL or 'Neovim'
local expected_encoding = vim.env.RPN_TEST_ENCODING or 'utf-16'
local want_ui_hints = vim.env.RPN_TEST_UI_HINTS == '1'
local TIMEOUT = 10000

local passed, failed = 0, 0

local function out(line)
  io.stdout:write(line .. '\n')
  io.stdout:flush()
end

local function show(value)
  if type(value) == 'string' then
    return string.format('%q', value)
  end
  return vim.inspect(value, { newline = ' ', indent = '' })
end

local function ok(what)
  passed = passed + 1
  out('  ok    ' .. what)
end

local function fail(what, detail)
  failed = failed + 1
  out('  FAIL  [' .. label .. '] ' .. what .. (detail and (': ' .. detail) or ''))
end

local function check(condition, what, detail)
  if condition then
    ok(what)
  else
    fail(what, detail)
  end
  return condition
end

local function finish()
  out(string.format('%s: %d checks passed, %d failed', label, passed, failed))
  if failed > 0 then
    vim.cmd('cquit 1')
  else
    vim.cmd('qall!')
  end
end

-- Position helpers. Neovim buffers hold UTF-8; LSP positions count `expected_encoding` units.

-- The number of `encoding` code units in the first `byte_count` bytes of `text`.
local function units(text, byte_count, encoding)
  if encoding == 'utf-8' then
    return byte_count
  end
  local count, i = 0, 1
  while i <= byte_count do
    local b = text:byte(i)
    local len = (b < 0x80 and 1) or (b < 0xE0 and 2) or (b < 0xF0 and 3) or 4
    if encoding == 'utf-16' and len == 4 then
      count = count + 2
    else
      count = count + 1
    end
    i = i + len
  end
  return count
end

local function line_text(bufnr, lnum0)
  return api.nvim_buf_get_lines(bufnr, lnum0, lnum0 + 1, true)[1]
end

-- 0-based byte column where `needle` (plain text) starts in the line, or error.
local function byte_col(bufnr, lnum0, needle, nth)
  local text = line_text(bufnr, lnum0)
  local from, start = 1, nil
  for _ = 1, nth or 1 do
    start = text:find(needle, from, true)
    assert(start, string.format('%q not found on line %d: %q', needle, lnum0 + 1, text))
    from = start + 1
  end
  return start - 1
end

-- The LSP position right after a line's last token (before a trailing comment).
local function hint_position(bufnr, lnum0)
  local text = line_text(bufnr, lnum0)
  local code = text:gsub('#.*$', ''):gsub('%s+$', '')
  if code:match('^%s*$') then
    return nil
  end
  return { line = lnum0, character = units(text, #code, expected_encoding) }
end

local function clients_of(bufnr)
  local list = {}
  if vim.lsp.get_clients then
    list = vim.lsp.get_clients({ bufnr = bufnr, name = 'rpn_lsp' })
  else
    for _, client in pairs(vim.lsp.buf_get_clients(bufnr)) do
      if client.name == 'rpn_lsp' then
        table.insert(list, client)
      end
    end
  end
  return list
end

-- Sends a request to the rpn_lsp client of `bufnr` as Neovim's own features do.
local function request(bufnr, method, params)
  local results, err = vim.lsp.buf_request_sync(bufnr, method, params, TIMEOUT)
  if not results then
    return nil, 'no answer (' .. tostring(err) .. ')'
  end
  for _, answer in pairs(results) do
    local e = answer.err or answer.error
    if e then
      return nil, 'error response ' .. show(e)
    end
    return answer.result, nil
  end
  return nil, 'no client answered'
end

local function hint_label(hint)
  if type(hint.label) == 'string' then
    return hint.label
  end
  local parts = {}
  for _, part in ipairs(hint.label or {}) do
    table.insert(parts, part.value)
  end
  return table.concat(parts)
end

-- The sample's inlay hints: 1-based line → the stack after that line (SPEC §1.2, §2.3).
local sample_hints = {
  [6] = '[12 12.5 0.5 12 -3 1000 0.00025 1000000]',
  [7] = '[]',
  [10] = '[5]',
  [11] = '[5 6]',
  [12] = '[5 6 42 42]',
  [13] = '[5 6 42 42 1024 3 8]',
  [14] = '[]',
  [17] = '[2450]',
  [18] = '[2450 1200]',
  [19] = '[2450 1200 310.4]',
  [20] = '[2450 1200 310.4 89.99]',
  [21] = '[2450 1200 310.4 89.99 1600.39]',
  [22] = '[2450 1200 310.4 89.99 1600.39 849.61]',
  [23] = '[]',
  [26] = '[57.348]',
  [27] = '[57]',
  [28] = '[]',
  [31] = '[42.1648128]',
  [32] = '[42.1648128 37]',
  [33] = '[]',
  [36] = '[0.5]',
  [37] = '[0.5 2]',
  [38] = '[]',
  [41] = '[3 1 4 1 5 9 2 6]',
  [42] = '[… 1 4 1 5 9 2 6 8]',
  [43] = '[31]',
  [44] = '[10.75]',
  [45] = '[]',
  [48] = '[2 1 3 1]',
  [49] = '[]',
  [52] = '[1]',
  [53] = '[1 4 5]',
}

-- Compares hints (LSP InlayHint objects) with `expected` (1-based line → label), exactly:
-- one hint per line that has tokens, after its last token, paddingLeft.
local function check_hints(bufnr, hints, expected, what)
  local by_line, problems = {}, {}
  for _, hint in ipairs(hints) do
    local line = hint.position.line + 1
    if by_line[line] then
      table.insert(problems, 'two hints on line ' .. line)
    end
    by_line[line] = hint
  end
  for line, want in pairs(expected) do
    local hint = by_line[line]
    if not hint then
      table.insert(problems, string.format('line %d: no hint (want %s)', line, want))
    else
      local got = hint_label(hint)
      local pos = hint_position(bufnr, line - 1)
      if got ~= want then
        table.insert(problems, string.format('line %d: label %s, want %s', line, show(got), show(want)))
      end
      if hint.position.character ~= pos.character then
        table.insert(problems, string.format('line %d: hint at character %d, want %d (%s, after the last token)',
          line, hint.position.character, pos.character, expected_encoding))
      end
      if hint.paddingLeft ~= true then
        table.insert(problems, string.format('line %d: paddingLeft is %s, want true', line, show(hint.paddingLeft)))
      end
    end
  end
  for line, hint in pairs(by_line) do
    if not expected[line] then
      table.insert(problems, string.format('line %d: unexpected hint %s', line, show(hint_label(hint))))
    end
  end
  local count = 0
  for _ in pairs(expected) do
    count = count + 1
  end
  table.sort(problems)
  return check(#problems == 0, string.format('%s: %d hints, labels and positions exact', what, count),
    table.concat(problems, '; '))
end

local function raw_hints(bufnr)
  local last = api.nvim_buf_line_count(bufnr)
  return request(bufnr, 'textDocument/inlayHint', {
    textDocument = { uri = vim.uri_from_bufnr(bufnr) },
    range = { start = { line = 0, character = 0 }, ['end'] = { line = last, character = 0 } },
  })
end

local function ui_hints(bufnr)
  local hints = {}
  for _, item in ipairs(vim.lsp.inlay_hint.get({ bufnr = bufnr })) do
    table.insert(hints, item.inlay_hint)
  end
  return hints
end

local function diagnostic_code(d)
  if d.code ~= nil then
    return d.code
  end
  return d.user_data and d.user_data.lsp and d.user_data.lsp.code
end

-- Checks vim.diagnostic.get(bufnr) against `want` (a list of {lnum, col, end_col, code,
-- severity, message_has}, 0-based byte columns as Neovim keeps them).
local function check_diagnostics(bufnr, want, what)
  local ready = vim.wait(TIMEOUT, function()
    return #vim.diagnostic.get(bufnr) == #want
  end, 20)
  local got = vim.diagnostic.get(bufnr)
  table.sort(got, function(a, b)
    return a.lnum < b.lnum or (a.lnum == b.lnum and a.col < b.col)
  end)
  if not check(ready, string.format('%s: %d diagnostics published', what, #want),
      string.format('got %d: %s', #got, show(got))) then
    return
  end
  for i, w in ipairs(want) do
    local d = got[i]
    local problems = {}
    if diagnostic_code(d) ~= w.code then
      table.insert(problems, 'code ' .. show(diagnostic_code(d)))
    end
    if d.lnum ~= w.lnum or d.col ~= w.col or d.end_lnum ~= w.lnum or d.end_col ~= w.end_col then
      table.insert(problems, string.format('at %d:%d-%d:%d', d.lnum, d.col, d.end_lnum, d.end_col))
    end
    if d.severity ~= w.severity then
      table.insert(problems, 'severity ' .. show(d.severity))
    end
    if d.source ~= 'rpn' then
      table.insert(problems, 'source ' .. show(d.source))
    end
    if w.message_has and not d.message:find(w.message_has, 1, true) then
      table.insert(problems, 'message ' .. show(d.message))
    end
    check(#problems == 0,
      string.format('%s: %s at line %d, bytes %d-%d (0-based), source "rpn"%s', what, w.code, w.lnum,
        w.col, w.end_col, w.message_has and (', message names ' .. w.message_has) or ''),
      'got ' .. table.concat(problems, ', '))
  end
end

local function hover_at(bufnr, client, lnum0, col, what, want)
  api.nvim_win_set_cursor(0, { lnum0 + 1, col })
  local params = vim.lsp.util.make_position_params(0, client.offset_encoding)
  local result, err = request(bufnr, 'textDocument/hover', params)
  if not check(result ~= nil, what .. ': hover answered', err or 'null result') then
    return
  end
  local contents = result.contents
  local text = type(contents) == 'table' and (contents.value or vim.inspect(contents)) or tostring(contents)
  local missing = {}
  for _, piece in ipairs(want.contains) do
    if not text:find(piece, 1, true) then
      table.insert(missing, show(piece))
    end
  end
  check(#missing == 0, what .. ': hover text has ' .. table.concat(want.contains, ' / '),
    'missing ' .. table.concat(missing, ', ') .. ' in ' .. show(text))
  local r = result.range
  local text_line = line_text(bufnr, lnum0)
  local start = units(text_line, want.token_start, expected_encoding)
  local stop = units(text_line, want.token_end, expected_encoding)
  check(r and r.start.line == lnum0 and r['end'].line == lnum0 and r.start.character == start
      and r['end'].character == stop,
    string.format('%s: hover range is the token, characters %d-%d (%s)', what, start, stop, expected_encoding),
    'got ' .. show(r))
end

local function run()
  local version = vim.version()
  out(string.format('%s (nvim %d.%d.%d)', label, version.major, version.minor, version.patch))
  local bufnr = api.nvim_get_current_buf()
  local name = api.nvim_buf_get_name(bufnr)
  if not check(name:match('%.rpn$') ~= nil, 'the .rpn copy is the current buffer', show(name)) then
    return
  end
  check(vim.bo[bufnr].filetype == 'rpn', 'the config gives .rpn files filetype "rpn"',
    'filetype is ' .. show(vim.bo[bufnr].filetype))

  -- The server starts, initializes and attaches in single-file mode (no root: rootUri null).
  local client
  local attached = vim.wait(TIMEOUT, function()
    client = clients_of(bufnr)[1]
    return client ~= nil and client.initialized == true and client.server_capabilities ~= nil
  end, 20)
  if not check(attached, 'the config starts rpn-lsp and it attaches to the buffer',
      'no initialized rpn_lsp client after ' .. TIMEOUT .. ' ms (is the binary path right? see lsp.log)') then
    return
  end
  check(client.config.root_dir == nil and client.workspace_folders == nil,
    'single-file mode: no root_dir, no workspace folders (rootUri null) and the server still works',
    'root_dir ' .. show(client.config.root_dir) .. ', workspace_folders ' .. show(client.workspace_folders))
  -- What Neovim actually sent: run.sh turns on debug logging (before the config loads), so the
  -- initialize request is in lsp.log.
  local init_line
  local log_path = vim.lsp.get_log_path()
  if vim.fn.filereadable(log_path) == 1 then
    for _, line in ipairs(vim.fn.readfile(log_path)) do
      if line:find('method = "initialize"', 1, true) and line:find('rpc.send', 1, true) then
        init_line = line
      end
    end
  end
  check(init_line ~= nil and init_line:find('rootUri = vim.NIL', 1, true) ~= nil,
    'the initialize request had rootUri null (seen in lsp.log)',
    init_line and 'rootUri is not null in ' .. init_line:sub(1, 200) or
      ('no initialize request in ' .. log_path .. ' (debug logging off?)'))
  check(client.offset_encoding == expected_encoding,
    'position encoding negotiated: ' .. expected_encoding, 'client uses ' .. show(client.offset_encoding))
  check(vim.bo[bufnr].omnifunc == 'v:lua.vim.lsp.omnifunc', 'omnifunc is the LSP one (completion with <C-x><C-o>)',
    'omnifunc is ' .. show(vim.bo[bufnr].omnifunc))
  local k = vim.fn.maparg('K', 'n', false, true)
  check(type(k) == 'table' and ((k.rhs or '') .. (k.desc or '')):find('hover') ~= nil, 'K is mapped to hover',
    'K is ' .. show(k))
  local caps = client.server_capabilities
  check(caps.hoverProvider and caps.completionProvider and caps.inlayHintProvider and true,
    'server advertises hover, completion and inlay hints',
    show({ hover = caps.hoverProvider, completion = caps.completionProvider, inlayHint = caps.inlayHintProvider }))

  -- Diagnostics: the sample's two deliberate mistakes (lines 52 and 53, 1-based).
  local WARN, ERROR = vim.diagnostic.severity.WARN, vim.diagnostic.severity.ERROR
  local sample_diagnostics = {
    { lnum = 51, col = 2, end_col = 3, code = 'stack-underflow', severity = WARN, message_has = '`+`' },
    { lnum = 52, col = 4, end_col = 8, code = 'unknown-word', severity = ERROR, message_has = '`swap`' },
  }
  check_diagnostics(bufnr, sample_diagnostics, 'sample')

  -- Hover on the `+` of line 10 (`2 3 +`), and on `sq` of line 37 (`2 √ sq`: after a
  -- non-ASCII character, so UTF-8 and UTF-16 columns differ).
  hover_at(bufnr, client, 9, 4, 'hover on `+` (line 10)', {
    contains = { '`+`', 'add', '( a b -- a+b )', 'Stack before: `[2 3]`', 'Stack after: `[5]`' },
    token_start = 4, token_end = 5,
  })
  local sq = byte_col(bufnr, 36, 'sq')
  hover_at(bufnr, client, 36, sq + 1, 'hover on `sq` after `√` (line 37)', {
    contains = { '`sq`', 'Stack before: `[0.5 1.4142135623731]`', 'Stack after: `[0.5 2]`' },
    token_start = sq, token_end = sq + 2,
  })

  -- Completion at the end of `rent` on line 21: operators, constants and the variables stored
  -- above that point (not `left`, stored on line 22).
  api.nvim_win_set_cursor(0, { 21, 4 })
  local result, err = request(bufnr, 'textDocument/completion', vim.lsp.util.make_position_params(0, client.offset_encoding))
  if check(result ~= nil, 'completion answered', err or 'null result') then
    local items = result.items or result
    local labels = {}
    for _, item in ipairs(items) do
      labels[item.label] = item
    end
    local missing = {}
    for _, want in ipairs({ 'dup', 'sqrt', '√', 'π', 'pi', '+', 'swap', 'rent', 'income', 'groceries', 'phone' }) do
      if not labels[want] then
        table.insert(missing, want)
      end
    end
    check(#missing == 0, 'completion labels include dup, sqrt, √, π, pi, +, swap and the variables rent, income, groceries, phone',
      'missing ' .. table.concat(missing, ', ') .. ' among ' .. #items .. ' items')
    check(labels['left'] == nil and labels['total'] == nil, 'completion leaves out variables stored below the cursor (left, total)',
      'offered ' .. show({ left = labels['left'] ~= nil, total = labels['total'] ~= nil }))
    check(labels['rent'] and labels['rent'].detail and labels['rent'].detail:find('1200', 1, true) ~= nil,
      'completion item `rent` shows its value 1200', 'got ' .. show(labels['rent']))
  end

  -- Inlay hints through a raw request (works on every version).
  local hints, herr = raw_hints(bufnr)
  if check(hints ~= nil, 'textDocument/inlayHint answered', herr or 'null result') then
    check_hints(bufnr, hints, sample_hints, 'raw textDocument/inlayHint')
  end

  -- The hints held by the built-in inlay-hint UI (0.10+), turned on by the shipped config.
  if want_ui_hints then
    local enabled = vim.lsp.inlay_hint.is_enabled({ bufnr = bufnr })
    check(enabled, 'the config turned on the built-in inlay hints for the buffer', 'vim.lsp.inlay_hint.is_enabled is false')
    vim.wait(TIMEOUT, function()
      return #vim.lsp.inlay_hint.get({ bufnr = bufnr }) >= 32
    end, 20)
    check_hints(bufnr, ui_hints(bufnr), sample_hints, 'built-in UI (vim.lsp.inlay_hint.get)')
  end

  -- Edits go to the server as incremental changes (positions in the negotiated encoding).
  -- 1. `2 3 +` becomes `2 30 +`: line 10 and every stack below it change.
  api.nvim_buf_set_text(bufnr, 9, 3, 9, 3, { '0' })
  -- 2. After the `÷` of line 12 (non-ASCII before the edit): a new unknown word.
  local after_div = byte_col(bufnr, 11, '÷') + #'÷'
  api.nvim_buf_set_text(bufnr, 11, after_div, 11, after_div, { ' sqrtt' })
  local edited_diagnostics = {
    { lnum = 11, col = after_div + 1, end_col = after_div + 6, code = 'unknown-word', severity = ERROR, message_has = '`sqrt`' },
    sample_diagnostics[1],
    sample_diagnostics[2],
  }
  check_diagnostics(bufnr, edited_diagnostics, 'after two edits')
  local edited_hints = vim.deepcopy(sample_hints)
  edited_hints[10] = '[32]'
  edited_hints[11] = '[32 6]'
  edited_hints[12] = '[32 6 42 42]'
  edited_hints[13] = '[32 6 42 42 1024 3 8]'
  hints, herr = raw_hints(bufnr)
  if check(hints ~= nil, 'textDocument/inlayHint answered after the edits', herr or 'null result') then
    check_hints(bufnr, hints, edited_hints, 'raw textDocument/inlayHint after the edits')
  end
  if want_ui_hints then
    vim.wait(TIMEOUT, function()
      for _, hint in ipairs(ui_hints(bufnr)) do
        if hint.position.line == 9 and hint_label(hint) == '[32]' then
          return true
        end
      end
      return false
    end, 20)
    check_hints(bufnr, ui_hints(bufnr), edited_hints, 'built-in UI after the edits')
  end

  -- 3. Undo both edits: back to the sample's diagnostics.
  api.nvim_buf_set_text(bufnr, 11, after_div, 11, after_div + #' sqrtt', { '' })
  api.nvim_buf_set_text(bufnr, 9, 3, 9, 4, { '' })
  check_diagnostics(bufnr, sample_diagnostics, 'after undoing the edits')

  -- The server stops when asked (shutdown + exit).
  local id = client.id
  vim.lsp.stop_client(id)
  local stopped = vim.wait(TIMEOUT, function()
    return vim.lsp.get_client_by_id(id) == nil
  end, 20)
  check(stopped, 'the server shuts down and exits when the client stops', 'client still running after ' .. TIMEOUT .. ' ms')
end

local okay, problem = xpcall(run, debug.traceback)
if not okay then
  fail('the test script itself failed', problem)
end
finish()
