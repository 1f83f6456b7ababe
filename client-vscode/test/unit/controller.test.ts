import assert from 'node:assert/strict';
import * as fs from 'fs';
import * as path from 'path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { COMMANDS, Controller, FIX_ALL_SERVER_COMMAND, type ControllerDeps } from '../../src/controller';
import type { PythonInterpreters } from '../../src/python';
import { fakeClients, fakeGradguard, fakePython, fakePythonExtension, folder, tempDir, until, withPath } from './helpers';
import * as vscode from './vscode';

const skip = process.platform === 'win32' ? 'the fake interpreters are shell scripts' : false;

let dir: string;
let restorePath: () => void;
let controller: Controller | undefined;

function start(python: PythonInterpreters | undefined, clients = fakeClients(), extra: Partial<ControllerDeps> = {}) {
    controller = new Controller({
        extensionPath: '/ext/gradguard',
        log: vscode.createLogChannel() as unknown as ControllerDeps['log'],
        createClient: clients.factory,
        loadPython: async () => python,
        ...extra,
    });
    return { controller, clients, ready: controller.activate() };
}

beforeEach(() => {
    vscode.reset();
    dir = tempDir();
    restorePath = withPath(path.join(dir, 'bin'));
    fakePython(path.join(dir, 'bin'));
    vscode.workspace.workspaceFolders = [folder(path.join(dir, 'project'))];
});

afterEach(async () => {
    await controller?.dispose();
    controller = undefined;
    restorePath();
    fs.rmSync(dir, { recursive: true, force: true });
});

describe('starting', { skip }, () => {
    it('starts the bundled server with python3 from PATH when nothing is configured', async () => {
        const { controller, clients, ready } = start(undefined);
        await ready;
        assert.equal(controller.state, 'running', JSON.stringify([vscode.recorded.messages, vscode.recorded.log]));
        assert.equal(clients.clients.length, 1);
        const launch = clients.clients[0].launch;
        assert.equal(launch.command, path.join(dir, 'bin', 'python3'));
        assert.equal(launch.args[0], path.join('/ext/gradguard', 'bundled', 'tool', 'lsp_server.py'));
        assert.equal(launch.env.GRADGUARD_IMPORT_STRATEGY, 'useBundled');
        assert.equal(launch.cwd, path.join(dir, 'project'));
        assert.match(controller.status.text, /\$\(check\) gradguard/);
        assert.match(String(controller.status.tooltip), /running/);
        assert.equal(controller.status.command, COMMANDS.showLogs);
        for (const command of Object.values(COMMANDS)) {
            assert.ok(vscode.registeredCommands.has(command), command);
        }
    });

    it('uses the interpreter selected in the Python extension', async () => {
        const selected = fakePython(path.join(dir, 'venv', 'bin'), 'python');
        const { clients, ready } = start(fakePythonExtension(selected));
        await ready;
        assert.equal(clients.clients[0].launch.command, selected);
    });

    it('sends the server settings at initialization and per folder, with jedi on the selected interpreter only for gradguard.path', async () => {
        vscode.settings.workspace['gradguard.severity'] = { GG202: 'info' };
        const { clients, ready } = start(undefined);
        await ready;
        const inputs = clients.clients[0].inputs;
        assert.deepEqual(inputs.serverSettings(undefined).severity, { GG202: 'info' });
        assert.equal(inputs.serverSettings(undefined).jedi.environment, undefined);

        vscode.settings.user['gradguard.path'] = [fakeGradguard(path.join(dir, 'gg'))];
        vscode.changeSettings(['gradguard.path']);
        await until(() => clients.clients.length === 2 && controller!.state === 'running', 'the restart');
        assert.deepEqual(clients.clients[1].launch.args, ['server']);
        assert.equal(clients.clients[1].inputs.serverSettings(undefined).jedi.environment, path.join(dir, 'bin', 'python3'));
    });

    it('does not start when gradguard.enable is false, and starts when it becomes true', async () => {
        vscode.settings.user['gradguard.enable'] = false;
        const { controller, clients, ready } = start(undefined);
        await ready;
        assert.equal(controller.state, 'disabled');
        assert.equal(clients.clients.length, 0);
        vscode.settings.user['gradguard.enable'] = true;
        vscode.changeSettings(['gradguard.enable']);
        await until(() => controller.state === 'running', 'the server to start');
        assert.equal(clients.clients.length, 1);
    });
});

describe('restarting', { skip }, () => {
    it('restarts on the Restart Server command: the old server stops before the new one starts', async () => {
        const { controller, clients, ready } = start(undefined);
        await ready;
        await vscode.commands.executeCommand(COMMANDS.restart);
        assert.deepEqual(clients.events, ['start 0', 'stop 0', 'start 1']);
        assert.equal(controller.state, 'running');
        assert.ok(clients.clients[0].stopped);
    });

    it('restarts with the new interpreter when gradguard.interpreter changes', async () => {
        const { clients, ready } = start(undefined);
        await ready;
        const other = fakePython(path.join(dir, 'other'));
        await vscode.getConfiguration('gradguard').update('interpreter', [other], vscode.ConfigurationTarget.Global);
        await until(() => clients.clients.length === 2 && clients.clients[1].running, 'the restart');
        assert.equal(clients.clients[1].launch.command, other);
    });

    it('restarts when the import strategy or the server arguments change', async () => {
        const { clients, ready } = start(undefined);
        await ready;
        vscode.settings.workspace['gradguard.importStrategy'] = 'fromEnvironment';
        vscode.changeSettings(['gradguard.importStrategy']);
        await until(() => clients.clients.length === 2 && clients.clients[1].running, 'the first restart');
        assert.equal(clients.clients[1].launch.env.GRADGUARD_IMPORT_STRATEGY, 'fromEnvironment');
        vscode.settings.workspace['gradguard.args'] = ['--log-level', 'debug'];
        vscode.changeSettings(['gradguard.args']);
        await until(() => clients.clients.length === 3 && clients.clients[2].running, 'the second restart');
        assert.deepEqual(clients.clients[2].launch.args.slice(1), ['--log-level', 'debug']);
    });

    it('does not restart for settings the running server re-reads', async () => {
        const { controller, clients, ready } = start(undefined);
        await ready;
        vscode.settings.workspace['gradguard.severity'] = { GG202: 'info' };
        vscode.changeSettings(['gradguard.severity', 'gradguard.select', 'gradguard.jedi.enable']);
        await new Promise((resolve) => setTimeout(resolve, 50));
        assert.equal(clients.clients.length, 1);
        assert.equal(controller.restarts.length, 1);
        // The running server reads the new value through workspace/configuration.
        assert.deepEqual(clients.clients[0].inputs.serverSettings(undefined).severity, { GG202: 'info' });
    });

    it('restarts when the Python extension selects another interpreter', async () => {
        const first = fakePython(path.join(dir, 'env1', 'bin'), 'python');
        const second = fakePython(path.join(dir, 'env2', 'bin'), 'python');
        const python = fakePythonExtension(first);
        const { clients, ready } = start(python);
        await ready;
        python.select(second);
        await until(() => clients.clients.length === 2 && clients.clients[1].running, 'the restart');
        assert.equal(clients.clients[1].launch.command, second);
        assert.deepEqual(clients.events, ['start 0', 'stop 0', 'start 1']);
    });

    it('restarts when the workspace becomes trusted, then uses the workspace settings', async () => {
        vscode.workspace.isTrusted = false;
        const chosen = fakePython(path.join(dir, 'project', '.venv', 'bin'));
        vscode.settings.workspace['gradguard.interpreter'] = [chosen];
        const { clients, ready } = start(undefined);
        await ready;
        assert.equal(clients.clients[0].launch.command, path.join(dir, 'bin', 'python3'), 'untrusted: the workspace does not choose');
        vscode.workspace.isTrusted = true;
        vscode.trustGranted.fire();
        await until(() => clients.clients.length === 2 && clients.clients[1].running, 'the restart');
        assert.equal(clients.clients[1].launch.command, chosen);
    });

    it('runs restarts one at a time, and restarts asked for meanwhile join one', async () => {
        const clients = fakeClients({ startDelayMs: 30 });
        const { controller, ready } = start(undefined, clients);
        await ready;
        await Promise.all([controller.restart('a'), controller.restart('b'), controller.restart('c'), controller.restart('d')]);
        // One restart was already running when the others came: they ran together once.
        assert.ok(clients.clients.length <= 3, `${clients.clients.length} clients`);
        assert.deepEqual(clients.events.slice(0, 3), ['start 0', 'stop 0', 'start 1']);
        for (let i = 0; i + 1 < clients.clients.length; i++) {
            assert.ok(clients.clients[i].stopped, `client ${i} was stopped`);
        }
        assert.equal(clients.clients.filter((c) => c.running).length, 1);
        assert.equal(controller.state, 'running');
    });
});

describe('when no server can start', { skip }, () => {
    it('without any Python: an error notification whose button picks an interpreter into user settings', async () => {
        restorePath();
        restorePath = withPath(path.join(dir, 'empty'));
        const picked = fakePython(path.join(dir, 'picked'));
        vscode.recorded.answer = 'Select Interpreter';
        vscode.recorded.openDialog = [vscode.Uri.file(picked)];
        const { controller, clients, ready } = start(undefined);
        await ready;
        const error = vscode.recorded.messages.find((m) => m.kind === 'error');
        assert.ok(error, 'an error notification');
        assert.match(error.message, /No Python interpreter found/);
        assert.deepEqual(error.buttons, ['Select Interpreter', 'Show Logs']);
        // The button opened a file dialog and wrote the choice to user settings; that restarts.
        await until(() => controller.state === 'running', 'the restart with the picked interpreter');
        assert.equal(vscode.recorded.openDialogCalls, 1);
        assert.deepEqual(vscode.settings.user['gradguard.interpreter'], [picked]);
        assert.equal(clients.clients[0].launch.command, picked);
    });

    it('with the Python extension installed, the button opens its interpreter picker', async () => {
        const old = fakePython(path.join(dir, 'old'), 'python', '3.9.18');
        vscode.recorded.answer = 'Select Interpreter';
        const { controller, ready } = start(fakePythonExtension(old));
        await ready;
        await until(() => vscode.recorded.executed.some((e) => e.command === 'python.setInterpreter'), 'python.setInterpreter');
        assert.equal(controller.state, 'error');
        assert.match(vscode.recorded.messages[0].message, /Python 3\.9\.18; gradguard needs Python 3\.11/);
        assert.match(controller.status.text, /\$\(error\)/);
    });

    it('a broken gradguard.path offers to open the settings', async () => {
        vscode.settings.user['gradguard.path'] = ['/missing/gradguard'];
        const { controller, ready } = start(undefined);
        await ready;
        assert.equal(controller.state, 'error');
        assert.deepEqual(vscode.recorded.messages[0].buttons, ['Open Settings', 'Show Logs']);
    });

    it('a server that fails to start leaves the error state and a notification', async () => {
        const { controller, ready } = start(undefined, fakeClients({ failStart: true }));
        await ready;
        assert.equal(controller.state, 'error');
        assert.match(vscode.recorded.messages[0].message, /failed to start: the server exited/);
    });
});

describe('commands and notifications', { skip }, () => {
    it('Fix All asks the server to apply its fixes to the active document', async () => {
        const { clients, ready } = start(undefined);
        await ready;
        const uri = vscode.Uri.file(path.join(dir, 'project', 'train.py'));
        vscode.window.activeTextEditor = { document: { uri, languageId: 'python' } };
        await vscode.commands.executeCommand(COMMANDS.fixAll);
        assert.deepEqual(clients.clients[0].commands, [{ command: FIX_ALL_SERVER_COMMAND, args: [uri.toString()] }]);
    });

    it('Fix All outside a Python file says so and sends nothing', async () => {
        const { clients, ready } = start(undefined);
        await ready;
        vscode.window.activeTextEditor = { document: { uri: vscode.Uri.file('/x/notes.md'), languageId: 'markdown' } };
        await vscode.commands.executeCommand(COMMANDS.fixAll);
        assert.equal(clients.clients[0].commands.length, 0);
        assert.match(vscode.recorded.messages[0].message, /open a Python file/);
    });

    it('Show Logs shows the output channel', async () => {
        const { ready } = start(undefined);
        await ready;
        await vscode.commands.executeCommand(COMMANDS.showLogs);
        assert.equal(vscode.recorded.logShown, 1);
    });

    it('gradguard.showNotifications decides which server log messages also notify', async () => {
        vscode.settings.user['gradguard.showNotifications'] = 'onWarning';
        const { clients, ready } = start(undefined);
        await ready;
        const inputs = clients.clients[0].inputs;
        inputs.onLogMessage('info', 'started');
        inputs.onLogMessage('warning', 'bad severity value');
        inputs.onLogMessage('error', 'analysis failed');
        assert.deepEqual(vscode.recorded.messages.map((m) => [m.kind, m.message]), [
            ['warning', 'gradguard: bad severity value'],
            ['error', 'gradguard: analysis failed'],
        ]);
    });

    it('by default the server log messages do not notify', async () => {
        const { clients, ready } = start(undefined);
        await ready;
        clients.clients[0].inputs.onLogMessage('error', 'analysis failed');
        assert.equal(vscode.recorded.messages.length, 0);
    });
});
