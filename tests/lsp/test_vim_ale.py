"""Vim with ALE (Debian's vim-ale) against the real server: diagnostics, :ALECodeAction, re-check.

`vim -es` runs tests/lsp/vim/gradguard_ale_test.vim, which registers gradguard as an ALE LSP linter
as docs/editors.md says, opens a copy of examples/dqn_no_gradients.py, waits for the diagnostics in
ALE's location list and runs ALE's own :ALECodeAction on the GG101 line twice: with the cursor inside
the word `numpy` (ALE then sends no context diagnostic) and on the `.` before it (ALE then sends its
copy of the nearest diagnostic: code, message, range, no `source`). ALE's number prompt is answered
with the GG101 fix, ALE applies the edit, the file is written and the new location list awaited.

Vim and ALE are required: without them the test fails (scripts/test installs `vim` and `vim-ale`
with apt) unless GRADGUARD_SKIP_VIM_ALE=1 is set.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from headless import check_json, run_headless

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "dqn_no_gradients.py"
SCRIPT = Path(__file__).resolve().parent / "vim" / "gradguard_ale_test.vim"
TIMEOUT = 90  # seconds for the whole Vim session; the script's own waits add up to less
GG101_LINE, GG309_LINE = 45, 51  # 1-based, in examples/dqn_no_gradients.py
VIM = ["-N", "-u", "NONE", "-i", "NONE", "-n", "-es"]  # no vimrc, no viminfo, no swap file, silent Ex mode


def _skip_or_fail(why: str) -> None:
    if os.environ.get("GRADGUARD_SKIP_VIM_ALE") == "1":
        pytest.skip(f"{why} and GRADGUARD_SKIP_VIM_ALE=1")
    pytest.fail(f"{why}: install them (`apt-get install vim vim-ale`; scripts/test does this) or set "
                "GRADGUARD_SKIP_VIM_ALE=1 to skip this test", pytrace=False)


def _vim(home: Path) -> str:
    vim = shutil.which("vim")
    if vim is None:
        _skip_or_fail("vim is not on PATH")
    out = subprocess.run([vim, "--version"], capture_output=True, text=True, timeout=30).stdout
    match = re.search(r"Vi IMproved (\d+)\.(\d+)", out)
    if not match or (int(match[1]), int(match[2])) < (8, 2) or "+job" not in out or "+channel" not in out:
        pytest.fail(f"Vim 8.2+ with +job and +channel is needed for ALE's LSP client; `vim --version` says: "
                    f"{out.splitlines()[:1]}", pytrace=False)
    probe = subprocess.run([vim, *VIM, "-c", "try | packadd ale | catch | cquit 3 | endtry",
                            "-c", "if exists(':ALECodeAction') | qall! | else | cquit 4 | endif"],
                           env={**os.environ, "HOME": str(home)}, stdin=subprocess.DEVNULL,
                           capture_output=True, text=True, timeout=30)
    if probe.returncode != 0:
        _skip_or_fail("ALE is not installed as a Vim package (`packadd ale` fails)")
    return vim


class Session:
    """One headless Vim run and everything it left behind, printable as a failure report."""

    def __init__(self, tmp_path: Path):
        home = tmp_path / "home"
        home.mkdir()
        vim = _vim(home)
        self.project = tmp_path / "project"
        self.project.mkdir()
        self.file = self.project / EXAMPLE.name
        shutil.copyfile(EXAMPLE, self.file)
        shutil.copyfile(EXAMPLE, self.project / "original.py")  # for the CLI's view of the same text
        self.out = tmp_path / "vim-result.json"
        self.server_log = tmp_path / "gradguard-server.log"
        env = {
            **os.environ,
            "HOME": str(home),  # no ~/.vim of the user's
            "GRADGUARD_TEST_PYTHON": sys.executable,
            "GRADGUARD_TEST_FILE": str(self.file),
            "GRADGUARD_TEST_OUT": str(self.out),
            "GRADGUARD_TEST_LOG": str(self.server_log),
            "GRADGUARD_TEST_WAIT_MS": "30000",
        }
        self.command = [vim, *VIM, "-S", str(SCRIPT)]
        run = run_headless(self.command, self.project, env, TIMEOUT)  # its own group: the server goes with it
        self.stdout, self.stderr, self.returncode = run.stdout, run.stderr, run.returncode
        self.seconds, self.timed_out = run.seconds, run.timed_out
        self.left_running = _group_alive(run.pid)
        if self.left_running:
            os.killpg(run.pid, signal.SIGKILL)
        try:
            self.result = json.loads(self.out.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            self.result = None

    def report(self) -> str:
        parts = [f"command: {self.command}",
                 f"exit status: {self.returncode}" + (f" (killed after {TIMEOUT} s)" if self.timed_out else ""),
                 f"took {self.seconds:.1f} s",
                 f"--- vim stdout ---\n{self.stdout}", f"--- vim stderr ---\n{self.stderr}",
                 "--- result JSON ---\n" + (json.dumps(self.result, indent=2) if self.result is not None
                                            else f"(missing or unreadable: {self.out})")]
        if self.server_log.exists():
            parts.append(f"--- server log ---\n{self.server_log.read_text(encoding='utf-8', errors='replace')}")
        return "\n".join(parts)


def _group_alive(pgid: int) -> bool:
    """Whether a process of the group is still running a moment after Vim quit (ALE stops its servers)."""
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return False
        time.sleep(0.05)
    return True


def test_vim_ale_diagnostics_and_code_action(tmp_path):
    session = Session(tmp_path)
    print(session.report())  # shown by pytest when the test fails
    result = session.result
    assert not session.timed_out and session.returncode == 0 and result is not None and "error" not in result, \
        f"the Vim session failed: {result.get('error') if result else 'no result'}\n{session.report()}"

    # ALE's location list as the file was opened: gradguard's findings, where the CLI puts them.
    before = {(d["code"], d["line"]): d for d in result["before"]}
    assert ("GG101", GG101_LINE) in before and ("GG309", GG309_LINE) in before, session.report()
    cli = {(d["code"], d["line"], d["column"]) for d in check_json(session.project / "original.py")}
    assert {(d["code"], d["line"], d["col"]) for d in result["before"]} == cli
    # The snippet's initialization_options reached the server: GG309, a warning, is an error here.
    assert before[("GG309", GG309_LINE)]["type"] == "E" and before[("GG101", GG101_LINE)]["type"] == "W"

    # Both :ALECodeAction menus offered the GG101 fix first, then "Ignore" (before: "No code actions").
    assert len(result["menus"]) == 2, session.report()
    for menu in result["menus"]:
        assert menu[1].startswith("1) gradguard (GG101): ") and "2) gradguard: Ignore GG101 for this line" in menu
    assert result["answers"] == [result["menus"][0][1], result["menus"][1][1]]

    # The server saw the two shapes ALE sends: no diagnostic, then ALE's copy without `source`.
    log = session.server_log.read_text(encoding="utf-8")
    assert re.search(r"code actions for \S+: 0 context diagnostic\(s\), 0 without source; 0 taken from the "
                     r"context, 1 under the range", log), log
    assert re.search(r"code actions for \S+: 1 context diagnostic\(s\), 1 without source; 1 taken from the "
                     r"context, 0 under the range", log), log

    # Each time ALE applied the edit to line 45 only: `.numpy()` gone.
    assert ".numpy()" in result["line_before"] and result["line_undone"] == result["line_before"]
    for line in (result["line_after_first_action"], result["line_after_edit"]):
        assert line == result["line_before"].replace(".numpy()", "")
    original = EXAMPLE.read_text(encoding="utf-8").splitlines()
    written = session.file.read_text(encoding="utf-8").splitlines()
    assert written[GG101_LINE - 1] == result["line_after_edit"]
    assert [line for i, line in enumerate(written) if i != GG101_LINE - 1] == \
           [line for i, line in enumerate(original) if i != GG101_LINE - 1], "the fix touched other lines"
    assert not [d for d in check_json(session.file) if d["code"] == "GG101"]

    # ALE's location list after the server re-analysed the written file: the GG101 gone, GG309 kept.
    after = {(d["code"], d["line"]) for d in result["after"]}
    assert ("GG101", GG101_LINE) not in after and ("GG309", GG309_LINE) in after, session.report()
    assert not session.left_running, "the server outlived Vim"
