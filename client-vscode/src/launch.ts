// How the server is started: which interpreter, which gradguard, which command line. Everything
// is by absolute path: VS Code gives the extension host a PATH of its own.
import { execFile } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { LaunchSettings } from './settings';
import type { PythonInterpreters } from './python';

export type InterpreterSource = 'gradguard.interpreter' | 'Python extension' | 'PATH';

export interface Interpreter {
    path: string;
    source: InterpreterSource;
}

export type LaunchErrorKind = 'no-python' | 'bad-python' | 'no-server' | 'bad-path';

/** A server that cannot start, with what the user can do about it. */
export class LaunchError extends Error {
    constructor(readonly kind: LaunchErrorKind, message: string, readonly detail?: string) {
        super(message);
    }
}

export interface Launch {
    command: string;
    args: string[];
    env: NodeJS.ProcessEnv;
    cwd?: string;
    /** The interpreter the user chose (for jedi, when the server runs on another one). */
    interpreter?: Interpreter;
    /** Set when the server does not run on `interpreter`: jedi should search that environment. */
    jediEnvironment?: string;
    /** One line for the log. */
    description: string;
}

/** What `lsp_server.py --check` (or `gradguard server --version`) said. */
export interface Probe {
    executable?: string;
    version?: string;
    gradguard?: string;
    location?: string;
    bundled?: boolean;
    error?: string;
}

export function isFile(candidate: string): boolean {
    try {
        return fs.statSync(candidate).isFile();
    } catch {
        return false;
    }
}

function isInside(child: string, parent: string): boolean {
    const relative = path.relative(parent, child);
    return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/**
 * An executable on PATH, as an absolute path. Relative PATH entries are skipped, and so are
 * folders inside `exclude` (the workspace folders of an untrusted workspace).
 */
export function findOnPath(names: string[], env: NodeJS.ProcessEnv = process.env, exclude: string[] = []): string | undefined {
    const dirs = (env.PATH ?? env.Path ?? '').split(path.delimiter).filter((dir) => dir && path.isAbsolute(dir));
    for (const dir of dirs) {
        if (exclude.some((folder) => isInside(dir, folder))) {
            continue;
        }
        for (const name of names) {
            const candidate = path.join(dir, name);
            try {
                fs.accessSync(candidate, fs.constants.X_OK);
                if (fs.statSync(candidate).isFile()) {
                    return candidate;
                }
            } catch {
                // not here
            }
        }
    }
    return undefined;
}

export const PYTHON_NAMES = process.platform === 'win32' ? ['python.exe', 'python3.exe'] : ['python3', 'python'];

/**
 * The interpreter that runs the server: `gradguard.interpreter` when set, else the one selected in
 * the Python extension (trusted workspaces only: it may be a venv inside the workspace), else
 * `python3` on PATH.
 */
export async function resolveInterpreter(
    settings: LaunchSettings,
    python: PythonInterpreters | undefined,
    options: { resource?: vscode.Uri; trusted: boolean; workspaceFolders?: string[]; env?: NodeJS.ProcessEnv },
): Promise<Interpreter> {
    if (settings.interpreter.length > 0) {
        const found = settings.interpreter.find(isFile);
        if (!found) {
            throw new LaunchError('no-python', `gradguard.interpreter names no existing file (${settings.interpreter.join(', ')}).`);
        }
        return { path: found, source: 'gradguard.interpreter' };
    }
    if (python && options.trusted) {
        const selected = await python.selected(options.resource).catch(() => undefined);
        if (selected && isFile(selected)) {
            return { path: selected, source: 'Python extension' };
        }
    }
    const exclude = options.trusted ? [] : options.workspaceFolders ?? [];
    const onPath = findOnPath(PYTHON_NAMES, options.env ?? process.env, exclude);
    if (onPath) {
        return { path: onPath, source: 'PATH' };
    }
    throw new LaunchError('no-python', 'No Python interpreter found: select one in the Python extension, or set gradguard.interpreter.');
}

export function launcherPath(extensionPath: string): string {
    return path.join(extensionPath, 'bundled', 'tool', 'lsp_server.py');
}

/** The server's command line, before anything is run. */
export function buildLaunch(settings: LaunchSettings, interpreter: Interpreter | undefined, extensionPath: string, cwd?: string): Launch {
    const env = { ...process.env, GRADGUARD_IMPORT_STRATEGY: settings.importStrategy, PYTHONUTF8: '1' };
    if (settings.path.length > 0) {
        const executable = settings.path.find(isFile);
        if (!executable) {
            throw new LaunchError('bad-path', `gradguard.path names no existing file (${settings.path.join(', ')}).`);
        }
        return {
            command: executable,
            args: ['server', ...settings.args],
            env,
            cwd,
            interpreter,
            jediEnvironment: interpreter?.path,
            description: `${executable} server${settings.args.length ? ' ' + settings.args.join(' ') : ''} (gradguard.path)`,
        };
    }
    if (!interpreter) {
        throw new LaunchError('no-python', 'No Python interpreter found.');
    }
    return {
        command: interpreter.path,
        args: [launcherPath(extensionPath), ...settings.args],
        env,
        cwd,
        interpreter,
        description: `${interpreter.path} (from ${interpreter.source}) with importStrategy ${settings.importStrategy}`,
    };
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv, timeoutMs: number): Promise<{ code: number | null; stdout: string; stderr: string; error?: Error }> {
    return new Promise((resolve) => {
        execFile(command, args, { env, timeout: timeoutMs, windowsHide: true, maxBuffer: 1 << 20 }, (error, stdout, stderr) => {
            const code = error ? (typeof (error as NodeJS.ErrnoException).code === 'number' ? (error as unknown as { code: number }).code : null) : 0;
            resolve({ code, stdout: String(stdout), stderr: String(stderr), error: error ?? undefined });
        });
    });
}

/**
 * Asks the command whether it can run the server, before the language client starts it: a
 * missing module or a too old Python then becomes one clear message instead of a crash loop.
 */
export async function probe(launch: Launch, timeoutMs = 30000): Promise<Probe> {
    const usesPath = launch.args[0] === 'server';
    const args = usesPath ? ['server', '--version'] : [launch.args[0], '--check'];
    const result = await run(launch.command, args, launch.env, timeoutMs);
    if (usesPath) {
        const match = /gradguard (\S+)/.exec(result.stdout);
        if (match) {
            return { gradguard: match[1], location: launch.command };
        }
        throw new LaunchError('bad-path', `${launch.command} is not a working gradguard executable.`,
            (result.error?.message ?? '') + result.stderr);
    }
    const line = result.stdout.trim().split(/\r?\n/).pop() ?? '';
    let report: Probe | undefined;
    try {
        report = JSON.parse(line) as Probe;
    } catch {
        report = undefined;
    }
    if (!report) {
        throw new LaunchError('bad-python', `${launch.command} cannot run the gradguard server.`,
            [result.error?.message, result.stderr.trim()].filter(Boolean).join('\n'));
    }
    if (report.error) {
        const tooOld = /too old/.test(report.error);
        throw new LaunchError(tooOld ? 'bad-python' : 'no-server',
            tooOld
                ? `${launch.command} is Python ${report.version}; gradguard needs Python 3.11 or newer.`
                : `The gradguard server cannot start with ${launch.command} (Python ${report.version}).`,
            report.error);
    }
    return report;
}
