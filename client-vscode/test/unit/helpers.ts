// Fakes for the unit tests: Python interpreters as small shell scripts that answer the launcher's
// --check like the real one, a language client that records what it was started with, and a
// Python extension API.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { ClientFactory, ClientInputs, ClientState, ServerClient } from '../../src/client';
import type { Launch } from '../../src/launch';
import type { PythonInterpreters } from '../../src/python';
import * as vscode from './vscode';

export function tempDir(prefix = 'gradguard-unit-'): string {
    return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/**
 * A fake interpreter: `python <launcher> --check` prints what the real launcher would print for
 * this version (an error for versions before 3.11).
 */
export function fakePython(dir: string, name = 'python3', version = '3.11.9'): string {
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, name);
    const [major, minor] = version.split('.').map(Number);
    const report = major > 3 || (major === 3 && minor >= 11)
        ? `{"executable": "${file}", "version": "${version}", "importStrategy": "$GRADGUARD_IMPORT_STRATEGY", "gradguard": "0.1.0", "location": "/bundled/gradguard/rules", "bundled": true}`
        : `{"executable": "${file}", "version": "${version}", "error": "Python ${major}.${minor} is too old: gradguard needs Python 3.11 or newer"}`;
    // Shell builtins only: the tests run with a PATH of a single folder.
    const quoted = report.replace(/\\/g, '\\\\').replace(/"/g, '\\"');
    fs.writeFileSync(file, `#!/bin/sh\nif [ "$2" = "--check" ]; then\n  echo "${quoted}"\n  exit 0\nfi\nexit 3\n`, { mode: 0o755 });
    return file;
}

/** A fake `gradguard` console script: `gradguard server --version`. */
export function fakeGradguard(dir: string): string {
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, 'gradguard');
    fs.writeFileSync(file, '#!/bin/sh\nif [ "$1 $2" = "server --version" ]; then echo "gradguard 0.1.0"; fi\n', { mode: 0o755 });
    return file;
}

export interface FakeClient extends ServerClient {
    launch: Launch;
    inputs: ClientInputs;
    running: boolean;
    stopped: boolean;
    commands: { command: string; args: unknown[] }[];
    states: vscode.EventEmitter<ClientState>;
}

/** A client factory that records every client; `events` lists starts and stops in order. */
export function fakeClients(options: { startDelayMs?: number; failStart?: boolean } = {}) {
    const clients: FakeClient[] = [];
    const events: string[] = [];
    const factory: ClientFactory = (launch, inputs) => {
        const states = new vscode.EventEmitter<ClientState>();
        const index = clients.length;
        const client: FakeClient = {
            launch, inputs, running: false, stopped: false, commands: [], states,
            async start() {
                events.push(`start ${index}`);
                states.fire('starting');
                await new Promise((resolve) => setTimeout(resolve, options.startDelayMs ?? 0));
                if (options.failStart) {
                    throw new Error('the server exited');
                }
                client.running = true;
                states.fire('running');
            },
            async stop() {
                events.push(`stop ${index}`);
                client.running = false;
                client.stopped = true;
                states.fire('stopped');
            },
            async executeCommand(command, args) {
                client.commands.push({ command, args });
                return null;
            },
            onDidChangeState: states.event as ServerClient['onDidChangeState'],
        };
        clients.push(client);
        return client;
    };
    return { clients, events, factory };
}

/** A Python extension whose selected interpreter the test changes. */
export function fakePythonExtension(selected: string | undefined) {
    const changed = new vscode.EventEmitter<unknown>();
    const api: PythonInterpreters & { current: string | undefined; select(path: string | undefined): void; calls: number } = {
        current: selected,
        calls: 0,
        async selected() {
            api.calls++;
            return api.current;
        },
        onDidChangeSelected: changed.event as PythonInterpreters['onDidChangeSelected'],
        select(value) {
            api.current = value;
            changed.fire({ path: value });
        },
    };
    vscode.installedExtensions.set('ms-python.python', { id: 'ms-python.python', isActive: true, exports: {}, activate: async () => ({}) });
    return api;
}

export function folder(fsPath: string, index = 0): vscode.WorkspaceFolder {
    return { uri: vscode.Uri.file(fsPath), name: path.basename(fsPath), index };
}

/** Waits until `predicate` holds (the controller restarts asynchronously). */
export async function until(predicate: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!predicate()) {
        if (Date.now() > deadline) {
            throw new Error(`timed out waiting for ${what}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 5));
    }
}

/** PATH with only these folders (restored by the returned function). */
export function withPath(...dirs: string[]): () => void {
    const saved = process.env.PATH;
    process.env.PATH = dirs.join(path.delimiter);
    return () => {
        process.env.PATH = saved;
    };
}
