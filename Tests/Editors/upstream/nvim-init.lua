-- The init.lua of a Neovim 0.11 user who has nvim-lspconfig, reduced to the one file under test:
-- EditorConfigs/neovim/upstream first on the runtimepath (run.sh sets RPN_UPSTREAM_RTP), then
-- what that file's ---@brief tells a user to write: its ```lua blocks, run as they stand (the
-- first, which registers the filetype, always; the second, the settings, when RPN_TEST_SETTINGS
-- is 1), then vim.lsp.enable('rpn_lsp') as nvim-lspconfig's README says.
vim.opt.runtimepath:prepend(vim.env.RPN_UPSTREAM_RTP)

local blocks, block = {}, nil
for line in io.lines(vim.env.RPN_UPSTREAM_RTP .. '/lsp/rpn_lsp.lua') do
  local text = line:match('^%-%-%- ?(.*)$')
  if text == nil then
    break
  elseif block == nil and text == '```lua' then
    block = {}
  elseif block ~= nil and text == '```' then
    table.insert(blocks, table.concat(block, '\n'))
    block = nil
  elseif block ~= nil then
    table.insert(block, text)
  end
end
vim.g.rpn_test_brief_blocks = #blocks

for i, code in ipairs(blocks) do
  if i == 1 or (i == 2 and vim.env.RPN_TEST_SETTINGS == '1') then
    assert(loadstring(code, 'the ---@brief lua block ' .. i))()
  end
end
vim.lsp.enable('rpn_lsp')
