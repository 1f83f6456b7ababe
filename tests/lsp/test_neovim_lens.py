"""The gradient lens in Neovim 0.7 (issue 16): it has no inlay hints, so the server offers code
lenses, which Neovim's own `vim.lsp.codelens` fetches and keeps; and the hover on a value.

`nvim --headless --clean` runs tests/lsp/nvim/lens_test.lua on a copy of examples/dqn_no_gradients.py.
Neovim is required, as for tests/lsp/test_neovim.py (GRADGUARD_SKIP_NEOVIM=1 skips).
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from test_neovim import _nvim

pytestmark = pytest.mark.editor  # drives a real editor, as test_neovim.py (tests/conftest.py's EDITOR)

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "dqn_no_gradients.py"
SCRIPT = Path(__file__).resolve().parent / "nvim" / "lens_test.lua"
HOVER = (47, 12)  # `loss = ...`: 1-based line, 0-based column


def test_neovim_shows_the_lens_as_code_lenses_and_hovers(tmp_path):
    nvim = _nvim()
    project = tmp_path / "project"
    project.mkdir()
    shutil.copyfile(EXAMPLE, project / EXAMPLE.name)
    out, log = tmp_path / "result.json", tmp_path / "server.log"
    xdg = tmp_path / "xdg"
    env = {**os.environ, "XDG_CONFIG_HOME": str(xdg / "config"), "XDG_DATA_HOME": str(xdg / "data"),
           "XDG_STATE_HOME": str(xdg / "state"), "XDG_CACHE_HOME": str(xdg / "cache"),
           "NVIM_LOG_FILE": str(tmp_path / "nvim.log"), "GRADGUARD_TEST_PYTHON": sys.executable,
           "GRADGUARD_TEST_FILE": str(project / EXAMPLE.name), "GRADGUARD_TEST_OUT": str(out),
           "GRADGUARD_TEST_LOG": str(log), "GRADGUARD_TEST_HOVER_LINE": str(HOVER[0]),
           "GRADGUARD_TEST_HOVER_COL": str(HOVER[1])}
    run = subprocess.run([nvim, "--headless", "--clean", "-c", f"luafile {SCRIPT}"], cwd=project, env=env,
                         stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=90)
    result = json.loads(out.read_text(encoding="utf-8")) if out.exists() else None
    report = f"exit {run.returncode}\n{run.stderr}\n{result}\n{log.read_text() if log.exists() else ''}"
    assert run.returncode == 0 and result is not None and "error" not in result, report
    assert result["lenses"] == [
        {"line": 49, "title": "gradguard: ✗ self.model: prediction cut by `.numpy()` at 45:33 (only the TD target trains)"},
    ], report
    hover = [line for line in result["hover"] if line.strip()]
    assert hover[0] == "**gradguard** · `loss`", report
    assert "- carries the gradient of `self.model` as a TD target" in hover[1], report
    assert "- constant to `tape`: cut by `.numpy()`" in hover[2] and "GG101" in hover[2], report
