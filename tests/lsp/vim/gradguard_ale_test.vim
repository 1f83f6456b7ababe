" Drives Vim with ALE (Debian's vim-ale) against the gradguard server; run by tests/lsp/test_vim_ale.py:
"
"   GRADGUARD_TEST_PYTHON=... GRADGUARD_TEST_FILE=... GRADGUARD_TEST_OUT=... GRADGUARD_TEST_LOG=... \
"     vim -N -u NONE -i NONE -n -es -S tests/lsp/vim/gradguard_ale_test.vim
"
" Registers gradguard as an ALE LSP linter the way docs/editors.md tells Vim users to, opens
" GRADGUARD_TEST_FILE, waits for gradguard's diagnostics in ALE's location list, then runs ALE's own
" :ALECodeAction twice on the GG101 line: with the cursor inside the word `numpy` (ALE sends no
" context diagnostic then: its range is the word) and on the `.` before it (ALE sends its copy of the nearest
" diagnostic: code, message and range, no source). ALE's number prompt (ale#util#Input) is answered
" with the first GG101 fix of the menu, the edit applied by ALE itself, the file written, and the
" location list of the edited text awaited. Everything is recorded in GRADGUARD_TEST_OUT (JSON).
" Exits 0 with :qall!, or 1 with :cquit after writing the error into the JSON.

let s:env = {
\   'python': $GRADGUARD_TEST_PYTHON,
\   'file': $GRADGUARD_TEST_FILE,
\   'out': $GRADGUARD_TEST_OUT,
\   'log': $GRADGUARD_TEST_LOG,
\}
let s:wait_ms = empty($GRADGUARD_TEST_WAIT_MS) ? 40000 : str2nr($GRADGUARD_TEST_WAIT_MS)
let s:result = {'vim_version': v:version, 'menus': [], 'answers': []}

" --- the docs/editors.md snippet, with this interpreter and a log file -------------------------
let g:ale_linters_explicit = 1
let g:ale_linters = {'python': ['gradguard']}
let g:ale_set_signs = 0
let g:ale_set_highlights = 0
let g:ale_echo_cursor = 0
let g:ale_virtualtext_cursor = 'disabled'
filetype plugin on
packadd ale
call ale#linter#Define('python', {
\   'name': 'gradguard',
\   'lsp': 'stdio',
\   'executable': s:env.python,
\   'command': '%e -m gradguard.server --log-level debug --log-file ' . ale#Escape(s:env.log),
\   'project_root': {buffer -> ale#python#FindProjectRoot(buffer)},
\   'initialization_options': {'gradguard': {'severity': {'GG309': 'error'}}},
\})

" ALE asks which action to apply with input(): answer with the first GG101 fix of its menu.
call ale#util#Mode()  " loads autoload/ale/util.vim, so the definition below replaces ALE's
function! ale#util#Input(message, value, ...) abort
    call add(s:result.menus, split(a:message, "\n"))
    for l:line in split(a:message, "\n")
        let l:match = matchlist(l:line, '^\(\d\+\)) gradguard (GG101): ')
        if !empty(l:match)
            call add(s:result.answers, l:line)
            return l:match[1]
        endif
    endfor
    call add(s:result.answers, '')
    return ''
endfunction

function! s:Loclist(buffer) abort
    let l:out = []
    for l:item in get(get(g:ale_buffer_info, a:buffer, {}), 'loclist', [])
        if get(l:item, 'linter_name', '') is# 'gradguard'
            call add(l:out, {'code': get(l:item, 'code', ''), 'line': l:item.lnum, 'col': l:item.col, 'type': l:item.type,
            \                'end_line': get(l:item, 'end_lnum', 0), 'end_col': get(l:item, 'end_col', 0),
            \                'text': l:item.text})
        endif
    endfor
    return l:out
endfunction

" Waits (running Vim's timers and job callbacks) until Condition() holds; 0 after the deadline.
function! s:Wait(Condition, ms) abort
    let l:start = reltime()
    while reltimefloat(reltime(l:start)) * 1000 < a:ms
        if a:Condition()
            return 1
        endif
        sleep 50m
    endwhile
    return a:Condition()
endfunction

function! s:Has(buffer, code, line) abort
    return !empty(filter(s:Loclist(a:buffer), {_, d -> d.code is# a:code && d.line == a:line}))
endfunction

function! s:CodeAction(buffer, line, column) abort
    call cursor(a:line, a:column)
    let l:menus = len(s:result.menus)
    ALECodeAction
    return s:Wait({-> len(s:result.menus) > l:menus}, 10000)
endfunction

function! s:Main() abort
    for [l:name, l:value] in items(s:env)
        if empty(l:value)
            throw 'environment variable for ' . l:name . ' is not set'
        endif
    endfor
    execute 'edit ' . fnameescape(s:env.file)
    let l:buffer = bufnr('')
    let s:result.filetype = &filetype
    if &filetype isnot# 'python'
        throw 'filetype is ' . string(&filetype) . ', expected python'
    endif
    ALELint

    " 1. The diagnostics of the file as opened.
    if !s:Wait({-> !empty(s:Loclist(l:buffer)) && !ale#engine#IsCheckingBuffer(l:buffer)}, s:wait_ms)
        throw 'no gradguard diagnostics in ALE''s location list within ' . s:wait_ms . ' ms'
    endif
    let s:result.before = s:Loclist(l:buffer)
    let l:target = filter(copy(s:result.before), {_, d -> d.code is# 'GG101'})
    if empty(l:target)
        throw 'no GG101 in the location list'
    endif
    let l:line = l:target[0].line
    let l:text = getline(l:line)
    let s:result.line_before = l:text
    let l:numpy = stridx(l:text, '.numpy()') + 1
    if l:numpy == 0
        throw 'no .numpy() on line ' . l:line
    endif

    " 2. :ALECodeAction with the cursor inside the word `numpy` (on its `m`): ALE widens the range to
    "    the word and, the range no longer being a point, sends no context diagnostic.
    if !s:CodeAction(l:buffer, l:line, l:numpy + 3)
        throw 'no code action menu for the cursor on `numpy` within 10 s (ALE: "No code actions received"?)'
    endif
    let l:after_first = getline(l:line)

    " 3. On the `.` before it: ALE sends its copy of the nearest diagnostic. Undo the first fix first.
    if l:after_first isnot# l:text
        silent undo
    endif
    let s:result.line_undone = getline(l:line)
    " ALE sends the buffer with the next request; wait for the diagnostics of the undone text.
    if !s:CodeAction(l:buffer, l:line, l:numpy)
        throw 'no code action menu for the cursor on `.numpy` within 10 s'
    endif
    let s:result.line_after_edit = getline(l:line)
    let s:result.line_after_first_action = l:after_first

    " 4. Write the file; ALE lints on save: wait for a location list without that GG101.
    write
    ALELint
    if !s:Wait({-> !s:Has(l:buffer, 'GG101', l:line) && !empty(s:Loclist(l:buffer))
    \              && !ale#engine#IsCheckingBuffer(l:buffer)}, s:wait_ms)
        throw 'the GG101 on line ' . l:line . ' is still in the location list after ' . s:wait_ms . ' ms'
    endif
    let s:result.after = s:Loclist(l:buffer)
    ALEStopAllLSPs
endfunction

try
    call s:Main()
catch
    let s:result.error = v:exception . ' (' . v:throwpoint . ')'
endtry
call writefile([json_encode(s:result)], s:env.out)
if has_key(s:result, 'error')
    cquit 1
endif
qall!
