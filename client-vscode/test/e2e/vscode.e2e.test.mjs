// The extension in a real VS Code: code-server 4.139 (VS Code 1.139 in the browser) with the built
// .vsix installed offline, driven in Debian's headless Chromium through playwright-core.
//
// It opens a copy of examples/dqn_no_gradients.py, waits for gradguard's GG101 in the Problems
// panel, puts the cursor on it, opens the quick fixes from the editor's light bulb (Ctrl+. if the
// bulb does not show), applies "Remove `.numpy()`", saves, and checks the file on disk. Screenshots
// and logs go to client-vscode/.e2e/ (quickfix.png and lens.png are the README's screenshots:
// the quick fix, and the gradient lens's hover and inlay hint; GRADGUARD_E2E_UPDATE_SCREENSHOT=1
// copies them to images/).
//
// Run by test/e2e/run.mjs (`npm run test:e2e`), which installs code-server and Node 24 first.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, createWriteStream } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const EXTENSION = path.resolve(HERE, '..', '..');
const REPO = path.resolve(EXTENSION, '..');
const EXAMPLE = path.join(REPO, 'examples', 'dqn_no_gradients.py');
const CODE_SERVER = path.join(HERE, 'node_modules', 'code-server', 'out', 'node', 'entry.js');
const CHROMIUM = process.env.GRADGUARD_CHROMIUM || '/usr/bin/chromium';
const OUT = path.join(EXTENSION, '.e2e');
const VSIX = process.env.GRADGUARD_VSIX;
const GG101_LINE = 45; // 1-based: `q_values = np.round(self.model(states).numpy())`
const SLOW = 180_000; // ms: the first start of everything on a 2-core machine

// The notebook of tests/lsp/test_lsp_notebooks.py: the tape cell breaks the gradient with .numpy().
const cell = (cell_type, source) => ({
    cell_type, metadata: {}, source: source.split(/(?<=\n)/),
    ...(cell_type === 'code' ? { execution_count: null, outputs: [] } : {}),
});
const NOTEBOOK = {
    cells: [
        cell('code', 'import numpy as np\nimport tensorflow as tf\nfrom tensorflow import keras\n\n'
            + 'model = keras.Sequential([keras.Input(shape=(4,)), keras.layers.Dense(1)])\n'
            + 'optimizer = keras.optimizers.Adam(1e-3)\nx = np.random.rand(8, 4).astype(np.float32)\n'
            + 'y = np.random.rand(8, 1).astype(np.float32)\n'),
        cell('markdown', '## One training step\nThe loss goes through numpy here.\n'),
        cell('code', 'with tf.GradientTape() as tape:\n    pred = model(x).numpy()\n    loss = tf.reduce_mean(tf.square(y - pred))\n'),
        cell('code', 'grads = tape.gradient(loss, model.trainable_variables)\n'
            + 'optimizer.apply_gradients(zip(grads, model.trainable_variables))\n'),
    ],
    metadata: {
        kernelspec: { display_name: 'Python 3', language: 'python', name: 'python3' },
        language_info: { name: 'python' },
    },
    nbformat: 4,
    nbformat_minor: 5,
};

const work = mkdtempSync(path.join(os.tmpdir(), 'gradguard-e2e-'));
const dirs = {
    userData: path.join(work, 'user-data'),
    extensions: path.join(work, 'extensions'),
    workspace: path.join(work, 'dqn-project'),
    chromium: path.join(work, 'chromium-profile'),
};
const file = path.join(dirs.workspace, 'dqn_no_gradients.py');
let server;
let browser;
let page;
let port;
const steps = [];

function step(message) {
    const line = `[${new Date().toISOString()}] ${message}`;
    steps.push(line);
    console.log(`e2e: ${message}`);
}

function freePort() {
    return new Promise((resolve, reject) => {
        const probe = net.createServer();
        probe.once('error', reject);
        probe.listen(0, '127.0.0.1', () => {
            const { port: found } = probe.address();
            probe.close(() => resolve(found));
        });
    });
}

async function waitFor(what, check, timeoutMs = SLOW, intervalMs = 500) {
    const deadline = Date.now() + timeoutMs;
    let last;
    while (Date.now() < deadline) {
        try {
            const value = await check();
            if (value) return value;
        } catch (error) {
            last = error;
        }
        await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
    throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}${last ? `: ${last.message}` : ''}`);
}

async function screenshot(name) {
    const target = path.join(OUT, name);
    await page.screenshot({ path: target }).catch((error) => step(`screenshot ${name} failed: ${error.message}`));
    return target;
}

/** The extension host's log and gradguard's output channel, for a failure report. */
function collectLogs() {
    const found = [];
    const walk = (dir) => {
        if (!existsSync(dir)) return;
        for (const entry of readdirSync(dir, { withFileTypes: true })) {
            const full = path.join(dir, entry.name);
            if (entry.isDirectory()) walk(full);
            else if (/gradguard|exthost|remoteexthost/i.test(entry.name) && entry.name.endsWith('.log')) found.push(full);
        }
    };
    walk(path.join(dirs.userData, 'logs'));
    mkdirSync(path.join(OUT, 'logs'), { recursive: true });
    for (const log of found) {
        copyFileSync(log, path.join(OUT, 'logs', path.basename(path.dirname(log)) + '-' + path.basename(log)));
    }
    return found.map((log) => `--- ${path.relative(dirs.userData, log)}\n${readFileSync(log, 'utf8').slice(-6000)}`).join('\n');
}

before(async () => {
    assert.ok(VSIX && existsSync(VSIX), `GRADGUARD_VSIX must name the built .vsix (got ${VSIX}); run through test/e2e/run.mjs`);
    assert.ok(existsSync(CODE_SERVER), `code-server is not installed at ${CODE_SERVER}; run through test/e2e/run.mjs`);
    assert.ok(existsSync(CHROMIUM), `Chromium is not at ${CHROMIUM} (apt-get install chromium, or set GRADGUARD_CHROMIUM)`);
    rmSync(OUT, { recursive: true, force: true });
    mkdirSync(OUT, { recursive: true });
    for (const dir of Object.values(dirs)) mkdirSync(dir, { recursive: true });
    copyFileSync(EXAMPLE, file);
    writeFileSync(path.join(dirs.workspace, 'train.ipynb'), JSON.stringify(NOTEBOOK, null, 1));

    // Settings of a quiet window: no welcome page, no AI chat, no update checks.
    mkdirSync(path.join(dirs.userData, 'User'), { recursive: true });
    writeFileSync(path.join(dirs.userData, 'User', 'settings.json'), JSON.stringify({
        'workbench.startupEditor': 'none',
        'workbench.tips.enabled': false,
        'workbench.enableExperiments': false,
        'workbench.welcomePage.walkthroughs.openOnInstall': false,
        'extensions.autoCheckUpdates': false,
        'extensions.autoUpdate': false,
        'extensions.ignoreRecommendations': true,
        'update.mode': 'none',
        'telemetry.telemetryLevel': 'off',
        'chat.disableAIFeatures': true,
        'chat.commandCenter.enabled': false,
        'window.commandCenter': false,
        'editor.minimap.enabled': false,
        'editor.stickyScroll.enabled': false,
        'workbench.secondarySideBar.defaultVisibility': 'hidden',
        'editor.lightbulb.enabled': 'on',
        'files.autoSave': 'off',
        'security.workspace.trust.enabled': false,
        'gradguard.trace.server': 'messages',
    }, null, 2));
});

after(async () => {
    await browser?.close().catch(() => undefined);
    if (server && server.exitCode === null) {
        server.kill('SIGTERM');
        await new Promise((resolve) => {
            const timer = setTimeout(() => { server.kill('SIGKILL'); resolve(); }, 5000);
            server.once('exit', () => { clearTimeout(timer); resolve(); });
        });
    }
    writeFileSync(path.join(OUT, 'steps.log'), steps.join('\n') + '\n');
    if (!process.env.GRADGUARD_E2E_KEEP) rmSync(work, { recursive: true, force: true });
});

test('code-server installs the .vsix offline', { timeout: SLOW }, () => {
    step(`installing ${path.basename(VSIX)} into code-server`);
    const result = spawnSync(process.execPath, [CODE_SERVER, '--install-extension', VSIX,
        '--extensions-dir', dirs.extensions, '--user-data-dir', dirs.userData], { encoding: 'utf8', timeout: SLOW });
    step(`install: status ${result.status}\n${result.stdout}${result.stderr}`);
    assert.equal(result.status, 0, result.stdout + result.stderr);
    assert.match(result.stdout, /successfully installed/i);
    const installedDir = readdirSync(dirs.extensions).find((name) => name.startsWith('gradguard.gradguard-'));
    assert.ok(installedDir, `the extension is in ${dirs.extensions}: ${readdirSync(dirs.extensions)}`);
    const root = path.join(dirs.extensions, installedDir);
    assert.ok(existsSync(path.join(root, 'bundled', 'tool', 'lsp_server.py')));
    assert.ok(existsSync(path.join(root, 'bundled', 'libs', 'gradguard', 'server', '__init__.py')));
});

test('gradguard shows GG101 in the Problems panel and its quick fix removes `.numpy()`', { timeout: 10 * 60_000 }, async () => {
    const original = readFileSync(file, 'utf8');
    const originalLines = original.split('\n');
    assert.match(originalLines[GG101_LINE - 1], /\.numpy\(\)/);

    // code-server, offline, bound to the loopback address only.
    port = await freePort();
    const serverLog = createWriteStream(path.join(OUT, 'code-server.log'));
    writeFileSync(path.join(work, 'code-server.yaml'), 'auth: none\ncert: false\n');
    server = spawn(process.execPath, [CODE_SERVER,
        '--bind-addr', `127.0.0.1:${port}`, '--auth', 'none', '--config', path.join(work, 'code-server.yaml'),
        '--user-data-dir', dirs.userData, '--extensions-dir', dirs.extensions,
        '--disable-telemetry', '--disable-update-check', '--disable-workspace-trust', '--disable-getting-started-override',
        '--log', 'info', dirs.workspace], { env: { ...process.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    server.stdout.pipe(serverLog);
    server.stderr.pipe(serverLog);
    step(`code-server starting on 127.0.0.1:${port}`);
    await waitFor('code-server to answer /healthz', async () => {
        if (server.exitCode !== null) throw new Error(`code-server exited with ${server.exitCode}`);
        const response = await fetch(`http://127.0.0.1:${port}/healthz`);
        return response.ok;
    }, 120_000);
    step('code-server is up');

    // A fresh headless Chromium that can resolve no host but 127.0.0.1.
    browser = await chromium.launchPersistentContext(dirs.chromium, {
        executablePath: CHROMIUM,
        headless: true,
        viewport: { width: 1400, height: 900 },
        args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
            '--disable-sync', '--no-first-run', '--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1'],
    });
    page = browser.pages()[0] ?? await browser.newPage();
    page.on('pageerror', (error) => step(`page error: ${error.message}`));

    await reportingFailures(async () => {
        const url = `http://127.0.0.1:${port}/?folder=${encodeURIComponent(dirs.workspace)}`;
        await waitFor('the workbench to load', async () => {
            await page.goto(url, { waitUntil: 'domcontentloaded', timeout: 60_000 });
            await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
            return true;
        }, SLOW, 2000);
        step('workbench loaded');

        await openFromExplorer('dqn_no_gradients.py');
        const editor = page.locator('.editor-instance .monaco-editor').first();
        await editor.locator('.view-lines', { hasText: 'class DQNAgent' }).waitFor({ timeout: 60_000 });
        step('the file is open');

        // The Problems panel, until gradguard's diagnostics arrive (the extension activates on
        // Python, checks the interpreter and starts the bundled server first).
        await runCommand('View: Focus Problems (Errors, Warnings, Infos)', 'workbench.panel.markers.view.focus');
        const problems = page.locator('.markers-panel');
        const problemsText = await waitFor('gradguard GG101 in the Problems panel', async () => {
            const text = await problems.innerText({ timeout: 1000 });
            return /GG101/.test(text) && /gradguard/.test(text) ? text : undefined;
        }, SLOW, 1000);
        step(`Problems panel:\n${problemsText}`);
        assert.match(problemsText, /GG309/, 'the other bug of the file is reported too');
        const where = new RegExp(`GG101\\s*\\[Ln ${GG101_LINE}, Col (\\d+)\\]`).exec(problemsText);
        assert.ok(where, `GG101 is reported on line ${GG101_LINE}`);
        const column = Number(where[1]);
        await screenshot('problems.png');

        // The gradient lens: the inlay hint after `tape.gradient(...)`, and the hover on `q_values`.
        await editor.click({ position: { x: 400, y: 100 } });
        await page.keyboard.press('Control+G');
        await page.keyboard.type(`${GG101_LINE + 1}:40`); // `q_values` in `chosen_q = tf.reduce_sum(q_values * ...`
        await page.keyboard.press('Enter');
        const hint = editor.locator('.view-lines', { hasText: 'gradients = tape.gradient' });
        await waitFor('the inlay hint after tape.gradient', async () => {
            const text = (await hint.first().innerText({ timeout: 1000 })).replace(/\u00a0/g, ' ');
            return /✗ self\.model: prediction cut by `?\.numpy\(\)/.test(text) ? text : undefined;
        }, 60_000, 1000);
        step('inlay hint shown after tape.gradient');
        await runCommand('Show or Focus Hover', 'editor.action.showHover');
        const hover = await waitFor('the gradient lens hover', async () => {
            const text = await page.locator('.monaco-hover').first().innerText({ timeout: 1000 });
            return /constant to tape: cut by \.numpy\(\)/.test(text.replace(/`/g, '')) ? text : undefined;
        }, 60_000, 1000);
        step(`hover:\n${hover}`);
        const lensShot = await screenshot('lens.png');
        if (process.env.GRADGUARD_E2E_UPDATE_SCREENSHOT === '1') {
            copyFileSync(lensShot, path.join(EXTENSION, 'images', 'lens.png'));
        }
        await page.keyboard.press('Escape');

        // The cursor on the diagnostic, then the light bulb.
        await editor.click({ position: { x: 400, y: 100 } });
        await page.keyboard.press('Control+G');
        await page.keyboard.type(`${GG101_LINE}:${column}`);
        await page.keyboard.press('Enter');
        await editor.locator('.squiggly-error, .squiggly-warning, .squiggly-info').first().waitFor({ timeout: 30_000 });
        const bulb = page.locator('.lightBulbWidget .codicon, .lightBulbWidget');
        let how = 'light bulb';
        try {
            await bulb.first().waitFor({ state: 'visible', timeout: 20_000 });
            await bulb.first().click();
        } catch {
            how = 'Ctrl+.';
            await page.keyboard.press('Control+.');
        }
        const menu = page.locator('.action-widget');
        const fix = menu.locator('.monaco-list-row', { hasText: /Remove .*numpy\(\)/ });
        await waitFor('the quick fix "Remove `.numpy()`"', async () => {
            if (await fix.count()) return true;
            // The bulb may have been clicked before its actions were ready: ask again.
            await page.keyboard.press('Escape');
            await page.keyboard.press('Control+.');
            how = 'Ctrl+.';
            await fix.first().waitFor({ timeout: 5000 });
            return true;
        }, 60_000, 1000);
        const entries = await menu.locator('.monaco-list-row').allInnerTexts();
        step(`quick fixes (opened with ${how}): ${JSON.stringify(entries)}`);
        assert.ok(entries.some((entry) => /Ignore GG101 for this line/.test(entry)), 'the ignore action is offered too');
        await fix.first().hover();
        const shot = await screenshot('quickfix.png');
        if (process.env.GRADGUARD_E2E_UPDATE_SCREENSHOT === '1') {
            copyFileSync(shot, path.join(EXTENSION, 'images', 'quickfix.png'));
        }
        await fix.first().click();
        step('quick fix applied');

        // The edit is in the editor; save and read the file back.
        await waitFor('the editor to show the fixed line', async () => {
            const text = await editor.locator('.view-lines').innerText();
            return /np\.round\(self\.model\(states\)\)/.test(text.replace(/\u00a0/g, ' '));
        }, 30_000);
        await page.keyboard.press('Control+S');
        const fixed = await waitFor('the fixed file on disk', () => {
            const text = readFileSync(file, 'utf8');
            return text !== original ? text : undefined;
        }, 30_000);
        const fixedLines = fixed.split('\n');
        const expected = originalLines[GG101_LINE - 1].replace('self.model(states).numpy()', 'self.model(states)');
        assert.equal(fixedLines[GG101_LINE - 1], expected);
        assert.deepEqual(fixedLines.filter((_, i) => i !== GG101_LINE - 1), originalLines.filter((_, i) => i !== GG101_LINE - 1),
            'the fix changed nothing else');
        step(`line ${GG101_LINE} now: ${fixedLines[GG101_LINE - 1].trim()}`);

        // The server re-analysed the new text: GG101 is gone, GG309 stays.
        const after = await waitFor('GG101 to leave the Problems panel', async () => {
            const text = await problems.innerText({ timeout: 1000 });
            return !/GG101/.test(text) && /GG309/.test(text) ? text : undefined;
        }, 60_000, 1000);
        step(`Problems panel after the fix:\n${after}`);

        // The status bar item and the output channel of the extension.
        const status = page.locator('.statusbar-item', { hasText: 'gradguard' });
        await status.first().waitFor({ timeout: 10_000 });
        step(`status bar: ${await status.first().getAttribute('aria-label')}`);
        await screenshot('after-fix.png');
    });
    collectLogs();
});

test('gradguard checks the code cells of a Jupyter notebook', { timeout: 5 * 60_000 }, async (t) => {
    if (!page) {
        t.skip('the workbench did not start');
        return;
    }
    await reportingFailures(async () => {
        await openFromExplorer('train.ipynb');
        await page.locator('.notebook-editor .cell-list-container').first().waitFor({ timeout: 60_000 });
        await page.locator('.notebook-editor .view-lines', { hasText: 'GradientTape' }).first().waitFor({ timeout: 60_000 });
        step('the notebook is open');
        await runCommand('View: Focus Problems (Errors, Warnings, Infos)', 'workbench.panel.markers.view.focus');
        const text = await waitFor('GG101 of the notebook in the Problems panel', async () => {
            const panel = await page.locator('.markers-panel').innerText({ timeout: 1000 });
            const notebookPart = panel.slice(panel.indexOf('train.ipynb'));
            // `pred = model(x).numpy()`: line 2 of the tape cell.
            return panel.includes('train.ipynb') && /GG101\)?\s*\[Ln 2, Col \d+\]/.test(notebookPart) ? panel : undefined;
        }, SLOW, 1000);
        step(`Problems panel with the notebook:\n${text}`);
        await screenshot('notebook.png');
    });
    collectLogs();
});

/** On failure: a screenshot, the steps so far and the extension's logs in the error. */
async function reportingFailures(body) {
    try {
        await body();
    } catch (error) {
        await screenshot('failure.png');
        throw new Error(`${error.message}\n\nsteps:\n${steps.join('\n')}\n\nlogs:\n${collectLogs()}`);
    }
}

/** Opens a file of the workspace from the Explorer (Quick Open if the Explorer does not show it). */
async function openFromExplorer(name) {
    const row = page.locator('.explorer-folders-view .monaco-list-row', { hasText: name });
    try {
        await row.first().waitFor({ timeout: 60_000 });
        await row.first().click();
    } catch {
        step(`Explorer row ${name} not found: Quick Open`);
        await page.locator('.monaco-workbench').click();
        await page.keyboard.press('Control+P');
        await page.keyboard.type(name);
        await page.keyboard.press('Enter');
    }
}

/** Runs a command from the palette (F1), by its title. */
async function runCommand(title, id) {
    await page.keyboard.press('F1');
    const input = page.locator('.quick-input-widget input');
    await input.waitFor({ timeout: 30_000 });
    await input.fill(`>${title}`);
    const item = page.locator('.quick-input-list .monaco-list-row', { hasText: title.split(' (')[0] });
    await item.first().waitFor({ timeout: 30_000 });
    await page.keyboard.press('Enter');
    step(`ran "${title}" (${id})`);
}
