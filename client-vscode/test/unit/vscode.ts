// A stand-in for the `vscode` module in the unit tests (esbuild aliases `vscode` to this file).
// Settings have user, workspace and folder layers over the defaults of the real package.json, and
// every window interaction is recorded and answered by the test.
import * as path from 'path';
import manifest from '../../package.json';

type Listener<T> = (event: T) => unknown;

export class Disposable {
    constructor(private readonly callback: () => void = () => undefined) {}
    static from(...items: { dispose(): unknown }[]): Disposable {
        return new Disposable(() => items.forEach((item) => item.dispose()));
    }
    dispose(): void {
        this.callback();
    }
}

export class EventEmitter<T> {
    private listeners: Listener<T>[] = [];
    event = (listener: Listener<T>): Disposable => {
        this.listeners.push(listener);
        return new Disposable(() => {
            this.listeners = this.listeners.filter((l) => l !== listener);
        });
    };
    fire(value: T): void {
        for (const listener of [...this.listeners]) {
            listener(value);
        }
    }
    dispose(): void {
        this.listeners = [];
    }
}

export class Uri {
    private constructor(readonly scheme: string, readonly fsPath: string) {}
    static file(fsPath: string): Uri {
        return new Uri('file', path.resolve(fsPath));
    }
    static parse(value: string): Uri {
        return value.startsWith('file://') ? Uri.file(decodeURIComponent(value.slice('file://'.length))) : new Uri('other', value);
    }
    get path(): string {
        return this.fsPath;
    }
    toString(): string {
        return this.scheme === 'file' ? `file://${this.fsPath}` : this.fsPath;
    }
}

export class ThemeColor {
    constructor(readonly id: string) {}
}

export enum StatusBarAlignment { Left = 1, Right = 2 }
export enum ConfigurationTarget { Global = 1, Workspace = 2, WorkspaceFolder = 3 }

export interface WorkspaceFolder { uri: Uri; name: string; index: number }

// --- settings ------------------------------------------------------------------------------

const properties = manifest.contributes.configuration.properties as Record<string, { default?: unknown }>;
const defaults: Record<string, unknown> = Object.fromEntries(Object.entries(properties).map(([key, p]) => [key, p.default]));

export const settings = {
    user: {} as Record<string, unknown>,
    workspace: {} as Record<string, unknown>,
    folders: new Map<string, Record<string, unknown>>(),
};

function folderOf(scope: unknown): WorkspaceFolder | undefined {
    const uri = scope instanceof Uri ? scope : (scope as { uri?: Uri } | undefined)?.uri;
    if (!uri) {
        return undefined;
    }
    return [...(workspace.workspaceFolders ?? [])]
        .filter((folder) => uri.fsPath === folder.uri.fsPath || uri.fsPath.startsWith(folder.uri.fsPath + path.sep))
        .sort((a, b) => b.uri.fsPath.length - a.uri.fsPath.length)[0];
}

export function getConfiguration(section: string, scope?: unknown) {
    const full = (key: string) => `${section}.${key}`;
    const folder = folderOf(scope);
    const layer = (values: Record<string, unknown> | undefined, key: string) => values?.[full(key)];
    return {
        get<T>(key: string, fallback?: T): T | undefined {
            const folderValue = folder ? layer(settings.folders.get(folder.uri.fsPath), key) : undefined;
            const value = folderValue ?? layer(settings.workspace, key) ?? layer(settings.user, key) ?? defaults[full(key)];
            return (value === undefined ? fallback : value) as T | undefined;
        },
        inspect<T>(key: string) {
            return {
                key: full(key),
                defaultValue: defaults[full(key)] as T | undefined,
                globalValue: layer(settings.user, key) as T | undefined,
                workspaceValue: layer(settings.workspace, key) as T | undefined,
                workspaceFolderValue: folder ? (layer(settings.folders.get(folder.uri.fsPath), key) as T | undefined) : undefined,
            };
        },
        has(key: string): boolean {
            return full(key) in defaults;
        },
        async update(key: string, value: unknown, target: ConfigurationTarget = ConfigurationTarget.Workspace): Promise<void> {
            const store = target === ConfigurationTarget.Global ? settings.user : settings.workspace;
            store[full(key)] = value;
            changeSettings([full(key)]);
        },
    };
}

/** Fires onDidChangeConfiguration for these full keys (after the test changed `settings`). */
export function changeSettings(keys: string[]): void {
    configurationChanged.fire({
        affectsConfiguration: (section: string) => keys.some((key) => key === section || key.startsWith(section + '.') || section.startsWith(key + '.')),
    });
}

const configurationChanged = new EventEmitter<{ affectsConfiguration(section: string, scope?: unknown): boolean }>();
export const trustGranted = new EventEmitter<void>();
const foldersChanged = new EventEmitter<unknown>();

export const workspace = {
    isTrusted: true,
    workspaceFolders: undefined as WorkspaceFolder[] | undefined,
    getConfiguration,
    onDidChangeConfiguration: configurationChanged.event,
    onDidGrantWorkspaceTrust: trustGranted.event,
    onDidChangeWorkspaceFolders: foldersChanged.event,
};

// --- window ----------------------------------------------------------------------------------

export interface Shown { kind: 'error' | 'warning' | 'info'; message: string; buttons: string[] }

export const recorded = {
    messages: [] as Shown[],
    /** The button the next notification "clicks" (undefined: dismissed). */
    answer: undefined as string | undefined,
    openDialog: undefined as Uri[] | undefined,
    openDialogCalls: 0,
    executed: [] as { command: string; args: unknown[] }[],
    logShown: 0,
    log: [] as string[],
};

function show(kind: Shown['kind']) {
    return (message: string, ...buttons: unknown[]) => {
        const labels = buttons.filter((b): b is string => typeof b === 'string');
        recorded.messages.push({ kind, message, buttons: labels });
        return Promise.resolve(labels.includes(recorded.answer ?? '') ? recorded.answer : undefined);
    };
}

export class StatusBarItem {
    text = '';
    tooltip: string | undefined;
    name: string | undefined;
    command: string | undefined;
    backgroundColor: ThemeColor | undefined;
    visible = false;
    show(): void { this.visible = true; }
    hide(): void { this.visible = false; }
    dispose(): void { this.visible = false; }
}

export function createLogChannel() {
    const line = (level: string) => (message: string) => void recorded.log.push(`[${level}] ${message}`);
    return {
        name: 'gradguard',
        logLevel: 2,
        onDidChangeLogLevel: new EventEmitter<number>().event,
        trace: line('trace'), debug: line('debug'), info: line('info'), warn: line('warn'), error: line('error'),
        append: line('append'), appendLine: line('append'), replace: () => undefined, clear: () => undefined,
        show: () => void recorded.logShown++, hide: () => undefined, dispose: () => undefined,
    };
}

export const window = {
    activeTextEditor: undefined as { document: { uri: Uri; languageId: string } } | undefined,
    createStatusBarItem: () => new StatusBarItem(),
    createOutputChannel: () => createLogChannel(),
    showErrorMessage: show('error'),
    showWarningMessage: show('warning'),
    showInformationMessage: show('info'),
    showOpenDialog: async () => {
        recorded.openDialogCalls++;
        return recorded.openDialog;
    },
};

// --- commands and extensions -----------------------------------------------------------------

export const registeredCommands = new Map<string, (...args: unknown[]) => unknown>();

export const commands = {
    registerCommand(command: string, callback: (...args: unknown[]) => unknown): Disposable {
        registeredCommands.set(command, callback);
        return new Disposable(() => registeredCommands.delete(command));
    },
    async executeCommand(command: string, ...args: unknown[]): Promise<unknown> {
        recorded.executed.push({ command, args });
        return registeredCommands.get(command)?.(...args);
    },
};

export const installedExtensions = new Map<string, { id: string; isActive: boolean; exports: unknown; activate(): Promise<unknown> }>();
const extensionsChanged = new EventEmitter<void>();

export const extensions = {
    getExtension: (id: string) => installedExtensions.get(id),
    onDidChange: extensionsChanged.event,
    fireChange: () => extensionsChanged.fire(),
};

export const env = { appName: 'stub' };
export const version = '1.93.0';

/** Everything back to a fresh window (call in beforeEach). */
export function reset(): void {
    settings.user = {};
    settings.workspace = {};
    settings.folders.clear();
    workspace.isTrusted = true;
    workspace.workspaceFolders = undefined;
    window.activeTextEditor = undefined;
    recorded.messages = [];
    recorded.answer = undefined;
    recorded.openDialog = undefined;
    recorded.openDialogCalls = 0;
    recorded.executed = [];
    recorded.logShown = 0;
    recorded.log = [];
    registeredCommands.clear();
    installedExtensions.clear();
    for (const emitter of [configurationChanged, trustGranted, foldersChanged, extensionsChanged]) {
        (emitter as EventEmitter<unknown>).dispose();
    }
}
