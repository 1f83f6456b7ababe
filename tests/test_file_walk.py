"""Which files `gradguard check` walks (rules/project/files.py, globs.py): the files git would list
(checked against git itself), less the usual folders of tools (.ipynb_checkpoints, .venv, ...) unless
the configuration's `exclude` replaces them; `extend-exclude` adds to them."""
from __future__ import annotations

import io
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from gradguard.rules.app import cli
from gradguard.rules.project.config import DEFAULT_EXCLUDES, Config
from gradguard.rules.project.files import Walk

NUMPY = '''\
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(3)])
x = tf.ones((2, 4))
with tf.GradientTape() as tape:
    loss = tf.reduce_mean(model(x).numpy())
grads = tape.gradient(loss, model.trainable_variables)
'''


def notebook(*sources: str) -> str:
    cells = [{"cell_type": "code", "execution_count": 1, "id": f"c{i}", "metadata": {}, "outputs": [],
              "source": source} for i, source in enumerate(sources)]
    return json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}, indent=1) + "\n"


@pytest.fixture(autouse=True)
def in_tmp(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)


def write(path: str, text: str = "x = 1\n") -> Path:
    file = Path(path)
    file.parent.mkdir(parents=True, exist_ok=True)
    file.write_text(text, encoding="utf-8")
    return file


def check(*argv: str) -> tuple[int, list[dict], str]:
    stdout, stderr = io.StringIO(), io.StringIO()
    old = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = stdout, stderr
    try:
        code = cli.main(["check", "--no-cache", "--format", "json", *argv])
    finally:
        sys.stdout, sys.stderr = old
    return code, json.loads(stdout.getvalue() or "[]"), stderr.getvalue()


def walked(*arguments: str, config: Config | None = None) -> list[str]:
    walk = Walk(config or Config(), warn=lambda message: None)
    for argument in arguments:
        walk.add_argument(argument)
    return sorted(Path(display).as_posix() for display, _ in walk.files)


# ------------------------------------------------------------------------------ the usual folders


def test_jupyter_checkpoints_are_not_checked_so_a_notebook_finding_comes_once():
    text = notebook("import tensorflow as tf\n", NUMPY.split("\n", 2)[2])
    write("analysis.ipynb", text)
    write(".ipynb_checkpoints/analysis-checkpoint.ipynb", text)  # what Jupyter saves beside it
    write("deep/er/.ipynb_checkpoints/other-checkpoint.ipynb", text)
    code, found, _ = check(".")
    assert code == 1 and [(item["path"], item["code"]) for item in found] == [("analysis.ipynb", "GG101")]


@pytest.mark.parametrize("folder", DEFAULT_EXCLUDES)
def test_every_default_exclude_is_skipped_at_any_depth(folder):
    write(f"{folder}/x.py")
    write(f"pkg/{folder}/y.py")
    write("pkg/a.py")
    assert walked(".") == ["pkg/a.py"]


def test_ruffs_default_excludes_are_all_there():
    ruff = {".bzr", ".direnv", ".eggs", ".git", ".git-rewrite", ".hg", ".ipynb_checkpoints", ".mypy_cache", ".nox",
            ".pants.d", ".pyenv", ".pytest_cache", ".pytype", ".ruff_cache", ".svn", ".tox", ".venv", ".vscode",
            "__pypackages__", "_build", "buck-out", "dist", "node_modules", "site-packages", "venv"}
    assert ruff <= set(DEFAULT_EXCLUDES)


def test_exclude_replaces_the_defaults_and_extend_exclude_adds_to_them():
    for name in (".venv/lib/v.py", "gen/g.py", "src/a.py"):
        write(name, NUMPY)
    write("pyproject.toml", '[tool.gradguard]\nextend-exclude = ["gen/"]\n')
    assert [item["path"] for item in check(".")[1]] == ["src/a.py"]
    write("pyproject.toml", '[tool.gradguard]\nexclude = ["gen/"]\n')  # as ruff: the defaults are gone
    assert [item["path"] for item in check(".")[1]] == [".venv/lib/v.py", "src/a.py"]


def test_a_file_named_in_a_default_excluded_folder_is_checked_but_a_configured_exclude_holds():
    write("build/generated.py", NUMPY)
    write("legacy/old.py", NUMPY)
    write("pyproject.toml", '[tool.gradguard]\nextend-exclude = ["legacy/"]\n')
    assert [item["path"] for item in check("build/generated.py")[1]] == ["build/generated.py"]
    code, found, err = check("legacy/old.py")  # as pre-commit names it
    assert found == [] and "no Python files found" in err


def test_a_folder_named_on_the_command_line_is_walked_even_when_its_name_is_a_default_exclude():
    write("build/a.py")
    write("build/.venv/b.py")
    assert walked("build") == ["build/a.py"]


# ------------------------------------------------------------------------------ git's own answer


GITIGNORE = """\
# comments and blank lines

*.pyc
/anchored.py
logs/**
!logs/keep.py
**/tmp/
a/**/deep.py
[a-c]x.py
!bx.py
file?.py
\\!bang.py
space\\ .py
only_dir/
docs/*.py
"""
SUB_GITIGNORE = """\
!re_included.py
/local.py
nested/
*.py
!*_keep.py
"""
FILES = [
    "main.py", "anchored.py", "pkg/anchored.py", "logs/x.py", "logs/keep.py", "logs/sub/y.py",
    "tmp/t.py", "pkg/tmp/t.py", "tmpx/t.py", "a/deep.py", "a/b/c/deep.py", "z/a/deep.py",
    "ax.py", "bx.py", "cx.py", "dx.py", "file1.py", "file10.py", "!bang.py", "bang.py", "space .py",
    "only_dir/o.py", "pkg/only_dir/o.py", "docs/d.py", "docs/sub/d.py", "x/docs/d.py",
    "sub/local.py", "sub/deeper/local.py", "sub/nested/n.py", "sub/re_included.py", "sub/s.py",
    "sub/s_keep.py", "sub/deeper/s_keep.py", "nb.ipynb", "logs/nb.ipynb",
]


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_the_walk_lists_what_git_lists():
    for name in FILES:
        write(name)
    write(".gitignore", GITIGNORE)
    write("sub/.gitignore", SUB_GITIGNORE)
    subprocess.run(["git", "init", "-q", "."], check=True)
    listed = subprocess.run(["git", "ls-files", "--others", "--exclude-standard", "-z"], check=True,
                            capture_output=True, text=True).stdout.split("\0")
    git = sorted(name for name in listed if name.endswith((".py", ".ipynb")))
    assert "logs/keep.py" in git and "sub/s_keep.py" in git and "main.py" in git  # the test means something
    assert walked(".") == git


# One .gitignore and the files beside it; git's answer is the truth. The hand-written matcher
# before pathspec differed from git on `a[/]b.py`; pathspec alone differs on `foo/**/`, `*` with
# `!*/`, `logs/**` with a `!` inside, and raises on a lone backslash (globs.py handles each).
GIT_CASES = {
    "trailing spaces": ("x.py   \n", ["x.py", "y.py"]),
    "star-star in a name": ("foo**.py\n", ["foobar.py", "foo/bar.py", "foo.py", "a/foox.py"]),
    "class with ] first": ("[]a].py\n", ["].py", "a.py", "b.py"]),
    "escaped star": ("\\*.py\n", ["*.py", "a.py"]),
    "star slash": ("*/\n", ["a/x.py", "top.py", "b/c/y.py"]),
    "folder then a file inside re-included": ("d/\n!d/k.py\n", ["d/k.py", "d/x.py"]),
    "double star folder": ("**/gen/**\n!**/gen/keep.py\n", ["gen/a.py", "gen/keep.py", "p/gen/keep.py", "p/gen/s/t.py"]),
    "everything but folders and .py": ("*\n!*/\n!*.py\n", ["a.py", "d/b.py", "d/e/c.py"]),
    "range": ("[0-9]*.py\n", ["1a.py", "a1.py"]),
    "middle slash glob": ("a/*/c.py\n", ["a/b/c.py", "a/b/d/c.py", "x/a/b/c.py"]),
    "everything but one name": ("**\n!keep.py\n", ["keep.py", "d/keep.py", "x.py"]),
    "escaped trailing space": ("sp\\ \n", ["sp /a.py", "sp.py"]),
    "star inside, folder re-included": ("lib/*\n!lib/ok/\n", ["lib/a.py", "lib/ok/b.py", "lib/no/c.py"]),
    "escaped bracket": ("\\[x].py\n", ["[x].py", "x.py"]),
    "caret class": ("[^a].py\n", ["a.py", "b.py"]),
    "leading space": (" sp.py\n", [" sp.py", "sp.py"]),
    "question mark is not a slash": ("a?b.py\n", ["axb.py", "a/b.py"]),
    "triple star": ("***.py\n", ["x.py", "d/y.py"]),
    "double star twice": ("**/foo/**/bar.py\n", ["foo/bar.py", "x/foo/y/z/bar.py", "bar.py"]),
    "folders below a folder": ("foo/**/\n", ["foo/a.py", "foo/b/c.py"]),
    "case matters": ("*.PY\n", ["a.py", "b.PY"]),
    "negation before the pattern": ("!keep/\nkeep/\n", ["keep/a.py"]),
    "nested re-include": ("a/**\n!a/b/\n!a/b/**\n", ["a/x.py", "a/b/y.py", "a/b/c/z.py"]),
    "lone backslash": ("\\\n*.pyc\n", ["x.py"]),
    "lone bang": ("!\n", ["x.py"]),
    "dash in a class": ("[a-]x.py\n", ["-x.py", "ax.py", "bx.py"]),
    "slash in a class": ("a[/]b.py\n", ["a/b.py"]),
    "dot files": (".*\n!.keep.py\n", [".hidden.py", ".keep.py", "v.py"]),
}


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
@pytest.mark.parametrize("case", GIT_CASES)
def test_one_gitignore_as_git_reads_it(case):
    gitignore, files = GIT_CASES[case]
    for name in files:
        write(name)
    write(".gitignore", gitignore)
    subprocess.run(["git", "init", "-q", "."], check=True)
    listed = subprocess.run(["git", "ls-files", "--others", "--exclude-standard", "-z"], check=True,
                            capture_output=True, text=True).stdout.split("\0")
    assert walked(".") == sorted(name for name in listed if name.endswith(".py"))
