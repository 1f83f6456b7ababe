// The one gradguard server of the window: starting it, restarting it when its interpreter or a
// launch setting changes, its status bar item, its commands and its notifications.
import * as vscode from 'vscode';
import type { ClientFactory, LogLevel, ServerClient } from './client';
import { buildLaunch, Launch, LaunchError, Probe, probe as defaultProbe, resolveInterpreter } from './launch';
import { PYTHON_EXTENSION_ID, type PythonInterpreters } from './python';
import { needsRestart, projectRoot, readLaunchSettings, readServerSettings, SECTION, ShowNotifications } from './settings';

export const FIX_ALL_SERVER_COMMAND = 'gradguard.applyFixAll';

export const COMMANDS = {
    restart: 'gradguard.restart',
    showLogs: 'gradguard.showLogs',
    fixAll: 'gradguard.fixAll',
} as const;

export type ServerState = 'starting' | 'running' | 'stopped' | 'disabled' | 'error';

export interface ControllerDeps {
    extensionPath: string;
    log: vscode.LogOutputChannel;
    createClient: ClientFactory;
    loadPython(): Promise<PythonInterpreters | undefined>;
    probe?(launch: Launch): Promise<Probe>;
}

const ICONS: Record<ServerState, string> = {
    starting: '$(loading~spin)',
    running: '$(check)',
    stopped: '$(debug-stop)',
    disabled: '$(circle-slash)',
    error: '$(error)',
};

const NOTIFY_LEVELS: Record<ShowNotifications, LogLevel[]> = {
    off: [],
    onError: ['error'],
    onWarning: ['error', 'warning'],
    always: ['error', 'warning', 'info'],
};

export class Controller implements vscode.Disposable {
    state: ServerState = 'stopped';
    launch?: Launch;
    client?: ServerClient;
    /** Every restart that ran, with its reason (for the log and the tests). */
    readonly restarts: string[] = [];
    readonly status: vscode.StatusBarItem;
    private readonly disposables: vscode.Disposable[] = [];
    private python?: PythonInterpreters;
    private pythonSubscription?: vscode.Disposable;
    private pythonInstalled = false;
    private queue: Promise<void> = Promise.resolve();
    private queued?: Promise<void>;
    private queuedReasons: string[] = [];
    private disposed = false;
    private showNotifications: ShowNotifications = 'off';

    constructor(private readonly deps: ControllerDeps) {
        this.status = vscode.window.createStatusBarItem(`${SECTION}.status`, vscode.StatusBarAlignment.Right, 100);
        this.status.name = 'gradguard';
        this.status.command = COMMANDS.showLogs;
        this.setState('stopped');
        this.status.show();
        this.disposables.push(this.status);
    }

    /** Registers the commands and listeners, then starts the server. */
    async activate(): Promise<void> {
        this.disposables.push(
            vscode.commands.registerCommand(COMMANDS.restart, () => this.restart('the Restart Server command')),
            vscode.commands.registerCommand(COMMANDS.showLogs, () => this.deps.log.show()),
            vscode.commands.registerCommand(COMMANDS.fixAll, () => this.fixAll()),
            vscode.workspace.onDidChangeConfiguration((event) => {
                if (needsRestart(event, projectRoot())) {
                    void this.restart('a gradguard setting changed');
                }
            }),
            vscode.workspace.onDidGrantWorkspaceTrust(() => this.restart('the workspace is now trusted')),
            vscode.workspace.onDidChangeWorkspaceFolders(() => this.restart('the workspace folders changed')),
            vscode.extensions.onDidChange(() => {
                const installed = vscode.extensions.getExtension(PYTHON_EXTENSION_ID) !== undefined;
                if (installed !== this.pythonInstalled) {
                    void this.restart(installed ? 'the Python extension was installed' : 'the Python extension was removed', true);
                }
            }),
        );
        await this.restart('activation', true);
    }

    /**
     * Stops the running server (if any) and starts a new one with the current settings. Restarts
     * run one at a time; those asked for while one waits join it.
     */
    restart(reason: string, reloadPython = false): Promise<void> {
        this.queuedReasons.push(reason);
        if (reloadPython) {
            this.python = undefined;
        }
        if (!this.queued) {
            this.queued = this.queue = this.queue.then(async () => {
                const reasons = this.queuedReasons.splice(0);
                this.queued = undefined;
                await this.restartNow(reasons.join('; ')).catch((error: unknown) => this.reportFailure(error));
            });
        }
        return this.queued;
    }

    private async restartNow(reason: string): Promise<void> {
        if (this.disposed) {
            return;
        }
        this.restarts.push(reason);
        this.deps.log.info(`Starting the server (${reason}).`);
        await this.stopClient();
        const root = projectRoot();
        const settings = readLaunchSettings(root);
        this.showNotifications = settings.showNotifications;
        if (!settings.enable) {
            this.setState('disabled', 'gradguard.enable is false');
            this.deps.log.info('gradguard.enable is false: the server is not started.');
            return;
        }
        this.setState('starting');
        try {
            await this.loadPython();
            const interpreter = await resolveInterpreter(settings, this.python, {
                resource: root?.uri,
                trusted: vscode.workspace.isTrusted,
                workspaceFolders: (vscode.workspace.workspaceFolders ?? []).map((folder) => folder.uri.fsPath),
            }).catch((error: unknown) => {
                if (settings.path.length > 0) {
                    return undefined; // gradguard.path needs no interpreter; jedi then uses the server's own
                }
                throw error;
            });
            const launch = buildLaunch(settings, interpreter, this.deps.extensionPath, root?.uri.fsPath);
            this.deps.log.info(`Server command: ${launch.description}`);
            const report = await (this.deps.probe ?? defaultProbe)(launch);
            this.deps.log.info(report.executable
                ? `Python ${report.version} at ${report.executable}; gradguard ${report.gradguard} from ${report.location}${report.bundled ? ' (bundled)' : ''}`
                : `gradguard ${report.gradguard} at ${report.location}`);
            if (this.disposed) {
                return;
            }
            this.launch = launch;
            const client = this.deps.createClient(launch, {
                log: this.deps.log,
                serverSettings: (scopeUri) => readServerSettings(scopeUri ? vscode.Uri.parse(scopeUri) : root?.uri, launch.jediEnvironment),
                onLogMessage: (level, message) => this.onLogMessage(level, message),
            });
            this.client = client;
            client.onDidChangeState((state) => {
                if (this.client === client) {
                    this.setState(state, state === 'running' ? `gradguard ${report.gradguard}, ${launch.description}` : undefined);
                }
            });
            await client.start();
            this.setState('running', `gradguard ${report.gradguard}, ${launch.description}`);
        } catch (error) {
            await this.stopClient();
            this.reportFailure(error);
        }
    }

    private async loadPython(): Promise<void> {
        this.pythonInstalled = vscode.extensions.getExtension(PYTHON_EXTENSION_ID) !== undefined;
        if (this.python || !this.pythonInstalled) {
            return;
        }
        this.pythonSubscription?.dispose();
        this.python = await this.deps.loadPython();
        this.pythonSubscription = this.python?.onDidChangeSelected(() => {
            void this.restart('the Python interpreter changed');
        });
    }

    private async stopClient(): Promise<void> {
        const client = this.client;
        this.client = undefined;
        this.launch = undefined;
        if (client) {
            try {
                await client.stop();
            } catch (error) {
                this.deps.log.warn(`Stopping the server failed: ${String(error)}`);
            }
            this.setState('stopped');
        }
    }

    private reportFailure(error: unknown): void {
        const launchError = error instanceof LaunchError ? error : undefined;
        const message = launchError?.message ?? `The gradguard server failed to start: ${error instanceof Error ? error.message : String(error)}`;
        this.deps.log.error(message);
        if (launchError?.detail) {
            this.deps.log.error(launchError.detail);
        }
        this.setState('error', message);
        void this.notifyFailure(message, launchError?.kind);
    }

    /** A server that cannot start is always reported, with a way out. */
    async notifyFailure(message: string, kind?: LaunchError['kind']): Promise<void> {
        const pick = 'Select Interpreter';
        const settings = 'Open Settings';
        const logs = 'Show Logs';
        const buttons = kind === 'bad-path' ? [settings, logs] : [pick, logs];
        const choice = await vscode.window.showErrorMessage(`gradguard: ${message}`, ...buttons);
        if (choice === pick) {
            await this.pickInterpreter();
        } else if (choice === settings) {
            await vscode.commands.executeCommand('workbench.action.openSettings', `${SECTION}.path`);
        } else if (choice === logs) {
            this.deps.log.show();
        }
    }

    /** The Python extension's picker when it is installed, else a file dialog into gradguard.interpreter. */
    async pickInterpreter(): Promise<void> {
        if (vscode.extensions.getExtension(PYTHON_EXTENSION_ID)) {
            await vscode.commands.executeCommand('python.setInterpreter');
            return;
        }
        const picked = await vscode.window.showOpenDialog({
            canSelectFiles: true,
            canSelectFolders: false,
            canSelectMany: false,
            title: 'Select a Python 3.11+ interpreter for gradguard',
            openLabel: 'Use this interpreter',
        });
        if (picked && picked.length > 0) {
            // User settings: a workspace may not choose an executable (untrusted workspaces).
            await vscode.workspace.getConfiguration(SECTION).update('interpreter', [picked[0].fsPath], vscode.ConfigurationTarget.Global);
        }
    }

    private onLogMessage(level: LogLevel, message: string): void {
        if (!NOTIFY_LEVELS[this.showNotifications].includes(level)) {
            return;
        }
        const text = `gradguard: ${message}`;
        if (level === 'error') {
            void vscode.window.showErrorMessage(text);
        } else if (level === 'warning') {
            void vscode.window.showWarningMessage(text);
        } else {
            void vscode.window.showInformationMessage(text);
        }
    }

    /** "gradguard: Fix All": the server's safe fixes for the active document, as one edit. */
    async fixAll(): Promise<void> {
        const editor = vscode.window.activeTextEditor;
        if (!editor || editor.document.languageId !== 'python') {
            void vscode.window.showInformationMessage('gradguard: open a Python file to fix.');
            return;
        }
        if (!this.client || this.state !== 'running') {
            void vscode.window.showWarningMessage('gradguard: the server is not running.', 'Show Logs')
                .then((choice) => choice && this.deps.log.show());
            return;
        }
        try {
            await this.client.executeCommand(FIX_ALL_SERVER_COMMAND, [editor.document.uri.toString()]);
        } catch (error) {
            this.deps.log.error(`Fix All failed: ${String(error)}`);
            void vscode.window.showErrorMessage(`gradguard: Fix All failed: ${error instanceof Error ? error.message : String(error)}`);
        }
    }

    setState(state: ServerState, detail?: string): void {
        this.state = state;
        this.status.text = `${ICONS[state]} gradguard`;
        const words: Record<ServerState, string> = {
            starting: 'starting', running: 'running', stopped: 'stopped', disabled: 'disabled', error: 'cannot start',
        };
        this.status.tooltip = `gradguard server: ${words[state]}${detail ? `\n${detail}` : ''}\nClick to show the logs.`;
        this.status.backgroundColor = state === 'error' ? new vscode.ThemeColor('statusBarItem.errorBackground') : undefined;
    }

    async dispose(): Promise<void> {
        this.disposed = true;
        this.pythonSubscription?.dispose();
        for (const disposable of this.disposables.splice(0)) {
            disposable.dispose();
        }
        await this.queue.catch(() => undefined);
        await this.stopClient();
    }
}
