-- The gradient lens in Neovim's own LSP client (0.7+); run by tests/lsp/test_neovim_lens.py:
--
--   GRADGUARD_TEST_PYTHON=... GRADGUARD_TEST_FILE=... GRADGUARD_TEST_OUT=... GRADGUARD_TEST_LOG=... \
--     nvim --headless --clean -c 'luafile tests/lsp/nvim/lens_test.lua'
--
-- Starts the server as the README's "Neovim 0.7+" snippet does, opens GRADGUARD_TEST_FILE, waits
-- for the diagnostics, then lets Neovim fetch the code lenses (`vim.lsp.codelens.refresh`, what
-- an `autocmd BufEnter,CursorHold <buffer> lua vim.lsp.codelens.refresh()` runs) and records what
-- `vim.lsp.codelens.get` holds, and the hover at GRADGUARD_TEST_HOVER_LINE:COL (1-based line,
-- 0-based column) as `vim.lsp.buf.hover` requests it. Writes GRADGUARD_TEST_OUT (JSON).

local env = {
  python = os.getenv('GRADGUARD_TEST_PYTHON'),
  file = os.getenv('GRADGUARD_TEST_FILE'),
  out = os.getenv('GRADGUARD_TEST_OUT'),
  log = os.getenv('GRADGUARD_TEST_LOG'),
}
local HOVER_LINE = tonumber(os.getenv('GRADGUARD_TEST_HOVER_LINE') or '1')
local HOVER_COL = tonumber(os.getenv('GRADGUARD_TEST_HOVER_COL') or '0')
local WAIT = 20000
local result = {}

local gradguard_client
vim.api.nvim_create_autocmd('FileType', {
  pattern = 'python',
  callback = function(args)
    if not (gradguard_client and vim.lsp.get_client_by_id(gradguard_client)) then
      gradguard_client = vim.lsp.start_client({
        name = 'gradguard',
        cmd = { env.python, '-m', 'gradguard.server', '--log-file', env.log, '--log-level', 'debug' },
        root_dir = vim.fn.getcwd(),
      })
    end
    vim.lsp.buf_attach_client(args.buf, gradguard_client)
  end,
})

local function main()
  vim.cmd('edit ' .. vim.fn.fnameescape(env.file))
  local bufnr = vim.api.nvim_get_current_buf()
  assert(gradguard_client, 'the FileType autocmd did not start the client')
  local ok = vim.wait(WAIT, function()
    for _, d in ipairs(vim.diagnostic.get(bufnr)) do
      if d.source == 'gradguard' then return true end
    end
    return false
  end, 50)
  assert(ok, 'no gradguard diagnostics within ' .. WAIT .. ' ms')
  local client = vim.lsp.get_client_by_id(gradguard_client)
  result.code_lens_provider = client.server_capabilities ~= nil and client.server_capabilities.codeLensProvider ~= nil
    or (client.resolved_capabilities ~= nil and client.resolved_capabilities.code_lens == true)

  -- Code lenses, fetched and stored by Neovim's own codelens module.
  vim.lsp.codelens.refresh()
  ok = vim.wait(WAIT, function() return #vim.lsp.codelens.get(bufnr) > 0 end, 50)
  assert(ok, 'no code lens within ' .. WAIT .. ' ms')
  result.lenses = {}
  for _, lens in ipairs(vim.lsp.codelens.get(bufnr)) do
    table.insert(result.lenses, { line = lens.range.start.line + 1, title = lens.command and lens.command.title })
  end

  -- The hover, as `vim.lsp.buf.hover()` asks for it.
  local params = { textDocument = { uri = vim.uri_from_bufnr(bufnr) },
                   position = { line = HOVER_LINE - 1, character = HOVER_COL } }
  local responses = vim.lsp.buf_request_sync(bufnr, 'textDocument/hover', params, WAIT)
  local response = responses and responses[gradguard_client]
  assert(response and not response.err, 'textDocument/hover failed: ' .. vim.inspect(response))
  local contents = response.result and response.result.contents
  result.hover = contents and vim.lsp.util.convert_input_to_markdown_lines(contents) or vim.NIL
  client.stop()
end

local ok, err = xpcall(main, debug.traceback)
if not ok then result.error = tostring(err) end
local f = assert(io.open(env.out, 'w'))
f:write(vim.fn.json_encode(result))
f:close()
if ok then vim.cmd('qa!') else io.stderr:write(tostring(err) .. '\n') vim.cmd('cquit 1') end
