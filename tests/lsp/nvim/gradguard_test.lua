-- Drives Neovim's own LSP client (0.7+) against the gradguard server; run by tests/lsp/test_neovim.py:
--
--   GRADGUARD_TEST_PYTHON=... GRADGUARD_TEST_FILE=... GRADGUARD_TEST_OUT=... GRADGUARD_TEST_LOG=... \
--     nvim --headless --clean -c 'luafile tests/lsp/nvim/gradguard_test.lua'
--
-- Opens GRADGUARD_TEST_FILE, waits for gradguard's diagnostics, applies the preferred quick fix of
-- the GG101 diagnostic with Neovim's own apply_workspace_edit, writes the file, waits for the
-- diagnostics of the edited text, stops the client (the server must exit by itself), and records
-- everything in GRADGUARD_TEST_OUT (JSON). Exits 0 with `:qa!`, or non-zero with `:cquit` after
-- writing the error into the JSON.

local env = {
  python = os.getenv('GRADGUARD_TEST_PYTHON'),
  file = os.getenv('GRADGUARD_TEST_FILE'),
  out = os.getenv('GRADGUARD_TEST_OUT'),
  log = os.getenv('GRADGUARD_TEST_LOG'),
}
local WAIT_DIAGNOSTICS = tonumber(os.getenv('GRADGUARD_TEST_WAIT_MS') or '40000')
local WAIT_REQUEST = 10000
local WAIT_EXIT = 5000
local version = vim.version()
local result = { nvim_version = version.major .. '.' .. version.minor .. '.' .. version.patch, publishes = {} }

-- The README's "Neovim 0.7+" snippet, with the command pointing at this interpreter and a log file.
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

-- Every publishDiagnostics (uri, version, codes) is recorded, then handed to Neovim's own handler.
local default_publish = vim.lsp.handlers['textDocument/publishDiagnostics']
vim.lsp.handlers['textDocument/publishDiagnostics'] = function(err, params, ctx, config)
  if params then
    local codes = {}
    for _, d in ipairs(params.diagnostics or {}) do
      table.insert(codes, { code = d.code, line = d.range.start.line + 1 })
    end
    table.insert(result.publishes, { uri = params.uri, version = params.version, codes = codes })
  end
  return default_publish(err, params, ctx, config)
end

local function write_result()
  local f = assert(io.open(env.out, 'w'))
  f:write(vim.fn.json_encode(result))
  f:close()
end

local function gradguard_diagnostics(bufnr)
  local out = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    if d.source == 'gradguard' then
      table.insert(out, {
        line = d.lnum + 1, col = d.col + 1, end_line = d.end_lnum + 1, end_col = d.end_col + 1,
        code = d.code, severity = d.severity, message = d.message, source = d.source,
      })
    end
  end
  table.sort(out, function(a, b) return a.line < b.line or (a.line == b.line and a.col < b.col) end)
  return out
end

local function publishes_for(uri)
  local n = 0
  for _, p in ipairs(result.publishes) do
    if p.uri == uri then n = n + 1 end
  end
  return n
end

local function main()
  for name, value in pairs(env) do
    assert(value and value ~= '', 'environment variable for ' .. name .. ' is not set')
  end
  vim.cmd('edit ' .. vim.fn.fnameescape(env.file))
  local bufnr = vim.api.nvim_get_current_buf()
  local uri = vim.uri_from_bufnr(bufnr)
  result.uri = uri
  result.filetype = vim.bo[bufnr].filetype
  assert(result.filetype == 'python', 'filetype is ' .. vim.inspect(result.filetype) .. ', expected python')
  assert(gradguard_client, 'the FileType autocmd did not start the client')

  -- 1. The diagnostics of the file as opened.
  local ok = vim.wait(WAIT_DIAGNOSTICS, function()
    if not vim.lsp.get_client_by_id(gradguard_client) then return true end -- exited: fail now
    return publishes_for(uri) > 0 and #gradguard_diagnostics(bufnr) > 0
  end, 50)
  local client = vim.lsp.get_client_by_id(gradguard_client)
  assert(client, 'the gradguard client exited (see the server log)')
  client.config.on_exit = function(code, signal) result.server_exit = { code = code, signal = signal } end
  result.offset_encoding = client.offset_encoding
  if client.initialize_result and client.initialize_result.serverInfo then
    result.server_info = client.initialize_result.serverInfo
  end
  assert(ok, 'no gradguard diagnostics within ' .. WAIT_DIAGNOSTICS .. ' ms')
  result.before = gradguard_diagnostics(bufnr)

  -- 2. Code actions for GG101, the diagnostic in the context as Neovim 0.7's code_action sends it.
  local target
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    if d.source == 'gradguard' and d.code == 'GG101' then target = d break end
  end
  assert(target, 'no GG101 diagnostic')
  local context_diagnostics = {}
  for _, d in ipairs(vim.lsp.diagnostic.get_line_diagnostics(bufnr, target.lnum)) do
    if d.code == 'GG101' then table.insert(context_diagnostics, d) end
  end
  assert(#context_diagnostics == 1, 'GG101 not found by get_line_diagnostics')
  local params = {
    textDocument = { uri = uri },
    range = context_diagnostics[1].range,
    context = { diagnostics = context_diagnostics },
  }
  result.code_action_params = params
  local responses, request_err = vim.lsp.buf_request_sync(bufnr, 'textDocument/codeAction', params, WAIT_REQUEST)
  assert(responses, 'textDocument/codeAction failed: ' .. tostring(request_err))
  local response = responses[gradguard_client]
  assert(response, 'no textDocument/codeAction response from gradguard within ' .. WAIT_REQUEST .. ' ms')
  assert(not response.err, 'textDocument/codeAction error: ' .. vim.inspect(response.err))
  result.actions = {}
  local preferred
  for _, action in ipairs(response.result or {}) do
    table.insert(result.actions, { title = action.title, kind = action.kind,
                                   isPreferred = action.isPreferred == true, has_edit = action.edit ~= nil })
    if action.isPreferred == true and action.kind == 'quickfix' and not preferred then preferred = action end
  end
  assert(preferred, 'no preferred quickfix among ' .. #result.actions .. ' actions')
  assert(preferred.edit, 'the preferred quickfix carries no edit')
  result.preferred = { title = preferred.title, edit = preferred.edit }

  -- 3. Apply it as Neovim does, write the file, wait for the diagnostics of the new version.
  local line_before = vim.api.nvim_buf_get_lines(bufnr, target.lnum, target.lnum + 1, true)[1]
  vim.lsp.util.apply_workspace_edit(preferred.edit, client.offset_encoding)
  result.line_after_edit = vim.api.nvim_buf_get_lines(bufnr, target.lnum, target.lnum + 1, true)[1]
  assert(result.line_after_edit ~= line_before, 'apply_workspace_edit did not change line ' .. (target.lnum + 1))
  local published = #result.publishes
  vim.cmd('write')
  local edited = vim.lsp.util.buf_versions[bufnr]
  result.version_after_edit = edited
  ok = vim.wait(WAIT_DIAGNOSTICS, function()
    for i = published + 1, #result.publishes do
      local p = result.publishes[i]
      if p.uri == uri and (p.version == nil or p.version >= edited) then return true end
    end
    return false
  end, 50)
  assert(ok, 'no diagnostics published for version ' .. tostring(edited) .. ' within ' .. WAIT_DIAGNOSTICS .. ' ms')
  result.after = gradguard_diagnostics(bufnr)

  -- 4. shutdown + exit: the server must end by itself.
  client.stop()
  ok = vim.wait(WAIT_EXIT, function() return result.server_exit ~= nil end, 50)
  assert(ok, 'the server did not exit within ' .. WAIT_EXIT .. ' ms of shutdown/exit')
end

local ok, err = xpcall(main, debug.traceback)
if not ok then result.error = tostring(err) end
local wrote, write_err = pcall(write_result)
if not wrote then io.stderr:write('cannot write ' .. tostring(env.out) .. ': ' .. tostring(write_err) .. '\n') end
if ok and wrote then
  vim.cmd('qa!')
else
  io.stderr:write(tostring(err) .. '\n')
  vim.cmd('cquit 1')
end
