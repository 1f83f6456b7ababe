import assert from 'node:assert/strict';
import * as fs from 'fs';
import * as path from 'path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { buildLaunch, findOnPath, launcherPath, LaunchError, probe, resolveInterpreter } from '../../src/launch';
import { readLaunchSettings, type LaunchSettings } from '../../src/settings';
import { fakeGradguard, fakePython, fakePythonExtension, tempDir } from './helpers';
import * as vscode from './vscode';

const EXTENSION = '/ext/gradguard';

function settings(overrides: Partial<LaunchSettings> = {}): LaunchSettings {
    return { ...readLaunchSettings(), ...overrides };
}

const skipOnWindows = process.platform === 'win32' ? 'the fake interpreters are shell scripts' : false;

let dir: string;
beforeEach(() => {
    vscode.reset();
    dir = tempDir();
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('interpreter resolution', { skip: skipOnWindows }, () => {
    it('uses gradguard.interpreter first: the first path that exists', async () => {
        const python = fakePython(path.join(dir, 'chosen'));
        const selected = fakePython(path.join(dir, 'selected'));
        const onPath = fakePython(path.join(dir, 'bin'));
        const found = await resolveInterpreter(settings({ interpreter: [path.join(dir, 'missing'), python] }), fakePythonExtension(selected),
            { trusted: true, env: { PATH: path.dirname(onPath) } });
        assert.deepEqual(found, { path: python, source: 'gradguard.interpreter' });
    });

    it('fails clearly when gradguard.interpreter names nothing that exists', async () => {
        await assert.rejects(
            resolveInterpreter(settings({ interpreter: ['/nowhere/python3'] }), undefined, { trusted: true, env: { PATH: '' } }),
            (error: LaunchError) => error.kind === 'no-python' && /\/nowhere\/python3/.test(error.message),
        );
    });

    it('then the interpreter selected in the Python extension', async () => {
        const selected = fakePython(path.join(dir, 'venv', 'bin'), 'python');
        const onPath = fakePython(path.join(dir, 'bin'));
        const found = await resolveInterpreter(settings(), fakePythonExtension(selected), { trusted: true, env: { PATH: path.dirname(onPath) } });
        assert.deepEqual(found, { path: selected, source: 'Python extension' });
    });

    it('then python3 on PATH, as an absolute path', async () => {
        const onPath = fakePython(path.join(dir, 'bin'));
        const found = await resolveInterpreter(settings(), fakePythonExtension(undefined),
            { trusted: true, env: { PATH: ['relative/bin', path.join(dir, 'empty'), path.dirname(onPath)].join(path.delimiter) } });
        assert.deepEqual(found, { path: onPath, source: 'PATH' });
    });

    it('skips relative PATH entries (a python3 in the current folder is not taken)', () => {
        const cwd = process.cwd();
        try {
            fakePython(path.join(dir, 'here'));
            process.chdir(path.join(dir, 'here'));
            assert.equal(findOnPath(['python3'], { PATH: `.${path.delimiter}` }), undefined);
        } finally {
            process.chdir(cwd);
        }
    });

    it('in an untrusted workspace, ignores the Python extension and PATH entries inside the workspace', async () => {
        const workspace = path.join(dir, 'workspace');
        const venv = fakePython(path.join(workspace, '.venv', 'bin'));
        const system = fakePython(path.join(dir, 'usr', 'bin'));
        const python = fakePythonExtension(venv);
        const found = await resolveInterpreter(settings(), python, {
            trusted: false,
            workspaceFolders: [workspace],
            env: { PATH: [path.dirname(venv), path.dirname(system)].join(path.delimiter) },
        });
        assert.deepEqual(found, { path: system, source: 'PATH' });
        assert.equal(python.calls, 0);
    });

    it('reports no interpreter at all', async () => {
        await assert.rejects(resolveInterpreter(settings(), undefined, { trusted: true, env: { PATH: path.join(dir, 'empty') } }),
            (error: LaunchError) => error.kind === 'no-python' && /gradguard\.interpreter/.test(error.message));
    });
});

describe('import strategy and the command line', () => {
    const interpreter = { path: '/usr/bin/python3', source: 'PATH' as const };

    it('useBundled: the interpreter runs the bundled launcher, libraries first', () => {
        const launch = buildLaunch(settings({ args: ['--log-level', 'debug'] }), interpreter, EXTENSION, '/work');
        assert.equal(launch.command, '/usr/bin/python3');
        assert.deepEqual(launch.args, [path.join(EXTENSION, 'bundled', 'tool', 'lsp_server.py'), '--log-level', 'debug']);
        assert.equal(launch.env.GRADGUARD_IMPORT_STRATEGY, 'useBundled');
        assert.equal(launch.cwd, '/work');
        assert.equal(launch.jediEnvironment, undefined, 'jedi uses the interpreter that runs the server');
    });

    it('fromEnvironment: the same launcher, told to prefer the environment', () => {
        const launch = buildLaunch(settings({ importStrategy: 'fromEnvironment' }), interpreter, EXTENSION);
        assert.deepEqual(launch.args, [launcherPath(EXTENSION)]);
        assert.equal(launch.env.GRADGUARD_IMPORT_STRATEGY, 'fromEnvironment');
    });

    it('gradguard.path wins over the import strategy, and jedi gets the selected interpreter', { skip: skipOnWindows }, () => {
        const gradguard = fakeGradguard(path.join(dir, 'bin'));
        const launch = buildLaunch(settings({ path: ['/missing/gradguard', gradguard], args: ['--log-level', 'info'] }), interpreter, EXTENSION);
        assert.equal(launch.command, gradguard);
        assert.deepEqual(launch.args, ['server', '--log-level', 'info']);
        assert.equal(launch.jediEnvironment, '/usr/bin/python3');
    });

    it('gradguard.path that names nothing is an error of its own', () => {
        assert.throws(() => buildLaunch(settings({ path: ['/missing/gradguard'] }), interpreter, EXTENSION),
            (error: LaunchError) => error.kind === 'bad-path');
    });

    it('the real launcher runs with any Python: the manifest ships it', () => {
        assert.ok(fs.existsSync(launcherPath(path.resolve(__dirname, '..', '..'))));
    });
});

describe('the check before the start', { skip: skipOnWindows }, () => {
    const launchWith = (python: string, strategy: 'useBundled' | 'fromEnvironment' = 'useBundled') =>
        buildLaunch(settings({ importStrategy: strategy }), { path: python, source: 'PATH' }, EXTENSION);

    it('reads what the launcher reports', async () => {
        const python = fakePython(path.join(dir, 'bin'));
        const report = await probe(launchWith(python, 'fromEnvironment'));
        assert.equal(report.gradguard, '0.1.0');
        assert.equal(report.executable, python);
    });

    it('turns a too old Python into a bad-python error naming the version', async () => {
        const python = fakePython(path.join(dir, 'old'), 'python3', '3.10.4');
        await assert.rejects(probe(launchWith(python)),
            (error: LaunchError) => error.kind === 'bad-python' && /3\.10\.4/.test(error.message) && /3\.11/.test(error.message));
    });

    it('turns a program that is no Python into a bad-python error', async () => {
        const notPython = path.join(dir, 'python3');
        fs.writeFileSync(notPython, '#!/bin/sh\necho hello; exit 1\n', { mode: 0o755 });
        await assert.rejects(probe(launchWith(notPython)), (error: LaunchError) => error.kind === 'bad-python');
    });

    it('checks a gradguard executable with `server --version`', async () => {
        const gradguard = fakeGradguard(path.join(dir, 'bin'));
        const report = await probe(buildLaunch(settings({ path: [gradguard] }), undefined, EXTENSION));
        assert.equal(report.gradguard, '0.1.0');
        const broken = path.join(dir, 'broken');
        fs.writeFileSync(broken, '#!/bin/sh\nexit 1\n', { mode: 0o755 });
        await assert.rejects(probe(buildLaunch(settings({ path: [broken] }), undefined, EXTENSION)),
            (error: LaunchError) => error.kind === 'bad-path');
    });
});
