// The extension's settings: what starts the server (read once per start, from the project root
// folder) and what the server reads per folder through workspace/configuration.
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';

export const SECTION = 'gradguard';

export type ImportStrategy = 'useBundled' | 'fromEnvironment';
export type ShowNotifications = 'off' | 'onError' | 'onWarning' | 'always';

/** Settings that choose an executable: in an untrusted workspace only the user's own values count. */
export const RESTRICTED_KEYS = ['interpreter', 'path', 'importStrategy', 'args'] as const;

/** Settings whose change needs a new server process (the others reach the running server). */
export const RESTART_KEYS = ['enable', 'interpreter', 'path', 'importStrategy', 'args'] as const;

export interface LaunchSettings {
    enable: boolean;
    interpreter: string[];
    path: string[];
    importStrategy: ImportStrategy;
    args: string[];
    showNotifications: ShowNotifications;
}

/** What the server reads under `gradguard` (see the README's settings table). */
export interface ServerSettings {
    enable: boolean;
    select: string[] | null;
    ignore: string[];
    severity: Record<string, string>;
    fixAll: boolean;
    codeAction: { disableRuleComment: { enable: boolean } };
    jedi: { enable: boolean; environment?: string };
    lens: { hover: boolean; inlayHints: boolean };
}

type Scope = vscode.ConfigurationScope | undefined;

function config(scope: Scope): vscode.WorkspaceConfiguration {
    return vscode.workspace.getConfiguration(SECTION, scope);
}

/**
 * A setting's value; for a restricted setting in an untrusted workspace only the user's (global)
 * value or the default, whatever the workspace or folder says. VS Code does the same when the
 * manifest lists the key under restrictedConfigurations; this holds even where it does not.
 */
export function getSetting<T>(key: string, fallback: T, scope?: Scope): T {
    const cfg = config(scope);
    if ((RESTRICTED_KEYS as readonly string[]).includes(key) && !vscode.workspace.isTrusted) {
        const inspected = cfg.inspect<T>(key);
        const value = inspected?.globalValue ?? inspected?.defaultValue;
        return value === undefined ? fallback : value;
    }
    const value = cfg.get<T>(key);
    return value === undefined || value === null ? fallback : value;
}

function stringList(value: unknown): string[] {
    if (typeof value === 'string') {
        return value.trim() ? [value] : [];
    }
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string' && v.trim() !== '') : [];
}

/** `${workspaceFolder}`, `${userHome}`, `${env:NAME}` and a leading `~` in a path setting. */
export function resolveVariables(values: string[], folder?: vscode.WorkspaceFolder, env = process.env): string[] {
    const home = os.homedir();
    return values.map((value) => {
        let result = value
            .replace(/\$\{userHome\}/g, home)
            .replace(/\$\{env:([^}]+)\}/g, (_, name: string) => env[name] ?? '');
        if (folder) {
            result = result
                .replace(/\$\{workspaceFolder\}/g, folder.uri.fsPath)
                .replace(/\$\{workspaceFolderBasename\}/g, path.basename(folder.uri.fsPath));
        }
        if (result === '~' || result.startsWith('~/') || result.startsWith('~\\')) {
            result = path.join(home, result.slice(1));
        }
        return result;
    });
}

export function readLaunchSettings(folder?: vscode.WorkspaceFolder): LaunchSettings {
    const scope = folder?.uri;
    const strategy = getSetting<string>('importStrategy', 'useBundled', scope);
    const notify = getSetting<string>('showNotifications', 'off', scope);
    return {
        enable: getSetting<boolean>('enable', true, scope) !== false,
        interpreter: resolveVariables(stringList(getSetting<unknown>('interpreter', [], scope)), folder),
        path: resolveVariables(stringList(getSetting<unknown>('path', [], scope)), folder),
        importStrategy: strategy === 'fromEnvironment' ? 'fromEnvironment' : 'useBundled',
        args: stringList(getSetting<unknown>('args', [], scope)),
        showNotifications: (['off', 'onError', 'onWarning', 'always'] as string[]).includes(notify)
            ? (notify as ShowNotifications)
            : 'off',
    };
}

/**
 * The `gradguard` section the server gets for one folder (or the window, `scope` undefined).
 * `jediEnvironment`: the interpreter whose packages jedi should see, when it is not the one that
 * runs the server (with `gradguard.path`); otherwise jedi uses the server's own interpreter, which
 * sees the same packages plus the bundled TensorFlow stubs.
 */
export function readServerSettings(scope: Scope, jediEnvironment?: string): ServerSettings {
    const select = getSetting<unknown>('select', null, scope);
    const severity = getSetting<unknown>('severity', {}, scope);
    const settings: ServerSettings = {
        enable: getSetting<boolean>('enable', true, scope) !== false,
        select: Array.isArray(select) ? stringList(select) : null,
        ignore: stringList(getSetting<unknown>('ignore', [], scope)),
        severity: severity && typeof severity === 'object' && !Array.isArray(severity)
            ? Object.fromEntries(Object.entries(severity as Record<string, unknown>)
                .filter((entry): entry is [string, string] => typeof entry[1] === 'string'))
            : {},
        fixAll: getSetting<boolean>('fixAll', true, scope) !== false,
        codeAction: { disableRuleComment: { enable: getSetting<boolean>('codeAction.disableRuleComment.enable', true, scope) !== false } },
        jedi: { enable: getSetting<boolean>('jedi.enable', true, scope) !== false },
        lens: {
            hover: getSetting<boolean>('lens.hover', true, scope) !== false,
            inlayHints: getSetting<boolean>('lens.inlayHints', true, scope) !== false,
        },
    };
    if (jediEnvironment) {
        settings.jedi.environment = jediEnvironment;
    }
    return settings;
}

/** Whether a configuration change needs a new server for the workspace rooted at `folder`. */
export function needsRestart(event: vscode.ConfigurationChangeEvent, folder?: vscode.WorkspaceFolder): boolean {
    return RESTART_KEYS.some((key) => event.affectsConfiguration(`${SECTION}.${key}`, folder?.uri));
}

/**
 * The folder whose launch settings start the one server of the window: the shortest path among
 * the workspace folders (the parent in nested layouts), as the Python tool extensions do.
 */
export function projectRoot(): vscode.WorkspaceFolder | undefined {
    const folders = vscode.workspace.workspaceFolders ?? [];
    return [...folders].sort((a, b) => a.uri.fsPath.length - b.uri.fsPath.length)[0];
}
