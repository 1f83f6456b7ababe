// `npm run package`: builds dist/gradguard-<target>-<version>.vsix for this machine's platform
// with @vscode/vsce. vsce first runs `vscode:prepublish` (type check, production bundle, the
// Python server into bundled/libs). The bundled libcst is compiled for one platform, so the
// package is platform-specific (`--target`), like ruff's.
//
// vsce's own secret scan reads every packaged file and takes about 7 minutes on the ~6,400 files
// of the bundled Python libraries (wheels from PyPI, not ours). It is turned off for the whole
// package and run here, with vsce's own scanner, on the files this repository writes.
import { spawnSync } from 'child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'fs';
import { createRequire } from 'module';
import path from 'path';

const require = createRequire(import.meta.url);
const manifest = JSON.parse(readFileSync('package.json', 'utf8'));

function isMusl() {
    if (process.platform !== 'linux') return false;
    const report = process.report?.getReport?.();
    return !report?.header?.glibcVersionRuntime;
}

export function vsceTarget(platform = process.platform, arch = process.arch) {
    const archName = { x64: 'x64', arm64: 'arm64', arm: 'armhf' }[arch] ?? arch;
    if (platform === 'linux') return `${isMusl() ? 'alpine' : 'linux'}-${archName}`;
    if (platform === 'darwin' || platform === 'win32') return `${platform}-${archName}`;
    throw new Error(`no VS Code target for ${platform}-${arch}`);
}

const target = process.env.GRADGUARD_VSCE_TARGET || vsceTarget();
const out = path.join('dist', `${manifest.name}-${target}-${manifest.version}.vsix`);
mkdirSync('dist', { recursive: true });
const vsce = path.join(path.dirname(require.resolve('@vscode/vsce/package.json')), 'vsce');
// README links and images relative to client-vscode/, not to the repository's root.
const repository = manifest.repository.url.replace(/\.git$/, '');
const directory = manifest.repository.directory ? `/${manifest.repository.directory}` : '';
const result = spawnSync(process.execPath,
    [vsce, 'package', '--no-dependencies', '--target', target, '--out', out, '--allow-package-all-secrets',
        '--baseContentUrl', `${repository}/blob/HEAD${directory}`, '--baseImagesUrl', `${repository}/raw/HEAD${directory}`],
    { stdio: 'inherit' });
if (result.status !== 0 || !existsSync(out)) {
    console.error(`package: vsce failed (status ${result.status})`);
    process.exit(result.status || 1);
}

const ownFiles = ['dist/extension.js', 'bundled/tool/lsp_server.py', 'package.json', 'README.md', 'CHANGELOG.md', 'LICENSE'];
const { lintFiles, prettyPrintLintResult } = require(path.join(path.dirname(require.resolve('@vscode/vsce/package.json')), 'out', 'secretLint.js'));
const scan = await lintFiles(ownFiles.map((file) => path.resolve(file)), true, true);
if (!scan.ok) {
    rmSync(out, { force: true });
    console.error(`package: secrets found, ${out} removed:\n${scan.results.map(prettyPrintLintResult).join('\n')}`);
    process.exit(1);
}
console.log(`package: ${out} (secret scan of ${ownFiles.length} own files: clean)`);
