"""What the real-editor tests share (test_neovim.py, test_vim_ale.py): running a headless editor in
a process group of its own, so the language server it starts goes with it, and checking a file with
the real `gradguard check`, to compare what the editor showed with what the CLI reports."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path


@dataclass
class Run:
    stdout: str
    stderr: str
    returncode: int
    seconds: float
    timed_out: bool
    pid: int  # the process group's id, for checking that nothing outlived the editor


def run_headless(command: list[str], cwd: Path, env: dict, timeout: float) -> Run:
    """Run `command` to its end, killed with its whole group after `timeout` seconds."""
    started = time.monotonic()
    process = subprocess.Popen(command, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, start_new_session=True)
    timed_out = False
    try:
        stdout, stderr = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        timed_out = True
        os.killpg(process.pid, signal.SIGKILL)
        stdout, stderr = process.communicate()
    return Run(stdout, stderr, process.returncode, time.monotonic() - started, timed_out, process.pid)


def check_json(path: Path) -> list[dict]:
    """`gradguard check --no-cache --format json` of one file, as the CLI reports it."""
    run = subprocess.run([sys.executable, "-c", "from gradguard.rules.app.cli import main; raise SystemExit(main())",
                          "check", "--no-cache", "--format", "json", path.name],
                         cwd=path.parent, capture_output=True, text=True, timeout=120)
    assert run.returncode in (0, 1), f"gradguard check failed ({run.returncode}):\n{run.stdout}\n{run.stderr}"
    return json.loads(run.stdout)
