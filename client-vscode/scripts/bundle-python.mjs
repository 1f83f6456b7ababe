// `npm run bundle-python`: runs scripts/bundle_python.py with $GRADGUARD_PYTHON, else python3
// (python on Windows). That interpreter needs pip and Python 3.11+.
import { spawnSync } from 'child_process';

const python = process.env.GRADGUARD_PYTHON || (process.platform === 'win32' ? 'python' : 'python3');
const result = spawnSync(python, ['scripts/bundle_python.py'], { stdio: 'inherit' });
if (result.error) {
    console.error(`bundle-python: cannot run ${python}: ${result.error.message} (set GRADGUARD_PYTHON to a Python 3.11+ with pip)`);
    process.exit(2);
}
process.exit(result.status ?? 1);
