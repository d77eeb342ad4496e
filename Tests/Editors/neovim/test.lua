-- Headless editor test: runs inside Neovim (0.7 and later) after the shipped config
-- (EditorConfigs/neovim/*.lua) was loaded with `-u` and a copy of EditorConfigs/sample.rpn was
-- opened. Driven by run.sh, which sets:
--   RPN_TEST_LABEL     what to call this run in messages (e.g. "Neovim 0.7.2 + rpn_lsp_legacy.lua")
--   RPN_TEST_ENCODING  the position encoding the client must end up with (utf-8 / utf-16)
--   RPN_TEST_UI_HINTS  "1" when the built-in inlay-hint UI must hold the hints (0.10+)
--   RPN_TEST_LENSES    "1" when the config shows code lenses (vim.lsp.codelens) and so turns the
--                      server's inlay hints on headings off (inlayHints.sections false)
--   RPN_TEST_FOLDS     "1" when the config folds with the server's ranges (vim.lsp.foldexpr, 0.11+)
-- Prints one line per check; exits 0 when all passed, 1 otherwise.
--
-- In order: the client attaches in single-file mode with the expected encoding; the sample's
-- diagnostics, hover, completion and inlay hints (raw, and the built-in UI on 0.10+); two
-- incremental edits and their undo. Then, through the client's own commands where it has them:
-- go-to-definition (vim.lsp.buf.definition() moves the cursor), references (raw, and
-- vim.lsp.buf.references() filling the quickfix list), document highlights and symbols,
-- semantic tokens (raw full/range, and the built-in highlighter on 0.9+), rename
-- (vim.lsp.buf.rename(): applied, refused with the server's error, nothing to rename, and back),
-- range and whole-buffer formatting (vim.lsp.buf.format, or range_formatting/formatting_sync on
-- 0.7) of messy lines, and the quick fix for `swpa` (vim.lsp.buf.code_action(), the menu
-- answered here). After each edit: diagnostics re-published and inlay hints still exact.
-- Then, in a second buffer, a failing check updated by its quick fix (vim.lsp.buf.code_action()
-- with apply and a filter; its menu on 0.7), then every check removed by a resolved source action,
-- then the line's hint accepted (resolved where the client resolves, its edit applied).
-- Then, in a third buffer, a defined word: hover on its name and on a use (its effect, the line
-- it is defined on), its effect inlay hint after `;`, definition, and rename through the client.
-- Then, in a buffer of its own, numbers grouped in thousands (`1,234.50`) and in hex, octal and
-- binary (`0xFF`), alone and as checks: semantic tokens (raw, and drawn on 0.9+) say `number`;
-- `1,5` and `0xG` are invalid-number errors.
-- Then, in a buffer of quantities (units.rpn): completion after `26.2_mi >k` offers units only,
-- `km` first, whose edit (applied as the client applies it) makes `>km`; "Convert to km
-- (kilometre)" on `26.2_mi` and the unit-mismatch quick fix "Convert with `>mi`" on `5_km _mi`,
-- through the client (client_code_action): the buffer's text, diagnostics and hints after each.
-- Last, in a fourth buffer, sections: each heading's summary as a code lens (raw, and through
-- vim.lsp.codelens where the config shows lenses, following an edit), or as an inlay hint at the
-- heading's end; the folding ranges (raw, and vim.lsp.foldexpr's folds where the config folds,
-- none closed on open); a selection range; workspace/symbol across the open tapes.

local api = vim.api
local label = vim.env.RPN_TEST_LABEL or 'Neovim'
local expected_encoding = vim.env.RPN_TEST_ENCODING or 'utf-16'
local want_ui_hints = vim.env.RPN_TEST_UI_HINTS == '1'
local want_lenses = vim.env.RPN_TEST_LENSES == '1'
local want_folds = vim.env.RPN_TEST_FOLDS == '1'
local TIMEOUT = 10000
-- How long a client command (jump, rename, format, code action) may take to show its effect;
-- the server answers these in milliseconds, and a missing effect should not eat the run's time.
local CLIENT_WAIT = 3000

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

-- The sample's inlay hints: 1-based line → the stack after that line; on a line that defines a
-- word, also the word's effect right after its `;` ({ stack = …, effect = … }); on a heading, the
-- section's summary at the line's end ({ section = … }), unless the config turned those hints off
-- (run() drops them then).
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
  [52] = '[20.5]',
  [53] = '[20.5 0.333333333333333]',
  [54] = '[20.5 0.333333333333333 849.61]',
  [55] = '[20.5 0.333333333333333 849.61 1480]',
  [56] = '[]',
  [59] = { stack = '[]', effect = '( a b -- r )' },
  [60] = '[5]',
  [61] = '[5 13 12]',
  [62] = '[]',
  [65] = '[1]',
  [66] = '[1 4 5]',
  [67] = '[]',
  [71] = { section = 'Σ 23.7 · 1 value · avg 23.7' },
  [72] = '[12.5]',
  [73] = '[12.5 8 3.2]',
  [74] = '[23.7]',
  [75] = { section = 'Σ 945.5 · 2 values · avg 472.75' },
  [76] = '[23.7 900 45.5]',
}

-- The LSP position right after the `;` that ends a line's definition (its first whole-token `;`).
local function effect_position(bufnr, lnum0)
  local text = line_text(bufnr, lnum0)
  local code = text:gsub('#.*$', '')
  for token, stop in code:gmatch('(%S+)()') do
    if token == ';' then
      return { line = lnum0, character = units(text, stop - 1, expected_encoding) }
    end
  end
  return nil
end

-- What a hint shows, told by its label: a word's effect `( a b -- r )`, a section's summary
-- (`Σ 20.5 · 2 values · avg 10.25`, or `no values`), or else a line's stack.
local function hint_kind(hint)
  local text = hint_label(hint)
  if text:sub(1, 1) == '(' then
    return 'effect'
  elseif text:sub(1, #'Σ') == 'Σ' or text == 'no values' then
    return 'section'
  end
  return 'stack'
end

-- Where a hint of `kind` belongs on a line (0-based): a stack after the last token, an effect right
-- after the `;`, a section's summary at the line's end.
local function kind_position(bufnr, kind, lnum0)
  if kind == 'stack' then
    return hint_position(bufnr, lnum0), 'after the last token'
  elseif kind == 'effect' then
    return effect_position(bufnr, lnum0), 'right after `;`'
  end
  local text = line_text(bufnr, lnum0)
  return { line = lnum0, character = units(text, #text, expected_encoding) }, "at the line's end"
end

-- Compares hints (LSP InlayHint objects) with `expected` (1-based line → the stack label, or
-- { stack = label, effect = label } on a line that defines a word, or { section = summary } on a
-- heading), exactly: one stack hint per line that has tokens, after its last token; a word's
-- effect hint right after its `;`; a section's summary at the end of its heading (hint_kind tells
-- them apart); each paddingLeft. Returns the problems.
local function hint_problems(bufnr, hints, expected)
  local by_line, problems = {}, {}
  for _, hint in ipairs(hints) do
    local line = hint.position.line + 1
    local kind = hint_kind(hint)
    by_line[line] = by_line[line] or {}
    if by_line[line][kind] then
      table.insert(problems, string.format('two %s hints on line %d', kind, line))
    end
    by_line[line][kind] = hint
  end
  for line, want_line in pairs(expected) do
    local wants = type(want_line) == 'table' and want_line or { stack = want_line }
    for _, kind in ipairs({ 'stack', 'effect', 'section' }) do
      local want = wants[kind]
      local hint = by_line[line] and by_line[line][kind]
      if want and not hint then
        table.insert(problems, string.format('line %d: no %s hint (want %s)', line, kind, want))
      elseif want then
        local got = hint_label(hint)
        local pos, where = kind_position(bufnr, kind, line - 1)
        if got ~= want then
          table.insert(problems, string.format('line %d: %s label %s, want %s', line, kind, show(got), show(want)))
        end
        if pos == nil or hint.position.character ~= pos.character then
          table.insert(problems, string.format('line %d: %s hint at character %d, want %s (%s, %s)', line, kind,
            hint.position.character, pos and tostring(pos.character) or '?', expected_encoding, where))
        end
        if hint.paddingLeft ~= true then
          table.insert(problems, string.format('line %d: %s hint paddingLeft is %s, want true', line, kind,
            show(hint.paddingLeft)))
        end
      elseif hint then
        table.insert(problems, string.format('line %d: unexpected %s hint %s', line, kind, show(hint_label(hint))))
      end
    end
  end
  for line, kinds in pairs(by_line) do
    if not expected[line] then
      for _, hint in pairs(kinds) do
        table.insert(problems, string.format('line %d: unexpected hint %s', line, show(hint_label(hint))))
      end
    end
  end
  table.sort(problems)
  return problems
end

local function check_hints(bufnr, hints, expected, what)
  local problems = hint_problems(bufnr, hints, expected)
  local count = 0
  for _, want in pairs(expected) do
    count = count + (type(want) == 'table' and vim.tbl_count(want) or 1)
  end
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
-- severity, message_has}, 0-based byte columns as Neovim keeps them). Waits for them to match
-- (a multi-edit change can publish an in-between state first).
-- With `since` (a value of diagnostic_updates taken before an edit), they must also be new:
-- set (pushed or pulled) after that edit.
local diagnostic_updates = 0

local function sorted_diagnostics(bufnr)
  local got = vim.diagnostic.get(bufnr)
  table.sort(got, function(a, b)
    return a.lnum < b.lnum or (a.lnum == b.lnum and a.col < b.col)
  end)
  return got
end

-- The problems of each wanted diagnostic (a list of lists), given the count matches.
local function diagnostic_problems(got, want)
  local all = {}
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
    all[i] = problems
  end
  return all
end

local function check_diagnostics(bufnr, want, what, since)
  local function settled()
    local got = sorted_diagnostics(bufnr)
    if #got ~= #want or (since ~= nil and diagnostic_updates <= since) then
      return false
    end
    for _, problems in ipairs(diagnostic_problems(got, want)) do
      if #problems > 0 then
        return false
      end
    end
    return true
  end
  -- After an edit (`since`), the client already runs: a missing update should not eat the run's time.
  vim.wait(since and CLIENT_WAIT or TIMEOUT, settled, 20)
  local got = sorted_diagnostics(bufnr)
  local fresh = since == nil or diagnostic_updates > since
  if not check(#got == #want and fresh, string.format('%s: %d diagnostics published%s', what, #want,
        since and ' (new ones, set after the change)' or ''),
      string.format('got %d%s: %s', #got, fresh and '' or ', and none were set after the change', show(got))) then
    return
  end
  for i, problems in ipairs(diagnostic_problems(got, want)) do
    local w = want[i]
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

-- Ranges and locations. `lsp_range` is a token's range in `expected_encoding` units, from
-- 0-based byte columns of one line.
local function lsp_range(bufnr, lnum0, start_byte, end_byte)
  local text = line_text(bufnr, lnum0)
  return {
    start = { line = lnum0, character = units(text, start_byte, expected_encoding) },
    ['end'] = { line = lnum0, character = units(text, end_byte, expected_encoding) },
  }
end

local function range_text(r)
  if type(r) ~= 'table' or type(r.start) ~= 'table' or type(r['end']) ~= 'table' then
    return show(r)
  end
  return string.format('%d:%d-%d:%d', r.start.line, r.start.character, r['end'].line, r['end'].character)
end

-- The range of the `nth` `needle` on a line (0-based), in `expected_encoding` units.
local function token_range(bufnr, lnum0, needle, nth)
  local start = byte_col(bufnr, lnum0, needle, nth)
  return lsp_range(bufnr, lnum0, start, start + #needle)
end

local function position_params(client, lnum0, byte)
  api.nvim_win_set_cursor(0, { lnum0 + 1, byte })
  return vim.lsp.util.make_position_params(0, client.offset_encoding)
end

-- Compares a list of LSP Locations with `want` (a list of ranges), in order, and the URIs.
local function location_problems(bufnr, got, want)
  if type(got) ~= 'table' then
    return 'got ' .. show(got)
  end
  if got.uri then
    got = { got }
  end
  local uri = vim.uri_from_bufnr(bufnr)
  local got_text, want_text = {}, {}
  for _, location in ipairs(got) do
    table.insert(got_text, (location.uri == uri and '' or (show(location.uri) .. ' ')) .. range_text(location.range))
  end
  for _, r in ipairs(want) do
    table.insert(want_text, range_text(r))
  end
  local a, b = table.concat(got_text, ', '), table.concat(want_text, ', ')
  if a ~= b then
    return string.format('got [%s], want [%s] (0-based line:character, %s)', a, b, expected_encoding)
  end
  return nil
end

-- Where two lists of lines differ (for messages), or nil when they are equal.
local function lines_diff(got, want)
  local problems = {}
  for i = 1, math.max(#got, #want) do
    if got[i] ~= want[i] then
      table.insert(problems, string.format('line %d is %s, want %s', i, show(got[i]), show(want[i])))
      if #problems >= 6 then
        table.insert(problems, '…')
        break
      end
    end
  end
  if #problems == 0 then
    return nil
  end
  return table.concat(problems, '; ')
end

local function buffer_lines(bufnr)
  return api.nvim_buf_get_lines(bufnr, 0, -1, true)
end

-- `lines` with some 1-based lines replaced.
local function with_lines(lines, replacements)
  local copy = vim.deepcopy(lines)
  for lnum, text in pairs(replacements) do
    copy[lnum] = text
  end
  return copy
end

-- Runs `body(messages)` with vim.notify (which Neovim's LSP client uses for errors and "nothing
-- to rename") and vim.ui.select (the code-action menu) replaced: notifications are collected
-- in `messages` instead of going to stderr; `select` (or nil) answers the menu.
local function with_ui(select, body)
  local messages = {}
  local saved_notify, saved_select = vim.notify, vim.ui.select
  vim.notify = function(msg, level)
    table.insert(messages, { msg = tostring(msg), level = level })
  end
  vim.ui.select = select or function(items, _, on_choice)
    table.insert(messages, { msg = 'unexpected vim.ui.select of ' .. #items .. ' items' })
    on_choice(nil)
  end
  local okay, problem = pcall(body, messages)
  vim.notify, vim.ui.select = saved_notify, saved_select
  if not okay then
    error(problem, 0)
  end
  return messages
end

local function messages_text(messages)
  local parts = {}
  for _, m in ipairs(messages) do
    table.insert(parts, show(m.msg))
  end
  return #parts == 0 and 'none' or table.concat(parts, ', ')
end

-- Raw hints and, where the built-in UI holds them (0.10+), the UI's hints, against `expected`;
-- positions come from the buffer's current text.
local function check_all_hints(bufnr, expected, what)
  local hints, err = raw_hints(bufnr)
  if check(hints ~= nil, 'textDocument/inlayHint answered ' .. what, err or 'null result') then
    check_hints(bufnr, hints, expected, 'raw textDocument/inlayHint ' .. what)
  end
  if want_ui_hints then
    vim.wait(CLIENT_WAIT, function()
      return #hint_problems(bufnr, ui_hints(bufnr), expected) == 0
    end, 20)
    check_hints(bufnr, ui_hints(bufnr), expected, 'built-in UI ' .. what)
  end
end

-- Go-to-definition through the client: `vim.lsp.buf.definition()` from `from` ({lnum, byte},
-- as nvim_win_get_cursor) must move the cursor to `to`, in the same buffer.
local function check_definition_jump(bufnr, from, to, what)
  local win = api.nvim_get_current_win()
  api.nvim_win_set_cursor(win, from)
  local messages = with_ui(nil, function(messages)
    vim.lsp.buf.definition()
    vim.wait(CLIENT_WAIT, function()
      local cursor = api.nvim_win_get_cursor(win)
      return cursor[1] ~= from[1] or cursor[2] ~= from[2] or #messages > 0
    end, 10)
  end)
  local cursor = api.nvim_win_get_cursor(win)
  check(api.nvim_win_get_buf(win) == bufnr and cursor[1] == to[1] and cursor[2] == to[2],
    string.format('%s: vim.lsp.buf.definition() from line %d byte %d jumps to line %d byte %d (0-based bytes)',
      what, from[1], from[2], to[1], to[2]),
    string.format('the cursor is at line %d byte %d of buffer %d (want buffer %d); messages: %s',
      cursor[1], cursor[2], api.nvim_win_get_buf(win), bufnr, messages_text(messages)))
end

local function check_definitions(bufnr, client)
  -- Raw requests: a use answers its store (`=rent`, the whole token); a store answers itself,
  -- also after a non-ASCII character (line 31: `26.2 1.609344 × =marathon_km`); off a
  -- variable, null.
  local result, err = request(bufnr, 'textDocument/definition', position_params(client, 20, 1))
  local problem = err or location_problems(bufnr, result, { token_range(bufnr, 17, '=rent') })
  check(problem == nil, 'textDocument/definition on `rent` (line 21) is `=rent` on line 18, the whole token', problem)
  result, err = request(bufnr, 'textDocument/definition', position_params(client, 21, byte_col(bufnr, 21, 'spent') + 2))
  problem = err or location_problems(bufnr, result, { token_range(bufnr, 20, '=spent') })
  check(problem == nil, 'textDocument/definition on `spent` (line 22) is `=spent` on line 21', problem)
  local km = byte_col(bufnr, 30, '=marathon_km')
  result, err = request(bufnr, 'textDocument/definition', position_params(client, 30, km + 4))
  problem = err or location_problems(bufnr, result, { token_range(bufnr, 30, '=marathon_km') })
  check(problem == nil, 'textDocument/definition on the store `=marathon_km` after `×` (line 31) is itself, in '
    .. expected_encoding .. ' units', problem)
  result, err = request(bufnr, 'textDocument/definition', position_params(client, 20, byte_col(bufnr, 20, '+')))
  check(result == nil and err == nil, 'textDocument/definition on `+` (not a variable) is null',
    'got ' .. (err or show(result)))

  -- Through the client, which converts the range to a byte column and moves the cursor.
  check_definition_jump(bufnr, { 21, 2 }, { 18, 5 }, 'go to definition of `rent`')
  check_definition_jump(bufnr, { 31, km + 4 }, { 31, km }, 'go to definition on `=marathon_km` after `×`')

  -- CTRL-] : Neovim 0.8+ sets 'tagfunc' to the LSP one, so the tag jump is a definition jump.
  if vim.bo[bufnr].tagfunc == 'v:lua.vim.lsp.tagfunc' then
    local win = api.nvim_get_current_win()
    api.nvim_win_set_cursor(win, { 22, byte_col(bufnr, 21, 'spent') + 1 })
    local messages = with_ui(nil, function()
      vim.cmd('silent! normal! \29')
    end)
    local cursor = api.nvim_win_get_cursor(win)
    local want = byte_col(bufnr, 20, '=spent')
    check(api.nvim_win_get_buf(win) == bufnr and cursor[1] == 21 and cursor[2] == want,
      string.format("CTRL-] ('tagfunc' is vim.lsp.tagfunc) on `spent` (line 22) jumps to `=spent`, line 21 byte %d", want),
      string.format('the cursor is at line %d byte %d of buffer %d; messages: %s', cursor[1], cursor[2],
        api.nvim_win_get_buf(win), messages_text(messages)))
  else
    out("  skip  CTRL-] as go-to-definition: 'tagfunc' is " .. show(vim.bo[bufnr].tagfunc) .. ' (Neovim 0.8+ sets it)')
  end
end

local function check_references(bufnr, client)
  local rent_store, rent_use = token_range(bufnr, 17, '=rent'), token_range(bufnr, 20, 'rent')
  local params = position_params(client, 20, 2)
  params.context = { includeDeclaration = true }
  local result, err = request(bufnr, 'textDocument/references', params)
  local problem = err or location_problems(bufnr, result, { rent_store, rent_use })
  check(problem == nil, 'textDocument/references on `rent`, includeDeclaration: `=rent` (line 18) and `rent` (line 21)', problem)
  params.context = { includeDeclaration = false }
  result, err = request(bufnr, 'textDocument/references', params)
  problem = err or location_problems(bufnr, result, { rent_use })
  check(problem == nil, 'textDocument/references on `rent` without the declaration: only `rent` (line 21)', problem)

  -- Through the client: vim.lsp.buf.references() fills the quickfix list (and opens it).
  local win = api.nvim_get_current_win()
  vim.fn.setqflist({}, 'r')
  api.nvim_win_set_cursor(win, { 21, 2 })
  local messages = with_ui(nil, function(messages)
    vim.lsp.buf.references()
    vim.wait(CLIENT_WAIT, function()
      return #vim.fn.getqflist() > 0 or #messages > 0
    end, 10)
  end)
  local items = {}
  for _, item in ipairs(vim.fn.getqflist()) do
    table.insert(items, string.format('%s%d:%d', item.bufnr == bufnr and '' or ('buffer ' .. item.bufnr .. ' '),
      item.lnum, item.col))
  end
  local got_items = table.concat(items, ', ')
  check(got_items == '18:6, 21:1', 'vim.lsp.buf.references() on `rent` fills the quickfix list: 18:6, 21:1 (line:byte column)',
    'quickfix list is [' .. got_items .. ']; messages: ' .. messages_text(messages))
  vim.cmd('cclose')
  if api.nvim_win_is_valid(win) then
    api.nvim_set_current_win(win)
  end
  check(api.nvim_get_current_buf() == bufnr, 'back in the tape after closing the quickfix window',
    'current buffer is ' .. api.nvim_get_current_buf())

  -- Highlights: the store is a write (3), the use a read (2).
  result, err = request(bufnr, 'textDocument/documentHighlight', position_params(client, 17, 7))
  local got = {}
  for _, h in ipairs(type(result) == 'table' and result or {}) do
    table.insert(got, range_text(h.range) .. ' kind ' .. tostring(h.kind))
  end
  local want = range_text(rent_store) .. ' kind 3, ' .. range_text(rent_use) .. ' kind 2'
  check(table.concat(got, ', ') == want, 'textDocument/documentHighlight on `=rent`: ' .. want,
    err or ('got ' .. table.concat(got, ', ')))

  -- Symbols: each store and word above the first heading, in order, named without `=`, the value
  -- as detail; then each section (kind Namespace, named by its title) holding the stores in it.
  result, err = request(bufnr, 'textDocument/documentSymbol', { textDocument = { uri = vim.uri_from_bufnr(bufnr) } })
  local names, rent, groceries = {}, nil, nil
  for _, symbol in ipairs(type(result) == 'table' and result or {}) do
    table.insert(names, symbol.name)
    if symbol.name == 'rent' then
      rent = symbol
    elseif symbol.name == 'Groceries' then
      groceries = symbol
    end
  end
  local want_names = 'income rent groceries phone spent left total marathon_km body_celsius hyp Groceries Rent'
  check(table.concat(names, ' ') == want_names, 'textDocument/documentSymbol: ' .. want_names,
    err or ('got ' .. table.concat(names, ' ')))
  local children = {}
  for _, symbol in ipairs(groceries and groceries.children or {}) do
    table.insert(children, symbol.name)
  end
  check(groceries ~= nil and groceries.kind == 3 and groceries.range.start.line == 70
      and groceries.range['end'].line == 73 and table.concat(children, ' ') == 'bread',
    'symbol `Groceries`: kind Namespace, lines 71-74, holding the store `bread`',
    'got ' .. show(groceries))
  check(rent ~= nil and rent.kind == 13 and rent.detail == '1200' and range_text(rent.range) == range_text(rent_store)
      and range_text(rent.selectionRange) == range_text(token_range(bufnr, 17, 'rent')),
    'symbol `rent`: kind Variable, detail 1200, range `=rent`, selectionRange `rent`', 'got ' .. show(rent))
end

-- Semantic tokens, expected at: {0-based line, text, nth, type, modifiers (sorted, comma-joined)};
-- type false: no token there.
local semantic_expectations = {
  { 0, '# A tour', 1, 'comment', '', to_end = true },
  { 5, '12.5', 1, 'number', '' },
  { 5, '−3', 1, 'number', '' },
  { 9, '+', 1, 'operator', '' },
  { 17, '=rent', 1, 'variable', 'declaration' },
  { 20, 'rent', 1, 'variable', '' },
  { 30, '×', 1, 'operator', '' },
  { 30, '=marathon_km', 1, 'variable', 'declaration' },
  { 35, 'pi', 1, 'variable', 'defaultLibrary,readonly' },
  { 35, 'sin', 1, 'function', 'defaultLibrary' },
  { 36, '√', 1, 'operator', '' },
  { 36, 'sq', 1, 'function', 'defaultLibrary' },
  { 36, '# back', 1, 'comment', '', to_end = true },
  { 51, '=', 1, 'operator', '' },
  { 51, '20.5', 1, 'number', '' },
  { 54, '=', 1, 'operator', '' },
  { 54, '1.5e3', 1, 'number', '' },
  { 58, ':', 1, 'keyword', '' },
  { 58, 'hyp', 1, 'function', 'declaration' },
  { 58, 'sqrt', 1, 'function', 'defaultLibrary' },
  { 58, ';', 1, 'keyword', '' },
  { 59, 'hyp', 1, 'function', '' },
  { 60, 'lastx', 1, 'function', 'defaultLibrary' },
  { 65, 'swpa', 1, false },
  { 70, '## Groceries', 1, 'comment', '', to_end = true },
  { 73, 'subtotal', 1, 'function', 'defaultLibrary' },
}

local function expectation_bytes(bufnr, e)
  local start = byte_col(bufnr, e[1], e[2], e[3])
  local stop = e.to_end and #line_text(bufnr, e[1]) or start + #e[2]
  return start, stop
end

local function modifier_names(set_or_list)
  local names = {}
  for k, v in pairs(set_or_list or {}) do
    if type(k) == 'string' and v then
      table.insert(names, k)
    elseif type(v) == 'string' then
      table.insert(names, v)
    end
  end
  table.sort(names)
  return table.concat(names, ',')
end

-- Decodes LSP semantic-token data (relative, 5 integers a token) with the server's legend.
local function decode_tokens(data, legend)
  local tokens, line, start = {}, 0, 0
  for i = 1, #data, 5 do
    if data[i] > 0 then
      line, start = line + data[i], data[i + 1]
    else
      start = start + data[i + 1]
    end
    local mods = {}
    for bit = 0, #legend.tokenModifiers - 1 do
      if math.floor(data[i + 4] / 2 ^ bit) % 2 == 1 then
        table.insert(mods, legend.tokenModifiers[bit + 1])
      end
    end
    table.insert(tokens, { line = line, start = start, length = data[i + 2], type = legend.tokenTypes[data[i + 3] + 1],
      modifiers = modifier_names(mods) })
  end
  return tokens
end

-- `expectations` defaults to the sample's (semantic_expectations).
local function raw_token_problems(bufnr, tokens, only_line, expectations)
  local problems = {}
  for _, e in ipairs(expectations or semantic_expectations) do
    if only_line == nil or e[1] == only_line then
      local start, stop = expectation_bytes(bufnr, e)
      local text = line_text(bufnr, e[1])
      local first, last = units(text, start, expected_encoding), units(text, stop, expected_encoding)
      local found
      for _, t in ipairs(tokens) do
        if t.line == e[1] and t.start < last and t.start + t.length > first then
          found = t
        end
      end
      if e[4] == false then
        if found then
          table.insert(problems, string.format('line %d %s: token %s, want none', e[1] + 1, show(e[2]), found.type))
        end
      elseif not found or found.start ~= first or found.length ~= last - first or found.type ~= e[4]
          or found.modifiers ~= e[5] then
        table.insert(problems, string.format('line %d %s: %s, want %s [%s] at character %d length %d',
          e[1] + 1, show(e[2]), found and string.format('%s [%s] at character %d length %d', found.type, found.modifiers,
            found.start, found.length) or 'no token', e[4], e[5], first, last - first))
      end
    end
  end
  return problems
end

local function ui_token_problems(bufnr, expectations)
  local problems = {}
  for _, e in ipairs(expectations or semantic_expectations) do
    local start, stop = expectation_bytes(bufnr, e)
    local found
    for _, t in ipairs(vim.lsp.semantic_tokens.get_at_pos(bufnr, e[1], start) or {}) do
      found = t
    end
    if e[4] == false then
      if found then
        table.insert(problems, string.format('line %d %s: token %s, want none', e[1] + 1, show(e[2]), found.type))
      end
    elseif not found or found.start_col ~= start or found.end_col ~= stop or found.type ~= e[4]
        or modifier_names(found.modifiers) ~= e[5] then
      table.insert(problems, string.format('line %d %s: %s, want %s [%s] at bytes %d-%d', e[1] + 1, show(e[2]),
        found and string.format('%s [%s] at bytes %d-%d', found.type, modifier_names(found.modifiers), found.start_col,
          found.end_col) or 'no token', e[4], e[5], start, stop))
    end
  end
  return problems
end

-- What the highlighter drew: vim.inspect_pos lists the semantic-token extmarks at a position
-- (@lsp.type.TYPE.rpn, @lsp.mod.MODIFIER.rpn). Extmarks exist for drawn lines only, so each
-- line is brought into view and redrawn first.
local function drawn_token_problems(bufnr, expectations)
  local problems = {}
  local win = api.nvim_get_current_win()
  for _, e in ipairs(expectations or semantic_expectations) do
    local start, stop = expectation_bytes(bufnr, e)
    api.nvim_win_set_cursor(win, { e[1] + 1, start })
    vim.cmd('redraw')
    local groups, exact = {}, {}
    for _, mark in ipairs(vim.inspect_pos(bufnr, e[1], start).semantic_tokens or {}) do
      local group = mark.opts and mark.opts.hl_group or '?'
      table.insert(groups, string.format('%s@%d-%d', group, mark.col, mark.end_col))
      if mark.col == start and mark.end_col == stop then
        exact[group] = true
      end
    end
    local want = {}
    if e[4] then
      table.insert(want, '@lsp.type.' .. e[4] .. '.rpn')
      for m in e[5]:gmatch('[^,]+') do
        table.insert(want, '@lsp.mod.' .. m .. '.rpn')
      end
    end
    local missing = {}
    for _, group in ipairs(want) do
      if not exact[group] then
        table.insert(missing, group)
      end
    end
    if #missing > 0 or (e[4] == false and #groups > 0) then
      table.insert(problems, string.format('line %d %s: drawn [%s], want %s at bytes %d-%d (window shows lines %d-%d)',
        e[1] + 1, show(e[2]), table.concat(groups, ' '), #want > 0 and table.concat(want, ' ') or 'nothing', start, stop,
        vim.fn.line('w0', win), vim.fn.line('w$', win)))
    end
  end
  return problems
end

-- `when` is empty the first time, or says after what (e.g. ' after formatting').
local function check_semantic_tokens(bufnr, client, when)
  when = when or ''
  local provider = client.server_capabilities.semanticTokensProvider
  if type(provider) ~= 'table' or provider.legend == nil or when == '' then
    if not check(type(provider) == 'table' and provider.legend ~= nil, 'server advertises semantic tokens with a legend',
        'semanticTokensProvider is ' .. show(provider)) then
      return
    end
  end
  local uri = vim.uri_from_bufnr(bufnr)
  local result, err = request(bufnr, 'textDocument/semanticTokens/full', { textDocument = { uri = uri } })
  if check(result ~= nil and type(result.data) == 'table', 'textDocument/semanticTokens/full answered' .. when, err or show(result)) then
    local problems = raw_token_problems(bufnr, decode_tokens(result.data, provider.legend))
    check(#problems == 0, string.format('semanticTokens/full%s: %d tokens checked (types, modifiers, %s positions)',
      when, #semantic_expectations, expected_encoding), table.concat(problems, '; '))
  end
  result, err = request(bufnr, 'textDocument/semanticTokens/range', {
    textDocument = { uri = uri },
    range = { start = { line = 30, character = 0 }, ['end'] = { line = 31, character = 0 } },
  })
  if check(result ~= nil and type(result.data) == 'table', 'textDocument/semanticTokens/range answered' .. when, err or show(result)) then
    local tokens = decode_tokens(result.data, provider.legend)
    local problems = raw_token_problems(bufnr, tokens, 30)
    for _, t in ipairs(tokens) do
      if t.line ~= 30 then
        table.insert(problems, 'token on line ' .. (t.line + 1))
      end
    end
    check(#problems == 0 and #tokens == 4, 'semanticTokens/range of line 31' .. when .. ': its 4 tokens (26.2 1.609344 × =marathon_km)',
      #tokens .. ' tokens; ' .. table.concat(problems, '; '))
  end
  -- The built-in highlighter (0.9+) holds the tokens it will draw.
  if vim.lsp.semantic_tokens and vim.lsp.semantic_tokens.get_at_pos then
    vim.wait(CLIENT_WAIT, function()
      return #ui_token_problems(bufnr) == 0
    end, 20)
    local problems = ui_token_problems(bufnr)
    check(#problems == 0, string.format('built-in semantic tokens%s (vim.lsp.semantic_tokens.get_at_pos): %d positions right',
      when, #semantic_expectations), table.concat(problems, '; '))
    if vim.inspect_pos then
      -- After an edit the highlighter draws nothing until its debounced request (200 ms) is answered.
      vim.wait(CLIENT_WAIT, function()
        return #drawn_token_problems(bufnr) == 0
      end, 50)
      problems = drawn_token_problems(bufnr)
      check(#problems == 0, 'the highlighter draws them' .. when .. ': vim.inspect_pos shows @lsp.type.*.rpn / @lsp.mod.*.rpn over the exact bytes',
        table.concat(problems, '; '))
    end
  else
    out('  skip  built-in semantic tokens: this Neovim has none (raw requests checked above)')
  end
end

-- Renames through the client: vim.lsp.buf.rename(new_name) with the cursor at `at` ({lnum,
-- byte}); returns the notifications shown. Waits for the buffer to change or a message.
local function client_rename(bufnr, at, new_name)
  api.nvim_win_set_cursor(0, at)
  local tick = api.nvim_buf_get_changedtick(bufnr)
  return with_ui(nil, function(messages)
    vim.lsp.buf.rename(new_name)
    vim.wait(CLIENT_WAIT, function()
      return api.nvim_buf_get_changedtick(bufnr) ~= tick or #messages > 0
    end, 10)
    -- A refused rename must stay refused: give a late edit a moment to show up.
    if #messages > 0 then
      vim.wait(100, function()
        return api.nvim_buf_get_changedtick(bufnr) ~= tick
      end, 10)
    end
  end)
end

local function check_rename(bufnr, client, sample_lines, sample_diagnostics)
  -- prepareRename: the name without `=`.
  local result, err = request(bufnr, 'textDocument/prepareRename', position_params(client, 17, 7))
  check(type(result) == 'table' and range_text(result.range) == range_text(token_range(bufnr, 17, 'rent'))
      and result.placeholder == 'rent',
    'textDocument/prepareRename on `=rent`: the name `rent` (without `=`), placeholder "rent"', err or ('got ' .. show(result)))

  local renamed = with_lines(sample_lines, {
    [18] = '1200 =housing',
    [21] = 'housing groceries + phone + =spent',
  })
  local updates = diagnostic_updates
  local messages = client_rename(bufnr, { 21, 2 }, 'housing')
  local problem = lines_diff(buffer_lines(bufnr), renamed)
  check(problem == nil, "vim.lsp.buf.rename('housing') on `rent` (line 21): `=housing` on line 18, `housing` on line 21, nothing else changed",
    (problem or '') .. '; messages: ' .. messages_text(messages))
  local left = {}
  for i, text in ipairs(buffer_lines(bufnr)) do
    if text:find('rent', 1, true) then
      table.insert(left, i)
    end
  end
  check(#left == 0, 'no `rent` is left in the buffer', 'still on lines ' .. table.concat(left, ', '))
  check_diagnostics(bufnr, sample_diagnostics, 'after the rename', updates)
  check_all_hints(bufnr, sample_hints, 'after the rename')

  -- Refused renames: the client shows the server's error and the buffer stays as it is.
  local refusals = {
    { 'dup', '`dup` is a stack operator' },
    { 'pi', '`pi` is a constant' },
    { 'income', '`income` is already a variable' },
    { '2x', '`2x` is not a valid name' },
  }
  for _, refusal in ipairs(refusals) do
    local tick = api.nvim_buf_get_changedtick(bufnr)
    local before = buffer_lines(bufnr)
    messages = client_rename(bufnr, { 18, 8 }, refusal[1])
    local shown
    for _, m in ipairs(messages) do
      if m.msg:find(refusal[2], 1, true) and m.level == vim.log.levels.ERROR then
        shown = m.msg
      end
    end
    check(shown ~= nil and api.nvim_buf_get_changedtick(bufnr) == tick and lines_diff(buffer_lines(bufnr), before) == nil,
      string.format("vim.lsp.buf.rename('%s') is refused: the client shows an error with %s, the buffer is unchanged",
        refusal[1], refusal[2]),
      string.format('messages: %s; buffer %s', messages_text(messages),
        api.nvim_buf_get_changedtick(bufnr) == tick and 'unchanged' or ('changed: ' .. tostring(lines_diff(buffer_lines(bufnr), before)))))
  end

  -- Off a variable: prepareRename says null, the client says there is nothing to rename.
  local tick = api.nvim_buf_get_changedtick(bufnr)
  messages = client_rename(bufnr, { 21, byte_col(bufnr, 20, '+') }, 'x')
  check(#messages > 0 and messages[1].msg:lower():find('nothing to rename', 1, true) ~= nil
      and api.nvim_buf_get_changedtick(bufnr) == tick,
    "vim.lsp.buf.rename('x') on `+`: the client says there is nothing to rename, the buffer is unchanged",
    'messages: ' .. messages_text(messages))

  -- And back: renaming `housing` (from its store) to `rent` gives the sample again.
  messages = client_rename(bufnr, { 18, 7 }, 'rent')
  problem = lines_diff(buffer_lines(bufnr), sample_lines)
  check(problem == nil, "vim.lsp.buf.rename('rent') on `=housing` (line 18) restores the sample exactly",
    (problem or '') .. '; messages: ' .. messages_text(messages))
end

-- Lines check_formatting makes messy (the sample itself is formatted: CI runs `rpn-lsp format
-- --check` on it), and each as formatting must give it back: 1-based line → text. Line 10 gets
-- spaces between its tokens, its comment left at the column it shares with lines 11–13, so it
-- stays lined up with them; lines 42–44 get their comments lined up at a column of their own, and
-- get them back one space after the longest line's tokens; line 65's comment no longer lines up
-- with line 66's, so it keeps one space; line 21's comment is alone.
local messy_lines = {
  [4] = ' \t ',
  [5] = '   # Numbers, in every spelling   ',
  [7] = 'clear  \t',
  [10] = '  2 3    +              # 5',
  [17] = '\t2450 \t  =income  ',
  [18] = '1200   =rent',
  [21] = '  rent  groceries +   phone + =spent   # spent  so far  ',
  [42] = 'depth           # how many values: 8',
  [43] = 'drop  sum       # add them all: 31',
  [44] = '3 4 5 avg       # avg (or mean) of the whole stack',
  [65] = '1 + # stack-underflow: + needs two values',
}
local formatted_lines = {
  [4] = '',
  [5] = '# Numbers, in every spelling',
  [7] = 'clear',
  [10] = '2 3 +                   # 5',
  [17] = '2450 =income',
  [18] = '1200 =rent',
  [21] = 'rent groceries + phone + =spent # spent  so far',
  [42] = 'depth     # how many values: 8',
  [43] = 'drop sum  # add them all: 31',
  [44] = '3 4 5 avg # avg (or mean) of the whole stack',
  [65] = '1 + # stack-underflow: + needs two values',
}

local function format_buffer(what)
  if vim.lsp.buf.format then
    vim.lsp.buf.format({ async = false, timeout_ms = TIMEOUT })
    return what .. ' (vim.lsp.buf.format({ async = false }))'
  end
  vim.lsp.buf.formatting_sync(nil, TIMEOUT)
  return what .. ' (vim.lsp.buf.formatting_sync())'
end

local function check_formatting(bufnr, sample_lines, sample_diagnostics)
  local fileformat = vim.bo[bufnr].fileformat
  for lnum, text in pairs(messy_lines) do
    api.nvim_buf_set_lines(bufnr, lnum - 1, lnum, true, { text })
  end
  local messy = with_lines(sample_lines, messy_lines)

  -- Range formatting of lines 17–18 only.
  local tick = api.nvim_buf_get_changedtick(bufnr)
  local how
  local messages = with_ui(nil, function(messages)
    if vim.lsp.buf.format then
      how = 'vim.lsp.buf.format({ range = lines 17–18 })'
      vim.lsp.buf.format({ async = false, timeout_ms = TIMEOUT, range = { start = { 17, 0 }, ['end'] = { 18, 0 } } })
    else
      how = 'vim.lsp.buf.range_formatting({}, {17, 0}, {18, 0})'
      vim.lsp.buf.range_formatting({}, { 17, 0 }, { 18, 0 })
    end
    vim.wait(CLIENT_WAIT, function()
      return api.nvim_buf_get_changedtick(bufnr) ~= tick or #messages > 0
    end, 10)
    vim.wait(50)
  end)
  local want = with_lines(messy, { [17] = formatted_lines[17], [18] = formatted_lines[18] })
  local problem = lines_diff(buffer_lines(bufnr), want)
  check(problem == nil, how .. ': lines 17 and 18 formatted, the other messy lines left alone',
    (problem or '') .. '; messages: ' .. messages_text(messages))

  -- gq: Neovim 0.8+ sets 'formatexpr' to the LSP one, so `gqq` range-formats the line.
  if vim.bo[bufnr].formatexpr == 'v:lua.vim.lsp.formatexpr()' then
    api.nvim_win_set_cursor(0, { 21, 0 })
    messages = with_ui(nil, function()
      vim.cmd('normal! gqq')
    end)
    want[21] = formatted_lines[21]
    problem = lines_diff(buffer_lines(bufnr), want)
    check(problem == nil, "gqq ('formatexpr' is vim.lsp.formatexpr()) on line 21 formats that line only",
      (problem or '') .. '; messages: ' .. messages_text(messages))
  else
    out("  skip  gq as LSP formatting: 'formatexpr' is " .. show(vim.bo[bufnr].formatexpr) .. ' (Neovim 0.8+ sets it)')
  end

  -- The whole buffer.
  local updates = diagnostic_updates
  local formatted = with_lines(sample_lines, formatted_lines)
  messages = with_ui(nil, function()
    how = format_buffer('formatting')
  end)
  problem = lines_diff(buffer_lines(bufnr), formatted)
  check(problem == nil, how .. ': the exact expected lines (one space between tokens, no leading/trailing whitespace, '
      .. 'a whitespace-only line emptied, comments lined up as they were lined up (lines 10–13, 42–44) '
      .. 'and one space before the others; comment text kept)',
    (problem or '') .. '; messages: ' .. messages_text(messages))
  check(vim.bo[bufnr].fileformat == fileformat, "the buffer's 'fileformat' is unchanged (" .. fileformat .. ')',
    'now ' .. show(vim.bo[bufnr].fileformat))
  local carriage = {}
  for i, text in ipairs(buffer_lines(bufnr)) do
    if text:find('\r', 1, true) then
      table.insert(carriage, i)
    end
  end
  check(#carriage == 0, 'no line gained a carriage return', 'lines ' .. table.concat(carriage, ', '))

  -- Formatting again changes nothing (the server answers no edits).
  tick = api.nvim_buf_get_changedtick(bufnr)
  messages = with_ui(nil, function()
    how = format_buffer('formatting again')
  end)
  check(api.nvim_buf_get_changedtick(bufnr) == tick and lines_diff(buffer_lines(bufnr), formatted) == nil,
    how .. ' changes nothing', 'the buffer changed: ' .. tostring(lines_diff(buffer_lines(bufnr), formatted))
      .. '; messages: ' .. messages_text(messages))
  local result, err = request(bufnr, 'textDocument/formatting', {
    textDocument = { uri = vim.uri_from_bufnr(bufnr) },
    options = { tabSize = 8, insertSpaces = true },
  })
  check(type(result) == 'table' and #result == 0, 'textDocument/formatting of the formatted buffer answers no edits',
    err or ('got ' .. show(result)))

  -- Nothing the stack shows moved: same diagnostics, same labels (after each line's new end).
  check_diagnostics(bufnr, sample_diagnostics, 'after formatting', updates)
  check_all_hints(bufnr, sample_hints, 'after formatting')

  -- Written to disk: LF line endings, as the sample has.
  vim.cmd('silent write')
  local file = io.open(api.nvim_buf_get_name(bufnr), 'rb')
  local bytes = file and file:read('*a')
  if file then
    file:close()
  end
  check(bytes == table.concat(formatted, '\n') .. '\n', 'the written file is the formatted text with LF line endings',
    bytes and ('got ' .. #bytes .. ' bytes, ' .. select(2, bytes:gsub('\r', '')) .. ' carriage returns') or 'unreadable')
  return formatted
end

local function check_quick_fix(bufnr, client, lines, sample_diagnostics)
  -- Raw: the quick fix for the sample's `swpa`.
  local swpa = token_range(bufnr, 65, 'swpa')
  local uri = vim.uri_from_bufnr(bufnr)
  local result, err = request(bufnr, 'textDocument/codeAction', {
    textDocument = { uri = uri },
    range = swpa,
    context = { diagnostics = {} },
  })
  -- Other kinds come too (the line's result written as a check, source actions): the quick fixes.
  local fixes = {}
  for _, a in ipairs(type(result) == 'table' and result or {}) do
    if a.kind == 'quickfix' then
      table.insert(fixes, a)
    end
  end
  local action = fixes[1]
  local edits = action and action.edit and action.edit.changes and action.edit.changes[uri]
  check(#fixes == 1 and action.title == 'Replace `swpa` with `swap`'
      and type(edits) == 'table' and #edits == 1 and edits[1].newText == 'swap' and range_text(edits[1].range) == range_text(swpa),
    'textDocument/codeAction on `swpa`: one quickfix "Replace `swpa` with `swap`", an edit of that word',
    err or ('got ' .. show(result)))

  -- Through the client: vim.lsp.buf.code_action() offers it in its menu (vim.ui.select, answered
  -- here) and applies the chosen edit.
  local offered = {}
  api.nvim_win_set_cursor(0, { 66, byte_col(bufnr, 65, 'swpa') + 1 })
  local tick = api.nvim_buf_get_changedtick(bufnr)
  local updates = diagnostic_updates
  local messages = with_ui(function(items, _, on_choice)
    local pick, index
    for i, item in ipairs(items) do
      local a = item.action or item[2] or {}
      table.insert(offered, a.title)
      if a.title == 'Replace `swpa` with `swap`' then
        pick, index = item, i
      end
    end
    on_choice(pick, index)
  end, function(messages)
    vim.lsp.buf.code_action()
    vim.wait(CLIENT_WAIT, function()
      return api.nvim_buf_get_changedtick(bufnr) ~= tick or #messages > 0
    end, 10)
  end)
  local fixed = with_lines(lines, { [66] = '4 5 swap # unknown-word: did you mean `swap`?' })
  local problem = lines_diff(buffer_lines(bufnr), fixed)
  check(problem == nil, 'vim.lsp.buf.code_action() on `swpa` offers "Replace `swpa` with `swap`" and applying it fixes line 66',
    string.format('%s; offered %s; messages: %s', problem or 'buffer right', show(offered), messages_text(messages)))
  check_diagnostics(bufnr, { sample_diagnostics[1] }, 'after the quick fix', updates)
  local hints = vim.deepcopy(sample_hints)
  hints[66] = '[1 5 4]'
  check_all_hints(bufnr, hints, 'after the quick fix')
end

-- Runs the code action titled `title` through the client, at the cursor: vim.lsp.buf.code_action()
-- with `apply = true` and a filter (for `kind` and `title`) on 0.8+; on 0.7, which has neither,
-- its menu answered here. `only` goes in the request's context. Waits for the buffer to change.
-- Returns how it ran, the titles offered, and the messages shown.
local function client_code_action(bufnr, title, kind, only)
  local tick = api.nvim_buf_get_changedtick(bufnr)
  local offered = {}
  local function wait(msgs)
    vim.wait(CLIENT_WAIT, function()
      return api.nvim_buf_get_changedtick(bufnr) ~= tick or #msgs > 0
    end, 10)
  end
  if vim.fn.has('nvim-0.8') == 1 then
    local messages = with_ui(nil, function(msgs)
      vim.lsp.buf.code_action({
        context = only and { only = only } or nil,
        apply = true,
        filter = function(a)
          table.insert(offered, a.title)
          return (kind == nil or a.kind == kind) and a.title == title
        end,
      })
      wait(msgs)
    end)
    return 'vim.lsp.buf.code_action({ apply = true, filter })', offered, messages
  end
  local messages = with_ui(function(items, _, on_choice)
    local pick, index
    for i, item in ipairs(items) do
      local a = item.action or item[2] or {}
      table.insert(offered, a.title)
      if a.title == title and (kind == nil or a.kind == kind) then
        pick, index = item, i
      end
    end
    on_choice(pick, index)
  end, function(msgs)
    vim.lsp.buf.code_action(only and { only = only } or nil)
    wait(msgs)
  end)
  return "vim.lsp.buf.code_action()'s menu", offered, messages
end

-- A failing check in a buffer of its own (`1 3 / =0.334`): its check-failed diagnostic, its
-- hint's tooltip, the quick fix asked raw, then through the client (client_code_action): the
-- buffer becomes `1 3 / =0.333` and the diagnostic goes. Then "Remove every check", a source
-- action whose edit the client resolves: `1 3 /`.
local function check_failing_check_fix(sample_bufnr)
  vim.fn.writefile({ '1 3 / =0.334' }, 'check.rpn')
  vim.cmd('edit check.rpn')
  local bufnr = api.nvim_get_current_buf()
  local attached = vim.wait(TIMEOUT, function()
    local client = clients_of(bufnr)[1]
    return client ~= nil and client.initialized == true
  end, 20)
  if not check(attached, 'rpn-lsp attaches to a second .rpn buffer (check.rpn)', 'no rpn_lsp client on it') then
    vim.cmd('buffer ' .. sample_bufnr)
    return
  end
  local WARN = vim.diagnostic.severity.WARN
  check_diagnostics(bufnr, { { lnum = 0, col = 6, end_col = 12, code = 'check-failed', severity = WARN,
    message_has = 'expected 0.334, the top is 0.333333333333333 (0.333 to 3 decimals)' } }, 'a failing check')
  local hints, herr = raw_hints(bufnr)
  local hint = type(hints) == 'table' and hints[1] or {}
  -- Neovim 0.10+ says it resolves a hint's tooltip and edits: the server leaves them out and
  -- sends data, and inlayHint/resolve gives them, as `:h vim.lsp.inlay_hint.get()` does it.
  -- (Neovim 0.7 resolves nothing: its hint comes whole.)
  if hint.data ~= nil then
    check(hint.tooltip == nil and hint.textEdits == nil,
      'a client that resolves hints gets the tooltip and the check on inlayHint/resolve, not before', show(hint))
    local resolved, rerr = request(bufnr, 'inlayHint/resolve', hint)
    hint, herr = resolved or {}, herr or rerr
  end
  check(type(hints) == 'table' and #hints == 1 and hint_label(hint) == '[0.333333333333333]'
      and hint.tooltip == '1: 0.333333333333333' and hint.textEdits == nil,
    'the hint of a line with a check: label, tooltip "1: 0.333333333333333", no check to write', herr or show(hints))

  local uri = vim.uri_from_bufnr(bufnr)
  local check_range = lsp_range(bufnr, 0, 6, 12)
  local result, err = request(bufnr, 'textDocument/codeAction', {
    textDocument = { uri = uri },
    range = check_range,
    context = { diagnostics = {}, only = { 'quickfix' } },
  })
  local action = type(result) == 'table' and result[1] or {}
  local edits = action.edit and action.edit.changes and action.edit.changes[uri]
  check(type(result) == 'table' and #result == 1 and action.title == 'Update the check to =0.333'
      and action.kind == 'quickfix' and action.isPreferred == true and type(edits) == 'table' and #edits == 1
      and edits[1].newText == '=0.333' and range_text(edits[1].range) == range_text(check_range),
    'textDocument/codeAction on `=0.334`: one preferred quickfix "Update the check to =0.333" replacing the check',
    err or ('got ' .. show(result)))

  api.nvim_win_set_cursor(0, { 1, 8 })
  local updates = diagnostic_updates
  local through, offered, messages = client_code_action(bufnr, 'Update the check to =0.333', 'quickfix')
  local problem = lines_diff(buffer_lines(bufnr), { '1 3 / =0.333' })
  check(problem == nil, through .. ' on `=0.334` applies "Update the check to =0.333": the buffer is `1 3 / =0.333`',
    string.format('%s; offered %s; messages: %s', problem or 'buffer right', show(offered), messages_text(messages)))
  check_diagnostics(bufnr, {}, 'after updating the check', updates)

  -- A source action, whose edit the client resolves (codeAction/resolve) when it runs it.
  through, offered, messages = client_code_action(bufnr, 'Remove every check', nil, { 'source' })
  problem = lines_diff(buffer_lines(bufnr), { '1 3 /' })
  check(problem == nil, through .. ' asked for `source` actions runs "Remove every check" (its edit resolved): `1 3 /`',
    string.format('%s; offered %s; messages: %s', problem or 'buffer right', show(offered), messages_text(messages)))

  -- Accepting the line's hint as `:h vim.lsp.inlay_hint.get()` shows (resolve it where the client
  -- resolves, then apply its textEdits) writes the line's result as a check.
  local accepted, aerr = raw_hints(bufnr)
  local line_hint = type(accepted) == 'table' and accepted[1] or {}
  if line_hint.data ~= nil then
    local resolved, rerr = request(bufnr, 'inlayHint/resolve', line_hint)
    line_hint, aerr = resolved or {}, aerr or rerr
  end
  local client = clients_of(bufnr)[1]
  if type(line_hint.textEdits) == 'table' and client then
    vim.lsp.util.apply_text_edits(line_hint.textEdits, bufnr, client.offset_encoding)
  end
  problem = lines_diff(buffer_lines(bufnr), { '1 3 / =0.333333333333333' })
  check(problem == nil, 'accepting the hint of `1 3 /` (its edit resolved, then applied) writes `1 3 / =0.333333333333333`',
    string.format('%s; hint %s', problem or aerr or 'buffer right', show(line_hint)))
  vim.cmd('silent! write')
  vim.cmd('buffer ' .. sample_bufnr)
end

-- A defined word in a buffer of its own (words.rpn): no diagnostics; hover on its definition's
-- name and on a use says its effect `( a b -- r )` and that it is defined on line 1; the inlay
-- hints hold its effect right after the `;` besides each line's stack; definition from a use
-- is the name after `:`; and vim.lsp.buf.rename() renames the word at its definition and every
-- use, then back.
local words_lines = { ': hyp sq swap sq + sqrt ;', '3 4 hyp', '6 8 hyp # 10' }
local words_hints = { [1] = { stack = '[]', effect = '( a b -- r )' }, [2] = '[5]', [3] = '[5 10]' }

local function check_words(sample_bufnr)
  vim.fn.writefile(words_lines, 'words.rpn')
  vim.cmd('edit words.rpn')
  local bufnr = api.nvim_get_current_buf()
  local client
  local attached = vim.wait(TIMEOUT, function()
    client = clients_of(bufnr)[1]
    return client ~= nil and client.initialized == true
  end, 20)
  if not check(attached, 'rpn-lsp attaches to a buffer that defines a word (words.rpn)', 'no rpn_lsp client on it') then
    vim.cmd('buffer ' .. sample_bufnr)
    return
  end
  check_diagnostics(bufnr, {}, 'a defined word and its uses')

  -- Hover: on the definition's name, and on a use after the cursor moved off the token's start.
  local name = byte_col(bufnr, 0, 'hyp')
  hover_at(bufnr, client, 0, name + 1, 'hover on the name `hyp` after `:` (line 1)', {
    contains = { 'hyp', '( a b -- r )', 'line 1' }, token_start = name, token_end = name + 3,
  })
  local use = byte_col(bufnr, 1, 'hyp')
  hover_at(bufnr, client, 1, use + 3, 'hover on a use of `hyp` (line 2), the cursor right after it', {
    contains = { 'hyp', '( a b -- r )', 'line 1' }, token_start = use, token_end = use + 3,
  })

  -- The effect hint, right after `;`, with every line's stack hint (the built-in UI too, 0.10+).
  check_all_hints(bufnr, words_hints, 'in words.rpn (the effect `( a b -- r )` after `;`)')

  -- Go to definition from a use: the name after `:`.
  local result, err = request(bufnr, 'textDocument/definition', position_params(client, 2, byte_col(bufnr, 2, 'hyp') + 1))
  local problem = err or location_problems(bufnr, result, { token_range(bufnr, 0, 'hyp') })
  check(problem == nil, 'textDocument/definition on a use of `hyp` (line 3) is the name `hyp` after `:` on line 1', problem)

  -- Rename through the client, from a use; then back, from the definition's name.
  result, err = request(bufnr, 'textDocument/prepareRename', position_params(client, 0, name + 1))
  check(type(result) == 'table' and range_text(result.range) == range_text(token_range(bufnr, 0, 'hyp'))
      and result.placeholder == 'hyp',
    'textDocument/prepareRename on the name after `:`: the name `hyp`, placeholder "hyp"', err or ('got ' .. show(result)))
  local updates = diagnostic_updates
  local messages = client_rename(bufnr, { 2, use + 1 }, 'hypot')
  problem = lines_diff(buffer_lines(bufnr), { ': hypot sq swap sq + sqrt ;', '3 4 hypot', '6 8 hypot # 10' })
  check(problem == nil, "vim.lsp.buf.rename('hypot') on a use of `hyp`: the definition's name and both uses change, nothing else",
    (problem or '') .. '; messages: ' .. messages_text(messages))
  check_diagnostics(bufnr, {}, 'after renaming the word', updates)
  messages = client_rename(bufnr, { 1, name + 1 }, 'hyp')
  problem = lines_diff(buffer_lines(bufnr), words_lines)
  check(problem == nil, "vim.lsp.buf.rename('hyp') on the definition's name `hypot` restores words.rpn exactly",
    (problem or '') .. '; messages: ' .. messages_text(messages))
  check_all_hints(bufnr, words_hints, 'in words.rpn after renaming the word and back')
  vim.cmd('silent! write')
  vim.cmd('buffer ' .. sample_bufnr)
end

-- Numbers in the spellings beyond plain decimals, in a buffer of their own (numbers.rpn): thousands
-- grouped with commas and integers in hex, octal and binary, alone and as checks (which pass);
-- then two written wrongly; then times and angles in fields of sixty: a number, a check of it, a
-- time in minutes (its fields a `number`, its unit after the `_` a `type`), a format `>h:mm` (a
-- `type`, as a unit word), and one written wrongly. Neovim colours .rpn only through the
-- server's semantic tokens.
local numbers_lines = { '1,234.50 =1,234.50', '0xFF =255 =0xFF', '−0b1010 0o17 0X1f 1_2,345', '1,5 0xG',
  '1:30 =1:30 4:35_min >h:mm =0:05 1:75' }
local numbers_expectations = {
  { 0, '1,234.50', 1, 'number', '' },
  { 0, '=', 1, 'operator', '' },
  { 0, '1,234.50', 2, 'number', '' },
  { 1, '0xFF', 1, 'number', '' },
  { 1, '=', 2, 'operator', '' },
  { 1, '0xFF', 2, 'number', '' },
  { 2, '−0b1010', 1, 'number', '' },
  { 2, '0o17', 1, 'number', '' },
  { 2, '0X1f', 1, 'number', '' },
  { 2, '1_2,345', 1, 'number', '' },
  { 4, '1:30', 1, 'number', '' },
  { 4, '=', 1, 'operator', '' },
  { 4, '1:30', 2, 'number', '' },
  { 4, '4:35', 1, 'number', '' },
  { 4, 'min', 1, 'type', 'defaultLibrary' },
  { 4, '>h:mm', 1, 'type', 'defaultLibrary' },
  { 4, '=', 2, 'operator', '' },
  { 4, '0:05', 1, 'number', '' },
}

local function check_numbers(sample_bufnr, client)
  vim.fn.writefile(numbers_lines, 'numbers.rpn')
  vim.cmd('edit numbers.rpn')
  local bufnr = api.nvim_get_current_buf()
  local attached = vim.wait(TIMEOUT, function()
    return clients_of(bufnr)[1] ~= nil
  end, 20)
  if not check(attached, 'rpn-lsp attaches to a buffer of grouped and hex numbers (numbers.rpn)', 'no rpn_lsp client on it') then
    vim.cmd('buffer ' .. sample_bufnr)
    return
  end
  local ERROR = vim.diagnostic.severity.ERROR
  check_diagnostics(bufnr, {
    { lnum = 3, col = 0, end_col = 3, code = 'invalid-number', severity = ERROR },
    { lnum = 3, col = 4, end_col = 7, code = 'invalid-number', severity = ERROR },
    { lnum = 4, col = 32, end_col = 36, code = 'invalid-number', severity = ERROR },
  }, 'numbers.rpn: 1,234.50, 0xFF, −0b1010, 1:30, 4:35_min and their checks are numbers; 1,5, 0xG and 1:75 are not')
  local legend = client.server_capabilities.semanticTokensProvider
  legend = type(legend) == 'table' and legend.legend
  local result, err = request(bufnr, 'textDocument/semanticTokens/full', { textDocument = { uri = vim.uri_from_bufnr(bufnr) } })
  if check(legend and result ~= nil and type(result.data) == 'table', 'numbers.rpn: textDocument/semanticTokens/full answered',
      err or show(result)) then
    local problems = raw_token_problems(bufnr, decode_tokens(result.data, legend), nil, numbers_expectations)
    check(#problems == 0, string.format('numbers.rpn: grouped, hex, octal and binary numbers and times are `number` tokens, a check\'s `=` an `operator`, a time\'s unit and a format a `type` (%d tokens, %s positions)',
      #numbers_expectations, expected_encoding), table.concat(problems, '; '))
  end
  if vim.lsp.semantic_tokens and vim.lsp.semantic_tokens.get_at_pos and vim.inspect_pos then
    vim.wait(CLIENT_WAIT, function()
      return #drawn_token_problems(bufnr, numbers_expectations) == 0
    end, 50)
    local problems = drawn_token_problems(bufnr, numbers_expectations)
    check(#problems == 0, 'numbers.rpn: the highlighter draws them as @lsp.type.number.rpn (the `=` as @lsp.type.operator.rpn, a time\'s unit and a format as @lsp.type.type.rpn)',
      table.concat(problems, '; '))
  end
  vim.cmd('buffer ' .. sample_bufnr)
  vim.cmd('bwipeout! ' .. bufnr)
end

-- Units, in a buffer of their own (units.rpn): what a person gets in the buffer from the
-- server's unit completion, its "Convert to …" action and its unit-mismatch quick fix. Each line
-- with a quantity comes after `√` (non-ASCII: UTF-8 and UTF-16 columns differ). `clear` keeps
-- the lines' stacks apart.
local units_lines = { '2 √ 26.2_mi 3', 'clear', '5_km _mi', 'clear', '2 √ 26.2_mi >k' }

local function check_units(sample_bufnr)
  vim.fn.writefile(units_lines, 'units.rpn')
  vim.cmd('edit units.rpn')
  local bufnr = api.nvim_get_current_buf()
  local client
  local attached = vim.wait(TIMEOUT, function()
    client = clients_of(bufnr)[1]
    return client ~= nil and client.initialized == true
  end, 20)
  if not check(attached, 'rpn-lsp attaches to a buffer of quantities (units.rpn)', 'no rpn_lsp client on it') then
    vim.cmd('buffer ' .. sample_bufnr)
    return
  end
  local WARN, ERROR = vim.diagnostic.severity.WARN, vim.diagnostic.severity.ERROR
  local mismatch = { lnum = 2, col = 5, end_col = 8, code = 'unit-mismatch', severity = WARN, message_has = '`>mi`' }
  local typed_k = byte_col(bufnr, 4, '>k')
  check_diagnostics(bufnr, {
    mismatch,
    { lnum = 4, col = typed_k, end_col = typed_k + 2, code = 'unknown-unit', severity = ERROR, message_has = '`>k`' },
  }, 'units.rpn: `_mi` on 5 km (a unit already), and `>k` half typed')
  local hints = {
    [1] = '[1.4142135623731 26.2_mi 3]',
    [2] = '[]',
    [3] = '[5_km]',
    [4] = '[]',
    [5] = '[1.4142135623731 26.2_mi]',
  }
  check_all_hints(bufnr, hints, 'in units.rpn')

  -- Completion after `>k` (line 5): units only (kind Unit), km first, its edit replacing just the
  -- `k` typed (in the negotiated encoding, after `√`). Accepting it, as vim.lsp.completion does
  -- (the item's textEdit applied in the client's encoding), leaves `>km`.
  -- (The position is built here: in normal mode the cursor cannot sit after a line's last byte.)
  local line5 = line_text(bufnr, 4)
  local result, err = request(bufnr, 'textDocument/completion', {
    textDocument = { uri = vim.uri_from_bufnr(bufnr) },
    position = { line = 4, character = units(line5, #line5, expected_encoding) },
  })
  local items = type(result) == 'table' and (result.items or result) or {}
  local not_units = {}
  for _, item in ipairs(items) do
    if item.kind ~= 11 then
      table.insert(not_units, item.label)
    end
  end
  local km = items[1] or {}
  local k_range = lsp_range(bufnr, 4, typed_k + 1, typed_k + 2)
  check(#items > 0 and #not_units == 0 and km.label == 'km' and km.filterText == 'km' and type(km.textEdit) == 'table'
      and km.textEdit.newText == 'km' and range_text(km.textEdit.range) == range_text(k_range),
    string.format('completion after `26.2_mi >k` (line 5): units only (kind 11), `km` first, filterText "km", its edit replacing the `k` (%s, %s)',
      range_text(k_range), expected_encoding),
    err or string.format('not units: %s; first item %s', show(not_units), show(km)))
  local updates = diagnostic_updates
  if type(km.textEdit) == 'table' then
    vim.lsp.util.apply_text_edits({ km.textEdit }, bufnr, client.offset_encoding)
  end
  local lines = with_lines(units_lines, { [5] = '2 √ 26.2_mi >km' })
  local problem = lines_diff(buffer_lines(bufnr), lines)
  check(problem == nil, 'accepting `km` (its textEdit applied in ' .. client.offset_encoding .. ') makes line 5 `2 √ 26.2_mi >km`',
    problem)
  check_diagnostics(bufnr, { mismatch }, 'after completing `>km`', updates)
  hints[5] = '[1.4142135623731 42.1648128_km]'
  check_all_hints(bufnr, hints, 'after completing `>km` (26.2 mi in km)')

  -- "Convert to km (kilometre)" on `26.2_mi` (line 1), through the client: ` >km` right after it.
  api.nvim_win_set_cursor(0, { 1, byte_col(bufnr, 0, '26.2_mi') + 2 })
  updates = diagnostic_updates
  local through, offered, messages = client_code_action(bufnr, 'Convert to km (kilometre)', 'refactor.rewrite')
  local conversions = {}
  for _, title in ipairs(offered) do
    if title:find('^Convert to ') then
      table.insert(conversions, title)
    end
  end
  lines[1] = '2 √ 26.2_mi >km 3'
  problem = lines_diff(buffer_lines(bufnr), lines)
  check(problem == nil and #conversions <= 8,
    through .. ' on `26.2_mi` (line 1) applies "Convert to km (kilometre)" (of at most 8 conversions): `2 √ 26.2_mi >km 3`',
    string.format('%s; offered %s; messages: %s', problem or 'buffer right', show(offered), messages_text(messages)))
  hints[1] = '[1.4142135623731 42.1648128_km 3]'
  check_all_hints(bufnr, hints, 'after "Convert to km"')

  -- The unit-mismatch quick fix on `5_km _mi` (line 3), through the client: `_` becomes `>`.
  api.nvim_win_set_cursor(0, { 3, byte_col(bufnr, 2, '_mi') + 1 })
  updates = diagnostic_updates
  through, offered, messages = client_code_action(bufnr, 'Convert with `>mi`', 'quickfix')
  lines[3] = '5_km >mi'
  problem = lines_diff(buffer_lines(bufnr), lines)
  check(problem == nil, through .. ' on `_mi` of `5_km _mi` (line 3) applies "Convert with `>mi`": `5_km >mi`',
    string.format('%s; offered %s; messages: %s', problem or 'buffer right', show(offered), messages_text(messages)))
  check_diagnostics(bufnr, {}, 'after the unit-mismatch quick fix', updates)
  hints[3] = '[3.10685596118667_mi]'
  check_all_hints(bufnr, hints, 'after "Convert with `>mi`" (5 km in mi)')
  vim.cmd('silent! write')
  vim.cmd('buffer ' .. sample_bufnr)
end

-- Whether the server puts sections' summaries in inlay hints: a config that shows them as code
-- lenses turns those hints off (inlayHints.sections false in its init_options).
local function section_hints_on(client)
  local options = client.config.init_options or {}
  local hints = type(options.rpn) == 'table' and options.rpn.inlayHints or options.inlayHints
  return type(hints) ~= 'table' or hints.sections ~= false
end

-- Sections in a buffer of their own (sections.rpn): three comment lines, then two sections. The
-- first line mentions `##` after `#`: a comment, no heading.
local sections_lines = {
  '# A tape in sections: each ## heading starts one,',
  '# which runs to the next; the heading shows its sum,',
  '# and subtotal adds up what the section pushed.',
  '## Groceries',
  '12.5',
  '8',
  '## Rent',
  '900 45.50',
  'subtotal',
}
-- 1-based heading line → its section's summary.
local sections_summaries = { [4] = 'Σ 20.5 · 2 values · avg 10.25', [7] = 'Σ 945.5 · 1 value · avg 945.5' }

-- Code lenses as text: "LINE: title" (1-based), in line order; and the problems of their ranges
-- (a heading's line from its first `#` to its end) and commands (a title and an empty command).
local function lens_text(bufnr, lenses)
  local rows, problems = {}, {}
  table.sort(lenses, function(a, b)
    return a.range.start.line < b.range.start.line
  end)
  for _, lens in ipairs(lenses) do
    local line = lens.range.start.line
    local title = lens.command and lens.command.title
    table.insert(rows, string.format('%d: %s', line + 1, tostring(title)))
    local text = line_text(bufnr, line)
    local want = lsp_range(bufnr, line, (text:find('#', 1, true) or 1) - 1, #text)
    if range_text(lens.range) ~= range_text(want) then
      table.insert(problems, string.format('line %d: range %s, want %s', line + 1, range_text(lens.range),
        range_text(want)))
    end
    if not lens.command or lens.command.command ~= '' then
      table.insert(problems, string.format('line %d: command %s, want a title and command ""', line + 1,
        show(lens.command)))
    end
  end
  return table.concat(rows, ', '), problems
end

local function summaries_text(summaries)
  local rows = {}
  for _, line in ipairs(vim.tbl_keys(summaries)) do
    table.insert(rows, line)
  end
  table.sort(rows)
  for i, line in ipairs(rows) do
    rows[i] = string.format('%d: %s', line, summaries[line])
  end
  return table.concat(rows, ', ')
end

local function lsp_log_has(needle)
  local path = vim.lsp.get_log_path()
  if vim.fn.filereadable(path) == 0 then
    return false
  end
  for _, line in ipairs(vim.fn.readfile(path)) do
    if line:find(needle, 1, true) then
      return true
    end
  end
  return false
end

local function check_sections(sample_bufnr, client)
  vim.fn.writefile(sections_lines, 'sections.rpn')
  vim.cmd('edit sections.rpn')
  local bufnr = api.nvim_get_current_buf()
  local attached = vim.wait(TIMEOUT, function()
    local c = clients_of(bufnr)[1]
    return c ~= nil and c.initialized == true
  end, 20)
  if not check(attached, 'rpn-lsp attaches to a buffer in sections (sections.rpn)', 'no rpn_lsp client on it') then
    vim.cmd('buffer ' .. sample_bufnr)
    return
  end
  local uri = vim.uri_from_bufnr(bufnr)
  check_diagnostics(bufnr, {}, 'a tape in sections')
  local caps = client.server_capabilities

  -- Each heading's summary: an inlay hint at the heading's end, unless the config shows lenses.
  local hints = { [5] = '[12.5]', [6] = '[12.5 8]', [8] = '[12.5 8 900 45.5]', [9] = '[12.5 8 945.5]' }
  if section_hints_on(client) then
    for line, summary in pairs(sections_summaries) do
      hints[line] = { section = summary }
    end
  end
  check_all_hints(bufnr, hints, 'in sections.rpn' .. (section_hints_on(client) and ' (a summary at each heading)'
    or ' (none on the headings: inlayHints.sections is off while lenses show the summaries)'))

  -- Code lenses: raw, then what vim.lsp.codelens holds when the config shows them.
  local want = summaries_text(sections_summaries)
  if check(caps.codeLensProvider ~= nil, 'server advertises code lenses', 'codeLensProvider is ' .. show(caps.codeLensProvider)) then
    local result, err = request(bufnr, 'textDocument/codeLens', { textDocument = { uri = uri } })
    local got, problems = lens_text(bufnr, type(result) == 'table' and result or {})
    check(got == want and #problems == 0,
      'textDocument/codeLens: one lens per heading, its summary as the title (' .. want .. '), over the heading',
      err or ('got [' .. got .. '] ' .. table.concat(problems, '; ')))
  end
  if want_lenses then
    vim.wait(TIMEOUT, function()
      return (lens_text(bufnr, vim.lsp.codelens.get(bufnr))) == want
    end, 20)
    local got = lens_text(bufnr, vim.lsp.codelens.get(bufnr))
    check(got == want, 'the config shows the lenses: vim.lsp.codelens.get() holds ' .. want, 'got [' .. got .. ']')

    -- An edit that changes a summary: `8` becomes `18`; the lens follows, then the undo.
    api.nvim_buf_set_text(bufnr, 5, 0, 5, 0, { '1' })
    local edited = vim.deepcopy(sections_summaries)
    edited[4] = 'Σ 30.5 · 2 values · avg 15.25'
    local want_edited = summaries_text(edited)
    vim.wait(CLIENT_WAIT, function()
      return (lens_text(bufnr, vim.lsp.codelens.get(bufnr))) == want_edited
    end, 20)
    got = lens_text(bufnr, vim.lsp.codelens.get(bufnr))
    check(got == want_edited, 'after `8` became `18` the lenses follow: ' .. want_edited, 'got [' .. got .. ']')
    check(lsp_log_has('workspace/codeLens/refresh'),
      'the server asked for fresh lenses (workspace/codeLens/refresh in lsp.log: the config declares refreshSupport)',
      'no workspace/codeLens/refresh in ' .. vim.lsp.get_log_path())
    api.nvim_buf_set_text(bufnr, 5, 0, 5, 1, { '' })
    vim.wait(CLIENT_WAIT, function()
      return (lens_text(bufnr, vim.lsp.codelens.get(bufnr))) == want
    end, 20)
    got = lens_text(bufnr, vim.lsp.codelens.get(bufnr))
    check(got == want, 'and back: ' .. want, 'got [' .. got .. ']')
  end

  -- Folding ranges: the comment lines, and each section from its heading to its last line.
  local want_folds_text = '0-2 comment, 3-5 region, 6-8 region'
  if check(caps.foldingRangeProvider ~= nil, 'server advertises folding ranges',
      'foldingRangeProvider is ' .. show(caps.foldingRangeProvider)) then
    local result, err = request(bufnr, 'textDocument/foldingRange', { textDocument = { uri = uri } })
    local rows = {}
    for _, r in ipairs(type(result) == 'table' and result or {}) do
      table.insert(rows, string.format('%d-%d %s', r.startLine, r.endLine, tostring(r.kind)))
    end
    table.sort(rows)
    local got = table.concat(rows, ', ')
    check(got == want_folds_text, 'textDocument/foldingRange (0-based lines): ' .. want_folds_text, err or ('got ' .. got))
  end
  if want_folds then
    local win = api.nvim_get_current_win()
    check(vim.wo[win].foldmethod == 'expr' and vim.wo[win].foldexpr == 'v:lua.vim.lsp.foldexpr()',
      "the config folds with the server's ranges: foldmethod=expr, foldexpr=v:lua.vim.lsp.foldexpr()",
      string.format('foldmethod=%s foldexpr=%s', vim.wo[win].foldmethod, vim.wo[win].foldexpr))
    vim.wait(TIMEOUT, function()
      return vim.fn.foldlevel(5) > 0 and vim.fn.foldlevel(8) > 0
    end, 20)
    local levels, closed = {}, {}
    for lnum = 1, #sections_lines do
      table.insert(levels, vim.fn.foldlevel(lnum))
      if vim.fn.foldclosed(lnum) ~= -1 then
        table.insert(closed, lnum)
      end
    end
    check(table.concat(levels, ' ') == '1 1 1 1 1 1 1 1 1' and #closed == 0,
      'vim.lsp.foldexpr(): every line is in a fold, and none is closed when the tape opens (foldlevel ' ..
        vim.wo[win].foldlevel .. ')',
      'fold levels ' .. table.concat(levels, ' ') .. '; closed lines ' .. table.concat(closed, ' '))
    local spans = {}
    for _, lnum in ipairs({ 2, 5, 9 }) do
      local closes, problem = pcall(vim.cmd, lnum .. 'foldclose')
      table.insert(spans, closes and string.format('%d-%d', vim.fn.foldclosed(lnum), vim.fn.foldclosedend(lnum))
        or tostring(problem):match('E%d+:.*') or tostring(problem))
      pcall(vim.cmd, lnum .. 'foldopen')
    end
    check(table.concat(spans, ' ') == '1-3 4-6 7-9',
      ':foldclose on lines 2, 5 and 9 closes the comment lines 1-3 and the sections 4-6 and 7-9 (1-based)',
      'closed ' .. table.concat(spans, ' '))
  end

  -- A selection range from `45.50`: the token, its line's tokens, the section, the whole tape.
  if check(caps.selectionRangeProvider ~= nil, 'server advertises selection ranges',
      'selectionRangeProvider is ' .. show(caps.selectionRangeProvider)) then
    local at = byte_col(bufnr, 7, '45.50')
    local result, err = request(bufnr, 'textDocument/selectionRange', {
      textDocument = { uri = uri },
      positions = { { line = 7, character = units(line_text(bufnr, 7), at + 1, expected_encoding) } },
    })
    local chain, node = {}, type(result) == 'table' and result[1] or nil
    while type(node) == 'table' do
      table.insert(chain, range_text(node.range))
      node = node.parent
    end
    local got = table.concat(chain, ' < ')
    local ok = #chain == 4 and chain[1] == '7:4-7:9' and chain[2] == '7:0-7:9' and chain[3] == '6:0-8:8'
      and (chain[4] == '0:0-8:8' or chain[4] == '0:0-9:0')
    check(ok, 'textDocument/selectionRange in `45.50`: the token 7:4-7:9, its line 7:0-7:9, the section 6:0-8:8, the tape',
      err or ('got ' .. got))
  end

  -- workspace/symbol across the open tapes: `rnt` is a subsequence of `rent` and `Rent` only.
  if check(caps.workspaceSymbolProvider ~= nil, 'server advertises workspace symbols',
      'workspaceSymbolProvider is ' .. show(caps.workspaceSymbolProvider)) then
    local result, err = request(bufnr, 'workspace/symbol', { query = 'rnt' })
    local rows = {}
    for _, symbol in ipairs(type(result) == 'table' and result or {}) do
      local file = symbol.location and symbol.location.uri and vim.fn.fnamemodify(vim.uri_to_fname(symbol.location.uri), ':t')
      table.insert(rows, symbol.name .. ' in ' .. tostring(file))
    end
    table.sort(rows)
    local got = table.concat(rows, ', ')
    local want_symbols = 'Rent in sample.rpn, Rent in sections.rpn, rent in sample.rpn'
    check(got == want_symbols, 'workspace/symbol `rnt` (case-insensitive subsequence, every open tape): ' .. want_symbols,
      err or ('got ' .. got))
  end
  vim.cmd('silent! write')
  vim.cmd('buffer ' .. sample_bufnr)
end

local function run()
  local version = vim.version()
  out(string.format('%s (nvim %d.%d.%d)', label, version.major, version.minor, version.patch))
  local bufnr = api.nvim_get_current_buf()
  local name = api.nvim_buf_get_name(bufnr)
  if not check(name:match('%.rpn$') ~= nil, 'the .rpn copy is the current buffer', show(name)) then
    return
  end
  local sample_lines = buffer_lines(bufnr)
  api.nvim_create_autocmd('DiagnosticChanged', {
    callback = function()
      diagnostic_updates = diagnostic_updates + 1
    end,
  })
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
  if vim.fn.has('nvim-0.11') == 1 then
    local unmapped = {}
    for _, lhs in ipairs({ 'grn', 'grr', 'gra', 'gO' }) do
      if vim.fn.maparg(lhs, 'n') == '' then
        table.insert(unmapped, lhs)
      end
    end
    check(#unmapped == 0, "Neovim 0.11's LSP keys are there: grn (rename), grr (references), gra (code action), gO (symbols)",
      'not mapped: ' .. table.concat(unmapped, ', '))
  end
  local caps = client.server_capabilities
  check(caps.hoverProvider and caps.completionProvider and caps.inlayHintProvider and true,
    'server advertises hover, completion and inlay hints',
    show({ hover = caps.hoverProvider, completion = caps.completionProvider, inlayHint = caps.inlayHintProvider }))
  -- A config that shows lenses turns the summaries' inlay hints off; the sample's headings then
  -- have none.
  check(section_hints_on(client) ~= want_lenses, want_lenses
      and "the config shows sections' summaries as code lenses and turns their inlay hints off (inlayHints.sections false)"
      or "the config leaves sections' summaries to the inlay hints (inlayHints.sections not false)",
    'init_options ' .. show(client.config.init_options))
  if not section_hints_on(client) then
    for line, want in pairs(sample_hints) do
      if type(want) == 'table' and want.section then
        sample_hints[line] = nil
      end
    end
  end

  -- Diagnostics: the sample's two deliberate mistakes (lines 65 and 66, 1-based); its checks pass.
  local WARN, ERROR = vim.diagnostic.severity.WARN, vim.diagnostic.severity.ERROR
  local sample_diagnostics = {
    { lnum = 64, col = 2, end_col = 3, code = 'stack-underflow', severity = WARN, message_has = '`+`' },
    { lnum = 65, col = 4, end_col = 8, code = 'unknown-word', severity = ERROR, message_has = '`swap`' },
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

  -- Completion at the start of `rent` on line 21 (nothing typed yet): operators, constants and
  -- the variables stored above that point (not `left`, stored on line 22).
  api.nvim_win_set_cursor(0, { 21, 0 })
  local result, err = request(bufnr, 'textDocument/completion', vim.lsp.util.make_position_params(0, client.offset_encoding))
  if check(result ~= nil, 'completion answered', err or 'null result') then
    local items = result.items or result
    local labels = {}
    for _, item in ipairs(items) do
      labels[item.label] = item
    end
    local missing = {}
    for _, want in ipairs({ 'dup', 'sqrt', '√', 'π', 'pi', '+', 'swap', 'subtotal', 'rent', 'income', 'groceries', 'phone' }) do
      if not labels[want] then
        table.insert(missing, want)
      end
    end
    check(#missing == 0,
      'completion labels include dup, sqrt, √, π, pi, +, swap, subtotal and the variables rent, income, groceries, phone',
      'missing ' .. table.concat(missing, ', ') .. ' among ' .. #items .. ' items')
    check(labels['left'] == nil and labels['total'] == nil, 'completion leaves out variables stored below the cursor (left, total)',
      'offered ' .. show({ left = labels['left'] ~= nil, total = labels['total'] ~= nil }))
    check(labels['rent'] and labels['rent'].detail and labels['rent'].detail:find('1200', 1, true) ~= nil,
      'completion item `rent` shows its value 1200', 'got ' .. show(labels['rent']))
  end
  -- At its end, `rent` typed: only what matches it, each item with a filterText (Neovim keeps
  -- every item that has a textEdit and none).
  api.nvim_win_set_cursor(0, { 21, 4 })
  result, err = request(bufnr, 'textDocument/completion', vim.lsp.util.make_position_params(0, client.offset_encoding))
  if check(result ~= nil, 'completion answered after `rent`', err or 'null result') then
    local got = {}
    for _, item in ipairs(result.items or result) do
      table.insert(got, item.label .. '/' .. tostring(item.filterText))
    end
    check(table.concat(got, ' ') == 'rent/rent', 'completion after `rent` offers only `rent`, with its filterText',
      'got ' .. table.concat(got, ' '))
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
  local problem = lines_diff(buffer_lines(bufnr), sample_lines)
  check(problem == nil, 'the buffer is the sample again', problem)

  -- Variables as symbols, semantic tokens, rename, formatting and a quick fix, each through
  -- the client's own commands where it has them.
  check_definitions(bufnr, client)
  check_references(bufnr, client)
  check_semantic_tokens(bufnr, client)
  check_rename(bufnr, client, sample_lines, sample_diagnostics)
  local formatted = check_formatting(bufnr, sample_lines, sample_diagnostics)
  check_semantic_tokens(bufnr, client, ' after formatting')
  check_quick_fix(bufnr, client, formatted, sample_diagnostics)
  check_failing_check_fix(bufnr)
  check_words(bufnr)
  check_numbers(bufnr, client)
  check_units(bufnr)
  check_sections(bufnr, client)

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
