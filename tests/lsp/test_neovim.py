"""Neovim's built-in LSP client against the real server: diagnostics, a preferred quick fix, re-check.

`nvim --headless --clean` runs tests/lsp/nvim/gradguard_test.lua, which starts the server the way
the README's "Neovim 0.7+" snippet does (`vim.lsp.start_client` from a FileType autocmd), opens a
copy of examples/dqn_no_gradients.py, waits for the diagnostics, applies the preferred quick fix of
GG101 with Neovim's own `vim.lsp.util.apply_workspace_edit`, writes the file, waits for the
diagnostics of the edited text, stops the client (shutdown + exit) and records everything as JSON
for the assertions here.

Neovim is required: without `nvim` on PATH the test fails (scripts/test installs it with apt) unless
GRADGUARD_SKIP_NEOVIM=1 is set.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from headless import check_json, run_headless

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "dqn_no_gradients.py"
SCRIPT = Path(__file__).resolve().parent / "nvim" / "gradguard_test.lua"
TIMEOUT = 60  # seconds for the whole Neovim session; the Lua script's own waits add up to less
GG101_LINE, GG309_LINE = 45, 51  # 1-based, in examples/dqn_no_gradients.py


def _nvim() -> str:
    nvim = shutil.which("nvim")
    if nvim is None:
        if os.environ.get("GRADGUARD_SKIP_NEOVIM") == "1":
            pytest.skip("nvim not found and GRADGUARD_SKIP_NEOVIM=1")
        pytest.fail("nvim (Neovim 0.7+) is not on PATH: install it (`apt-get install neovim`; "
                    "scripts/test does this) or set GRADGUARD_SKIP_NEOVIM=1 to skip this test", pytrace=False)
    out = subprocess.run([nvim, "--version"], capture_output=True, text=True, timeout=30).stdout
    match = re.search(r"NVIM v(\d+)\.(\d+)", out)
    if not match or (int(match[1]), int(match[2])) < (0, 7):
        pytest.fail(f"Neovim 0.7+ is needed (vim.api.nvim_create_autocmd); `nvim --version` says: "
                    f"{out.splitlines()[:1]}", pytrace=False)
    return nvim


class Session:
    """One headless Neovim run and everything it left behind, printable as a failure report."""

    def __init__(self, tmp_path: Path, nvim: str):
        self.project = tmp_path / "project"
        self.project.mkdir()
        self.file = self.project / EXAMPLE.name
        shutil.copyfile(EXAMPLE, self.file)
        self.out = tmp_path / "nvim-result.json"
        self.server_log = tmp_path / "gradguard-server.log"
        xdg = tmp_path / "xdg"
        env = {
            **os.environ,
            "XDG_CONFIG_HOME": str(xdg / "config"),
            "XDG_DATA_HOME": str(xdg / "data"),
            "XDG_STATE_HOME": str(xdg / "state"),
            "XDG_CACHE_HOME": str(xdg / "cache"),  # Neovim 0.7 writes its lsp.log here
            "NVIM_LOG_FILE": str(tmp_path / "nvim.log"),
            "GRADGUARD_TEST_PYTHON": sys.executable,
            "GRADGUARD_TEST_FILE": str(self.file),
            "GRADGUARD_TEST_OUT": str(self.out),
            "GRADGUARD_TEST_LOG": str(self.server_log),
            "GRADGUARD_TEST_WAIT_MS": "20000",
        }
        self.lsp_logs = [xdg / "cache" / "nvim" / "lsp.log", xdg / "state" / "nvim" / "lsp.log"]
        self.command = [nvim, "--headless", "--clean", "-c", f"luafile {SCRIPT}"]
        run = run_headless(self.command, self.project, env, TIMEOUT)  # its own group: the server goes with it
        self.stdout, self.stderr, self.returncode = run.stdout, run.stderr, run.returncode
        self.seconds, self.timed_out = run.seconds, run.timed_out
        try:
            self.result = json.loads(self.out.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            self.result = None

    def report(self) -> str:
        parts = [f"command: {self.command}",
                 f"exit status: {self.returncode}" + (f" (killed after {TIMEOUT} s)" if self.timed_out else ""),
                 f"took {self.seconds:.1f} s",
                 f"--- nvim stdout ---\n{self.stdout}", f"--- nvim stderr ---\n{self.stderr}",
                 "--- result JSON ---\n" + (json.dumps(self.result, indent=2) if self.result is not None
                                            else f"(missing or unreadable: {self.out})")]
        for name, path in [("server log", self.server_log), *(("Neovim lsp.log", p) for p in self.lsp_logs)]:
            if path.exists():
                parts.append(f"--- {name} ({path}) ---\n{path.read_text(encoding='utf-8', errors='replace')}")
        return "\n".join(parts)


def test_neovim_diagnostics_and_preferred_quickfix(tmp_path):
    session = Session(tmp_path, _nvim())
    print(session.report())  # shown by pytest when the test fails
    result = session.result
    assert not session.timed_out and session.returncode == 0 and result is not None and "error" not in result, \
        f"the Neovim session failed: {result.get('error') if result else 'no result'}\n{session.report()}"

    # The diagnostics Neovim received when the file was opened.
    before = {(d["code"], d["line"]): d for d in result["before"]}
    assert ("GG101", GG101_LINE) in before, session.report()
    assert ("GG309", GG309_LINE) in before, session.report()
    assert all(d["source"] == "gradguard" for d in result["before"])
    assert before[("GG101", GG101_LINE)]["message"], session.report()

    # The code actions offered for GG101: the preferred quick fix comes first, then "Ignore".
    titles = [a["title"] for a in result["actions"]]
    preferred = [a for a in result["actions"] if a["isPreferred"] and a["kind"] == "quickfix"]
    assert len(preferred) == 1 and preferred[0]["has_edit"], titles
    assert result["preferred"]["title"].startswith("gradguard (GG101): ")
    assert "gradguard: Ignore GG101 for this line" in titles

    # The edit as applied by Neovim and written to disk.
    original = EXAMPLE.read_text(encoding="utf-8").splitlines()
    written = session.file.read_text(encoding="utf-8").splitlines()
    assert ".numpy()" in original[GG101_LINE - 1]
    assert written[GG101_LINE - 1] == result["line_after_edit"]
    assert ".numpy()" not in written[GG101_LINE - 1], written[GG101_LINE - 1]
    assert [line for i, line in enumerate(written) if i != GG101_LINE - 1] == \
           [line for i, line in enumerate(original) if i != GG101_LINE - 1], "the fix touched other lines"
    assert not [d for d in check_json(session.file) if d["code"] == "GG101" and d["line"] == GG101_LINE]

    # The diagnostics Neovim holds after the server re-analysed the edited buffer.
    after = {(d["code"], d["line"]) for d in result["after"]}
    assert ("GG101", GG101_LINE) not in after, session.report()
    assert ("GG309", GG309_LINE) in after, session.report()  # a real re-analysis, not a cleared list

    # shutdown + exit from Neovim: the server ends by itself, with status 0.
    assert result["server_exit"] == {"code": 0, "signal": 0}, session.report()
