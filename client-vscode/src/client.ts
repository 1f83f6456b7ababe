// The language client (vscode-languageclient) for one server process. The only module that
// imports vscode-languageclient, so the launch logic can be tested without it.
import * as vscode from 'vscode';
import {
    ExecuteCommandRequest,
    LanguageClient,
    LanguageClientOptions,
    LogMessageNotification,
    MessageType,
    RevealOutputChannelOn,
    ServerOptions,
    State,
    TransportKind,
} from 'vscode-languageclient/node';
import { answerConfiguration } from './configuration';
import type { Launch } from './launch';
import { SECTION, type ServerSettings } from './settings';

export type ClientState = 'starting' | 'running' | 'stopped';

export interface ServerClient {
    start(): Promise<void>;
    stop(): Promise<void>;
    executeCommand(command: string, args: unknown[]): Promise<unknown>;
    readonly onDidChangeState: vscode.Event<ClientState>;
}

export type LogLevel = 'error' | 'warning' | 'info' | 'log';

export interface ClientInputs {
    log: vscode.LogOutputChannel;
    /** The `gradguard` section for a folder (its URI) or for the window. */
    serverSettings(scopeUri?: string): ServerSettings;
    /** Called for each window/logMessage after it is logged (for gradguard.showNotifications). */
    onLogMessage(level: LogLevel, message: string): void;
}

export type ClientFactory = (launch: Launch, inputs: ClientInputs) => ServerClient;

export const DOCUMENT_SELECTOR = [
    { scheme: 'file', language: 'python' },
    { scheme: 'untitled', language: 'python' },
    { scheme: 'vscode-notebook', notebook: 'jupyter-notebook' },
    { scheme: 'vscode-notebook-cell', language: 'python' },
];

export function clientOptions(inputs: ClientInputs): LanguageClientOptions {
    return {
        documentSelector: DOCUMENT_SELECTOR,
        outputChannel: inputs.log,
        traceOutputChannel: inputs.log,
        revealOutputChannelOn: RevealOutputChannelOn.Never,
        initializationOptions: { [SECTION]: inputs.serverSettings(undefined) },
        synchronize: { configurationSection: SECTION },
        middleware: {
            workspace: {
                configuration: (params, token, next) =>
                    answerConfiguration(params.items, inputs.serverSettings, () => next(params, token)),
            },
        },
    };
}

export const createClient: ClientFactory = (launch, inputs) => {
    const serverOptions: ServerOptions = {
        command: launch.command,
        args: launch.args,
        transport: TransportKind.stdio,
        options: { cwd: launch.cwd, env: launch.env },
    };
    const client = new LanguageClient(SECTION, 'gradguard', serverOptions, clientOptions(inputs));
    const states = new vscode.EventEmitter<ClientState>();
    client.onDidChangeState((event) => {
        states.fire(event.newState === State.Running ? 'running' : event.newState === State.Starting ? 'starting' : 'stopped');
    });
    return {
        async start() {
            await client.start();
            // Replaces the client's own handler: the same logging, plus the notifications.
            client.onNotification(LogMessageNotification.type, (message) => {
                const level: LogLevel = message.type === MessageType.Error ? 'error'
                    : message.type === MessageType.Warning ? 'warning'
                        : message.type === MessageType.Info ? 'info' : 'log';
                switch (level) {
                    case 'error': inputs.log.error(message.message); break;
                    case 'warning': inputs.log.warn(message.message); break;
                    case 'info': inputs.log.info(message.message); break;
                    default: inputs.log.debug(message.message);
                }
                inputs.onLogMessage(level, message.message);
            });
        },
        async stop() {
            try {
                if (client.isRunning()) {
                    await client.stop(5000);
                }
            } finally {
                await client.dispose().catch(() => undefined);
                states.dispose();
            }
        },
        executeCommand(command, args) {
            return client.sendRequest(ExecuteCommandRequest.type, { command, arguments: args });
        },
        onDidChangeState: states.event,
    };
};
