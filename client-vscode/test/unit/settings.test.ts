import assert from 'node:assert/strict';
import * as os from 'os';
import * as path from 'path';
import { beforeEach, describe, it } from 'node:test';
import { answerConfiguration } from '../../src/configuration';
import {
    needsRestart,
    projectRoot,
    readLaunchSettings,
    readServerSettings,
    resolveVariables,
} from '../../src/settings';
import manifest from '../../package.json';
import { folder } from './helpers';
import * as vscode from './vscode';

beforeEach(() => vscode.reset());

describe('the manifest', () => {
    const properties = manifest.contributes.configuration.properties as Record<string, { default?: unknown }>;

    it('declares every setting of the issue', () => {
        for (const key of ['enable', 'interpreter', 'importStrategy', 'path', 'args', 'select', 'ignore', 'severity', 'fixAll',
            'codeAction.disableRuleComment.enable', 'jedi.enable', 'showNotifications', 'trace.server']) {
            assert.ok(`gradguard.${key}` in properties, `gradguard.${key} is missing`);
        }
        assert.equal(properties['gradguard.importStrategy'].default, 'useBundled');
    });

    it('restricts the settings that choose an executable in untrusted workspaces', () => {
        const untrusted = manifest.capabilities.untrustedWorkspaces;
        assert.equal(untrusted.supported, 'limited');
        for (const key of ['gradguard.interpreter', 'gradguard.path', 'gradguard.importStrategy']) {
            assert.ok(untrusted.restrictedConfigurations.includes(key), key);
        }
    });

    it('contributes the three commands and activates for Python files and notebooks', () => {
        const titles = manifest.contributes.commands.map((c) => `${c.category}: ${c.title}`);
        assert.deepEqual(titles, ['gradguard: Restart Server', 'gradguard: Show Logs', 'gradguard: Fix All']);
        assert.ok(manifest.activationEvents.includes('onLanguage:python'));
        assert.ok(manifest.activationEvents.includes('onNotebook:jupyter-notebook'));
    });
});

describe('launch settings', () => {
    it('defaults: enabled, bundled server, no interpreter, no notifications', () => {
        assert.deepEqual(readLaunchSettings(), {
            enable: true, interpreter: [], path: [], importStrategy: 'useBundled', args: [], showNotifications: 'off',
        });
    });

    it('reads user, workspace and folder values, the most specific winning', () => {
        const root = folder('/work/project');
        vscode.workspace.workspaceFolders = [root];
        vscode.settings.user['gradguard.interpreter'] = ['/usr/bin/python3'];
        vscode.settings.workspace['gradguard.importStrategy'] = 'fromEnvironment';
        vscode.settings.folders.set('/work/project', { 'gradguard.args': ['--log-level', 'debug'] });
        const settings = readLaunchSettings(root);
        assert.deepEqual(settings.interpreter, ['/usr/bin/python3']);
        assert.equal(settings.importStrategy, 'fromEnvironment');
        assert.deepEqual(settings.args, ['--log-level', 'debug']);
    });

    it('in an untrusted workspace, takes executables from user settings only', () => {
        const root = folder('/work/untrusted');
        vscode.workspace.workspaceFolders = [root];
        vscode.workspace.isTrusted = false;
        vscode.settings.user['gradguard.interpreter'] = ['/usr/bin/python3'];
        vscode.settings.workspace['gradguard.interpreter'] = ['${workspaceFolder}/evil/python'];
        vscode.settings.workspace['gradguard.path'] = ['/work/untrusted/gradguard'];
        vscode.settings.folders.set('/work/untrusted', { 'gradguard.importStrategy': 'fromEnvironment', 'gradguard.args': ['--log-file', '/home/me/.bashrc'] });
        vscode.settings.workspace['gradguard.severity'] = { GG202: 'info' };
        const settings = readLaunchSettings(root);
        assert.deepEqual(settings.interpreter, ['/usr/bin/python3']);
        assert.deepEqual(settings.path, []);
        assert.equal(settings.importStrategy, 'useBundled');
        assert.deepEqual(settings.args, []);
        // Settings that choose no executable still come from the workspace.
        assert.deepEqual(readServerSettings(root.uri).severity, { GG202: 'info' });
    });

    it('expands ${workspaceFolder}, ${userHome}, ${env:NAME} and ~', () => {
        const root = folder('/work/project');
        assert.deepEqual(
            resolveVariables(['${workspaceFolder}/.venv/bin/python', '${userHome}/py', '~/bin/python3', '${env:GG_TEST}/python'], root, { GG_TEST: '/opt' }),
            ['/work/project/.venv/bin/python', path.join(os.homedir(), 'py'), path.join(os.homedir(), 'bin/python3'), '/opt/python'],
        );
    });

    it('accepts a string where a list is declared, and drops empty entries', () => {
        vscode.settings.user['gradguard.interpreter'] = '/usr/bin/python3';
        vscode.settings.user['gradguard.path'] = ['', '  '];
        assert.deepEqual(readLaunchSettings().interpreter, ['/usr/bin/python3']);
        assert.deepEqual(readLaunchSettings().path, []);
    });
});

describe('server settings', () => {
    it('defaults match the server defaults', () => {
        assert.deepEqual(readServerSettings(undefined), {
            enable: true, select: null, ignore: [], severity: {}, fixAll: true,
            codeAction: { disableRuleComment: { enable: true } }, jedi: { enable: true },
            lens: { hover: true, inlayHints: true },
        });
    });

    it('maps every setting to the key the server reads, per folder', () => {
        const a = folder('/work/a');
        const b = folder('/work/b', 1);
        vscode.workspace.workspaceFolders = [a, b];
        vscode.settings.workspace['gradguard.select'] = ['GG1', 'GG202'];
        vscode.settings.folders.set('/work/b', {
            'gradguard.ignore': ['GG303'],
            'gradguard.severity': { GG202: 'info', GG101: 7 },
            'gradguard.fixAll': false,
            'gradguard.codeAction.disableRuleComment.enable': false,
            'gradguard.jedi.enable': false,
            'gradguard.lens.inlayHints': false,
            'gradguard.enable': false,
        });
        assert.deepEqual(readServerSettings(a.uri), {
            enable: true, select: ['GG1', 'GG202'], ignore: [], severity: {}, fixAll: true,
            codeAction: { disableRuleComment: { enable: true } }, jedi: { enable: true },
            lens: { hover: true, inlayHints: true },
        });
        assert.deepEqual(readServerSettings(b.uri, '/venv/bin/python'), {
            enable: false, select: ['GG1', 'GG202'], ignore: ['GG303'], severity: { GG202: 'info' }, fixAll: false,
            codeAction: { disableRuleComment: { enable: false } }, jedi: { enable: false, environment: '/venv/bin/python' },
            lens: { hover: true, inlayHints: false },
        });
    });

    it('answers workspace/configuration for the gradguard section only', () => {
        const settings = (scope?: string) => ({ ...readServerSettings(undefined), ignore: [scope ?? 'window'] });
        const answer = answerConfiguration([{ section: 'gradguard', scopeUri: 'file:///work/a' }, { section: 'python' }], settings, () => 'next');
        assert.ok(Array.isArray(answer));
        assert.deepEqual((answer as { ignore: string[] }[])[0].ignore, ['file:///work/a']);
        assert.equal((answer as unknown[])[1], null);
        assert.equal(answerConfiguration([{ section: 'python' }], settings, () => 'next'), 'next');
        // Launch settings never reach the server.
        assert.ok(!('interpreter' in (answer as object[])[0]));
    });
});

describe('restart', () => {
    const change = (keys: string[]) => ({
        affectsConfiguration: (section: string) => keys.some((key) => key === section || key.startsWith(section + '.')),
    });

    it('is needed for the settings that shape the server process', () => {
        for (const key of ['enable', 'interpreter', 'path', 'importStrategy', 'args']) {
            assert.equal(needsRestart(change([`gradguard.${key}`])), true, key);
        }
    });

    it('is not needed for the settings the running server re-reads', () => {
        for (const key of ['select', 'ignore', 'severity', 'fixAll', 'codeAction.disableRuleComment.enable', 'jedi.enable', 'trace.server', 'showNotifications']) {
            assert.equal(needsRestart(change([`gradguard.${key}`])), false, key);
        }
        assert.equal(needsRestart(change(['editor.fontSize'])), false);
    });

    it('takes the launch settings from the outermost workspace folder', () => {
        vscode.workspace.workspaceFolders = [folder('/work/project/sub'), folder('/work/project', 1), folder('/work/other-project', 2)];
        assert.equal(projectRoot()?.uri.fsPath, '/work/project');
        vscode.workspace.workspaceFolders = undefined;
        assert.equal(projectRoot(), undefined);
    });
});
