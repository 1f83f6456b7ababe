// gradguard for VS Code: starts the gradguard language server (bundled, or from the selected
// Python environment) with vscode-languageclient.
import * as vscode from 'vscode';
import { createClient } from './client';
import { Controller } from './controller';
import { loadPythonExtension } from './python';

let controller: Controller | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
    const log = vscode.window.createOutputChannel('gradguard', { log: true });
    context.subscriptions.push(log);
    log.info(`gradguard extension ${context.extension.packageJSON.version} in ${vscode.env.appName} ${vscode.version}`);
    controller = new Controller({
        extensionPath: context.extensionPath,
        log,
        createClient,
        loadPython: () => loadPythonExtension(log),
    });
    context.subscriptions.push({ dispose: () => void controller?.dispose() });
    await controller.activate();
}

export async function deactivate(): Promise<void> {
    const current = controller;
    controller = undefined;
    await current?.dispose();
}
