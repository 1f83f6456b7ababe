"""README.md says what is true (issue 15, item 10): its sample output is what gradguard prints, its
pre-commit snippet pins no tag that does not exist and runs the installed command, and
scripts/demo's install filters exactly the setuptools notice it means to."""
from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from test_cli_ruff import gradguard

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _block_after(marker: str, language: str) -> str:
    start = README.index(marker)
    match = re.compile(rf"```{language}\n(.*?)```", re.DOTALL).search(README, start)
    assert match, f"no ```{language} block after {marker!r}"
    return match.group(1)


def test_the_sample_output_is_what_gradguard_prints():
    sample = _block_after("## What it finds", "text")
    code, out, err = gradguard("check", "--no-cache", "--color", "never", "examples/dqn_no_gradients.py", cwd=ROOT)
    assert code == 1, err
    assert sample == out, "regenerate README's sample with `gradguard check examples/dqn_no_gradients.py`"


def _tags() -> set[str]:
    result = subprocess.run(["git", "tag"], cwd=ROOT, capture_output=True, text=True)
    return set(result.stdout.split()) if result.returncode == 0 else set()


def test_every_pre_commit_rev_in_the_readme_exists():
    for rev in re.findall(r"\brev:\s*`?([^\s`,]+)", README):
        assert rev.startswith("<") or rev in _tags(), f"README pins rev {rev!r}, which is not a tag of this repository"


def test_the_pre_commit_snippet_runs_the_installed_command(tmp_path):
    yaml = pytest.importorskip("yaml")
    config = yaml.safe_load(_block_after("pre-commit:", "yaml"))
    hook = config["repos"][0]["hooks"][0]
    published = {h["id"]: h for h in yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())}
    assert config["repos"][0]["repo"] == "local" and hook["language"] == "system"
    assert (hook["entry"], hook["types_or"]) == (published["gradguard"]["entry"], published["gradguard"]["types_or"])
    # pre-commit runs `entry` with the staged file names appended
    (tmp_path / "clean.py").write_text("x = 1\n")
    (tmp_path / "bad.py").write_text((ROOT / "examples" / "dqn_no_gradients.py").read_text())
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    run = lambda *names: subprocess.run([*shlex.split(hook["entry"]), *names], cwd=tmp_path, env=env,  # noqa: E731
                                        capture_output=True, text=True, timeout=120).returncode
    assert (run("clean.py"), run("clean.py", "bad.py")) == (0, 1)


def _demo_filter() -> str:
    demo = (ROOT / "scripts" / "demo").read_text()
    match = re.search(r'PYTHONWARNINGS="([^"]+)" \.venv/bin/python -m pip install --quiet -e \.', demo)
    assert match, "scripts/demo installs gradguard with the notice filtered"
    return match.group(1)


NOTICE = """\
import warnings
class InformationOnly(UserWarning):  # setuptools.warnings.InformationOnly, as its editable install emits it
    pass
warnings.warn("Editable installation.\\n!!\\n\\n    Please be careful with folders in your working directory with the same\\n"
              "    name as your package as they may take precedence during imports.\\n!!", InformationOnly)
warnings.warn("Another warning", UserWarning)
"""


def test_the_demo_filters_the_editable_install_notice_and_nothing_else():
    def stderr(env: dict) -> str:
        return subprocess.run([sys.executable, "-c", NOTICE], env={**os.environ, **env}, capture_output=True,
                              text=True, timeout=60).stderr
    assert "Editable installation" in stderr({})
    filtered = stderr({"PYTHONWARNINGS": _demo_filter()})
    assert "Editable installation" not in filtered and "Another warning" in filtered
