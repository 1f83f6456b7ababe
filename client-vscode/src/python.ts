// The Python extension's published API (@vscode/python-extension): the interpreter selected for a
// resource, and an event when that selection changes.
import * as vscode from 'vscode';
import { PythonExtension } from '@vscode/python-extension';

export const PYTHON_EXTENSION_ID = 'ms-python.python';

export interface PythonInterpreters {
    /** The executable of the interpreter selected for `resource`, if the extension knows one. */
    selected(resource?: vscode.Uri): Promise<string | undefined>;
    readonly onDidChangeSelected: vscode.Event<unknown>;
}

/** The Python extension's interpreters, or undefined when it is not installed or fails to load. */
export async function loadPythonExtension(log?: vscode.LogOutputChannel): Promise<PythonInterpreters | undefined> {
    if (!vscode.extensions.getExtension(PYTHON_EXTENSION_ID)) {
        return undefined;
    }
    let api: PythonExtension;
    try {
        api = await PythonExtension.api();
    } catch (error) {
        log?.warn(`The Python extension is installed but its API is unavailable: ${String(error)}`);
        return undefined;
    }
    return {
        async selected(resource?: vscode.Uri): Promise<string | undefined> {
            const active = api.environments.getActiveEnvironmentPath(resource);
            const resolved = await api.environments.resolveEnvironment(active);
            return resolved?.executable.uri?.fsPath;
        },
        onDidChangeSelected: api.environments.onDidChangeActiveEnvironmentPath,
    };
}
