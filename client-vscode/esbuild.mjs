// Builds the extension into one file (dist/extension.js), or with --tests the unit tests into
// out/unit/, where `vscode` is the stub in test/unit/vscode.ts.
import * as esbuild from 'esbuild';
import { readdirSync, rmSync } from 'fs';

const production = process.argv.includes('--production');
const tests = process.argv.includes('--tests');

const common = {
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    logLevel: 'warning',
};

if (tests) {
    rmSync('out/unit', { recursive: true, force: true });
    await esbuild.build({
        ...common,
        entryPoints: readdirSync('test/unit').filter((f) => f.endsWith('.test.ts')).map((f) => `test/unit/${f}`),
        outdir: 'out/unit',
        sourcemap: 'inline',
        alias: { vscode: './test/unit/vscode.ts' },
        // The unit tests never start a real client: importing it would be a mistake.
        external: ['vscode-languageclient', 'vscode-languageclient/*'],
    });
} else {
    await esbuild.build({
        ...common,
        entryPoints: ['src/extension.ts'],
        outfile: 'dist/extension.js',
        external: ['vscode'],
        minify: production,
        sourcemap: !production,
        sourcesContent: false,
    });
}
