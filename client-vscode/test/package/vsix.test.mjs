// `npm run package` builds the .vsix, and the .vsix holds a working server: the bundle, the
// manifest, the documents, and the bundled Python server, which is then started from the unpacked
// package with a bare Python (nothing installed) and asked for the diagnostics of the DQN example.
//
// GRADGUARD_VSIX=path skips the build and checks that file. GRADGUARD_PYTHON (else python3) is the
// interpreter that runs the unpacked server.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import yauzl from 'yauzl';

const EXTENSION = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const REPO = path.dirname(EXTENSION);
const manifest = JSON.parse(readFileSync(path.join(EXTENSION, 'package.json'), 'utf8'));
const PYTHON = process.env.GRADGUARD_PYTHON_BARE || 'python3';

let vsix;
let entries;
const unpacked = mkdtempSync(path.join(os.tmpdir(), 'gradguard-vsix-'));

function readZip(file) {
    return new Promise((resolve, reject) => {
        yauzl.open(file, { lazyEntries: true }, (error, zip) => {
            if (error) return reject(error);
            const found = new Map();
            zip.on('entry', (entry) => {
                if (entry.fileName.endsWith('/')) return zip.readEntry();
                zip.openReadStream(entry, (streamError, stream) => {
                    if (streamError) return reject(streamError);
                    const chunks = [];
                    stream.on('data', (chunk) => chunks.push(chunk));
                    stream.on('end', () => {
                        found.set(entry.fileName, Buffer.concat(chunks));
                        zip.readEntry();
                    });
                });
            });
            zip.on('end', () => resolve(found));
            zip.on('error', reject);
            zip.readEntry();
        });
    });
}

before(async () => {
    if (process.env.GRADGUARD_VSIX) {
        vsix = process.env.GRADGUARD_VSIX;
    } else {
        const started = Date.now();
        const npm = process.env.npm_execpath;
        const result = npm
            ? spawnSync(process.execPath, [npm, 'run', 'package'], { cwd: EXTENSION, stdio: 'inherit' })
            : spawnSync('npm', ['run', 'package'], { cwd: EXTENSION, stdio: 'inherit', shell: process.platform === 'win32' });
        assert.equal(result.status, 0, '`npm run package` failed');
        console.log(`package: built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
        const dist = path.join(EXTENSION, 'dist');
        vsix = readdirSync(dist).filter((f) => f.endsWith('.vsix')).map((f) => path.join(dist, f))
            .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
    }
    assert.ok(vsix && existsSync(vsix), 'a .vsix in dist/');
    entries = await readZip(vsix);
    for (const [name, data] of entries) {
        const target = path.join(unpacked, name);
        mkdirSync(path.dirname(target), { recursive: true });
        writeFileSync(target, data);
    }
});

after(() => rmSync(unpacked, { recursive: true, force: true }));

describe('the .vsix', () => {
    it('is named for its platform and version', () => {
        assert.match(path.basename(vsix), new RegExp(`^gradguard-(linux|darwin|win32|alpine)-[a-z0-9]+-${manifest.version.replace(/\./g, '\\.')}\\.vsix$`));
        const vsixManifest = entries.get('extension.vsixmanifest').toString('utf8');
        assert.match(vsixManifest, /TargetPlatform="(linux|darwin|win32|alpine)-/);
    });

    it('holds the bundle, the manifest, the icon and the documents, and nothing of the sources', () => {
        for (const name of ['extension/package.json', 'extension/dist/extension.js', 'extension/images/icon.png',
            'extension/readme.md', 'extension/changelog.md', 'extension/LICENSE.txt']) {
            assert.ok(entries.has(name), `${name} is missing`);
        }
        const stray = [...entries.keys()].filter((name) =>
            /^extension\/(src|test|scripts|node_modules|out|\.e2e)\//.test(name) || name.endsWith('.map') || name.endsWith('.ts') || /__pycache__|\.pyc$/.test(name));
        assert.deepEqual(stray, []);
        const packaged = JSON.parse(entries.get('extension/package.json').toString('utf8'));
        assert.equal(packaged.main, './dist/extension.js');
        assert.equal(packaged.icon, 'images/icon.png');
        assert.ok(packaged.categories.includes('Linters'));
        assert.deepEqual(packaged.capabilities.untrustedWorkspaces.restrictedConfigurations.slice(0, 3),
            ['gradguard.interpreter', 'gradguard.path', 'gradguard.importStrategy']);
        const icon = entries.get('extension/images/icon.png');
        assert.equal(icon.subarray(1, 4).toString('latin1'), 'PNG');
        assert.ok(icon.readUInt32BE(16) >= 128, 'the icon is at least 128 px wide');
    });

    it('bundles the extension into one file with vscode-languageclient inside', () => {
        const bundle = entries.get('extension/dist/extension.js').toString('utf8');
        assert.ok(!/require\(["']vscode-languageclient/.test(bundle), 'vscode-languageclient is bundled, not required');
        assert.ok(bundle.includes('gradguard.applyFixAll'));
        const scripts = [...entries.keys()].filter((name) => name.endsWith('.js') && name.startsWith('extension/') && !name.startsWith('extension/bundled/'));
        assert.deepEqual(scripts, ['extension/dist/extension.js']);
    });

    it('bundles the gradguard server from this checkout and its dependencies', () => {
        const libs = 'extension/bundled/libs/';
        for (const name of ['gradguard/server/__init__.py', 'gradguard/server/server.py', 'gradguard/rules/__init__.py',
            'pygls/__init__.py', 'lsprotocol/types.py', 'libcst/__init__.py', 'jedi/__init__.py', 'parso/__init__.py',
            'tensorflow-stubs/__init__.pyi', 'gradguard-bundle.json']) {
            assert.ok(entries.has(libs + name), `${libs + name} is missing`);
        }
        assert.ok(entries.has('extension/bundled/tool/lsp_server.py'));
        // The same server source as the repository's.
        assert.equal(entries.get(libs + 'gradguard/server/server.py').toString('utf8'),
            readFileSync(path.join(REPO, 'server', 'server.py'), 'utf8'));
        const data = [...entries.keys()].filter((name) => name.startsWith(libs + 'gradguard/rules/model/data/') && name.endsWith('.json'));
        assert.ok(data.length > 0, 'the rules data files');
    });

    it('has libcst compiled for Python 3.11 to 3.14', () => {
        const bundle = JSON.parse(entries.get('extension/bundled/libs/gradguard-bundle.json').toString('utf8'));
        assert.deepEqual(bundle.pythons, ['3.11', '3.12', '3.13', '3.14']);
        for (const version of ['311', '312', '313', '314']) {
            assert.ok([...entries.keys()].some((name) => new RegExp(`^extension/bundled/libs/libcst/native\\.cpython-${version}[-.]`).test(name)),
                `libcst's compiled parser for cp${version}`);
        }
    });
});

describe('the bundled server, unpacked, with a bare Python', () => {
    const launcher = () => path.join(unpacked, 'extension', 'bundled', 'tool', 'lsp_server.py');
    const bareEnv = () => {
        const env = { ...process.env, GRADGUARD_IMPORT_STRATEGY: 'useBundled', PYTHONNOUSERSITE: '1' };
        delete env.PYTHONPATH;
        delete env.VIRTUAL_ENV;
        return env;
    };

    it('passes the launcher check', () => {
        const result = spawnSync(PYTHON, [launcher(), '--check'], { encoding: 'utf8', env: bareEnv(), timeout: 60_000 });
        assert.equal(result.status, 0, result.stdout + result.stderr);
        const report = JSON.parse(result.stdout.trim().split('\n').pop());
        assert.equal(report.gradguard, manifest.version);
        assert.equal(report.bundled, true, `gradguard comes from the package, not ${report.location}`);
    });

    it('answers initialize and publishes GG101 for the DQN example', { timeout: 120_000 }, async () => {
        const example = path.join(unpacked, 'dqn_no_gradients.py');
        writeFileSync(example, readFileSync(path.join(REPO, 'examples', 'dqn_no_gradients.py')));
        const uri = pathToFileURL(example).href;
        const child = spawn(PYTHON, [launcher()], { env: bareEnv(), stdio: ['pipe', 'pipe', 'pipe'] });
        let stderr = '';
        child.stderr.on('data', (chunk) => { stderr += chunk; });
        const send = (message) => {
            const body = Buffer.from(JSON.stringify({ jsonrpc: '2.0', ...message }), 'utf8');
            child.stdin.write(`Content-Length: ${body.length}\r\n\r\n`);
            child.stdin.write(body);
        };
        const messages = [];
        let buffer = Buffer.alloc(0);
        let wake = () => undefined;
        child.stdout.on('data', (chunk) => {
            buffer = Buffer.concat([buffer, chunk]);
            for (;;) {
                const header = buffer.indexOf('\r\n\r\n');
                if (header < 0) break;
                const length = Number(/Content-Length: (\d+)/i.exec(buffer.subarray(0, header).toString('ascii'))?.[1]);
                if (buffer.length < header + 4 + length) break;
                messages.push(JSON.parse(buffer.subarray(header + 4, header + 4 + length).toString('utf8')));
                buffer = buffer.subarray(header + 4 + length);
                wake();
            }
        });
        const next = (predicate, timeoutMs = 60_000) => new Promise((resolve, reject) => {
            const timer = setTimeout(() => reject(new Error(`no such message; got ${JSON.stringify(messages).slice(0, 2000)}\nstderr: ${stderr}`)), timeoutMs);
            const check = () => {
                const found = messages.find(predicate);
                if (found) {
                    clearTimeout(timer);
                    resolve(found);
                } else {
                    wake = check;
                }
            };
            check();
        });
        try {
            send({ id: 1, method: 'initialize', params: { processId: process.pid, rootUri: pathToFileURL(unpacked).href, capabilities: {} } });
            const initialized = await next((m) => m.id === 1);
            assert.ok(initialized.result?.capabilities?.codeActionProvider, JSON.stringify(initialized));
            send({ method: 'initialized', params: {} });
            send({ method: 'textDocument/didOpen', params: { textDocument: { uri, languageId: 'python', version: 1, text: readFileSync(example, 'utf8') } } });
            const published = await next((m) => m.method === 'textDocument/publishDiagnostics' && m.params.uri === uri && m.params.diagnostics.length > 0);
            const codes = published.params.diagnostics.map((d) => `${d.code}@${d.range.start.line + 1}`);
            assert.ok(codes.includes('GG101@45'), codes.join(', '));
            assert.ok(published.params.diagnostics.every((d) => d.source === 'gradguard'));
            send({ id: 2, method: 'shutdown' });
            await next((m) => m.id === 2);
            send({ method: 'exit' });
            const code = await new Promise((resolve) => child.once('exit', resolve));
            assert.equal(code, 0, stderr);
        } finally {
            if (child.exitCode === null) child.kill();
        }
    });
});
