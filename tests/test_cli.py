"""The `gradguard` command (rules/cli.py), run in-process against a fake engine.

The fake engine flags every `.numpy()` as GG999 (a safe fix that rewrites the rest of the line, so
two findings on one line conflict and need two fix rounds) and every `float(name)` as GG998 (an
unsafe fix). Tests using the `real_engine` fixture run the real analyzer on TensorFlow programs.
"""
from __future__ import annotations

import io
import json
import os
import ast
import re
import shutil
import stat
import subprocess
import sys
import types
from pathlib import Path

import pytest

from gradguard.rules import __version__, api
from gradguard.rules.app import cli, files
from gradguard.rules.catalogue import registry
from gradguard.rules.diagnostics import Diagnostic, Edit, Fix, Safety, Severity, Span
from gradguard.rules.catalogue.rule import Rule

PROGRAMS = Path(__file__).resolve().parent / "programs"


class FakeNumpy(Rule):
    code = "GG999"
    name = "fake-numpy"
    summary = "`.numpy()` on a tensor"
    what = why = error = fix_safety = "text"
    bad = "y = x.numpy()\n"
    good = "y = x\n"


class FakeCast(FakeNumpy):
    code = "GG998"
    name = "fake-cast"
    summary = "float() on a tensor"
    severity = Severity.WARNING
    fixed_outcome = "nofix"


def fake_findings(source, path="<stdin>", *, enabled=None, **_):
    ast.parse(source)  # like the real engine: a source that does not parse raises SyntaxError
    found = []
    for number, line in enumerate(re.split(r"\r\n|\r|\n", source), 1):
        for match in re.finditer(r"\.numpy\(\)", line):
            rest = Edit(Span(number, match.start(), number, len(line)), line[match.end():])
            fix = Fix("Remove `.numpy()`", Safety.SAFE, (rest,), preferred=True)
            found.append(Diagnostic("GG999", Severity.ERROR, "`.numpy()` cuts the gradient",
                                    Span(number, match.start(), number, match.end()), fixes=(fix,)))
        for match in re.finditer(r"float\((\w+)\)", line):
            span = Span(number, match.start(), number, match.end())
            fix = Fix("Use tf.cast", Safety.UNSAFE, (Edit(span, f"tf.cast({match[1]}, tf.float32)"),))
            found.append(Diagnostic("GG998", Severity.WARNING, "float() cuts the gradient", span, fixes=(fix,)))
    return sorted((d for d in found if enabled is None or enabled(d.code)), key=lambda d: d.span)


@pytest.fixture
def real_engine():
    """Requested by tests that run the real analyzer instead of the fake one."""


@pytest.fixture(autouse=True)
def fake_engine(request, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    if "real_engine" in request.fixturenames:
        return
    monkeypatch.setattr(api, "findings", fake_findings)
    monkeypatch.setattr(registry, "all_rules", lambda: (FakeCast, FakeNumpy))


def run(capsys, *argv):
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def write(path: Path | str, text: str) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def notebook(*sources, outputs=()):
    cells = [{"cell_type": "code", "execution_count": 1, "id": f"c{i}", "metadata": {},
              "outputs": list(outputs), "source": source} for i, source in enumerate(sources)]
    cells.insert(1, {"cell_type": "markdown", "id": "md", "metadata": {}, "source": ["# Notes\n"]})
    return json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}, indent=1) + "\n"


BAD = "import tensorflow as tf\ny = x.numpy()\n"


# ------------------------------------------------------------------------------ basics


def test_clean_file_exits_0(capsys):
    write("a.py", "x = 1\n")
    assert run(capsys, "check", "a.py") == (0, "All checks passed!\n", "")


def test_findings_exit_1_with_ruff_like_text(capsys):
    write("a.py", BAD)
    code, out, _ = run(capsys, "check", "a.py")
    assert code == 1
    assert out.startswith("a.py:2:6: GG999 [*] `.numpy()` cuts the gradient\n  |\n2 | y = x.numpy()\n  |      ^^^^^^^^\n")
    assert out.endswith("  |\n  = help: Remove `.numpy()`\n\nFound 1 error.\n[*] 1 fixable with `--fix`.\n")


def test_default_path_is_the_current_folder(capsys):
    write("pkg/a.py", BAD)
    code, out, _ = run(capsys, "check")
    assert code == 1 and "pkg/a.py:2:6: GG999" in out


def test_exit_zero(capsys):
    write("a.py", BAD)
    code, out, _ = run(capsys, "check", "--exit-zero", "a.py")
    assert code == 0 and "GG999" in out


def test_quiet_prints_findings_only(capsys):
    write("a.py", BAD)
    write("b.py", "x = 1\n")
    code, out, _ = run(capsys, "check", "-q", "a.py")
    assert code == 1 and "GG999" in out and "Found" not in out
    assert run(capsys, "check", "--quiet", "b.py") == (0, "", "")


def test_no_cache_is_accepted(capsys):
    write("a.py", "x = 1\n")
    assert run(capsys, "check", "--no-cache", "a.py")[0] == 0


def test_version_in_process(capsys):
    assert run(capsys, "--version") == (0, f"gradguard {__version__}\n", "")
    assert run(capsys, "check", "--version")[1] == f"gradguard {__version__}\n"


def test_version_of_the_installed_console_script():
    script = Path(sys.executable).parent / "gradguard"
    result = subprocess.run([str(script), "--version"], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0
    assert result.stdout.strip() == f"gradguard {__version__}"


def test_the_check_program_ends_with_its_output_flushed_and_its_exit_code(tmp_path):
    # The program leaves with os._exit after flushing (cli._exit_now): nothing may be lost in a pipe.
    script = Path(sys.executable).parent / "gradguard"
    env = {name: value for name, value in os.environ.items() if name != "PYTHONUNBUFFERED"}  # block-buffered stdout
    source = ("import tensorflow as tf\nmodel = tf.keras.Sequential([tf.keras.layers.Dense(1)])\n"
              "with tf.GradientTape() as tape:\n    loss = tf.reduce_mean(tf.round(model(tf.ones((2, 3)))))\n"
              "grads = tape.gradient(loss, model.trainable_variables)\n")
    for index in range(300):
        (tmp_path / f"m{index:03}.py").write_text(source)
    piped = subprocess.run([str(script), "check", "--no-cache", "--output-format", "json", "."], cwd=tmp_path,
                           env=env, capture_output=True, text=True, timeout=120)
    assert piped.returncode == 1 and len(json.loads(piped.stdout)) == 300  # 64 kB of JSON, all of it
    clean = subprocess.run([str(script), "check", "--no-cache", "--exit-zero", "m000.py"], cwd=tmp_path,
                           env=env, capture_output=True, text=True, timeout=60)
    assert clean.returncode == 0 and "GG401" in clean.stdout and clean.stdout.endswith("\n")
    reader_left = subprocess.run(f"'{script}' check --no-cache . | head -c 10", shell=True, cwd=tmp_path,
                                 env=env, capture_output=True, text=True, timeout=120)
    assert reader_left.returncode == 0 and len(reader_left.stdout) == 10 and "Traceback" not in reader_left.stderr


def test_no_subcommand_prints_usage_and_exits_2(capsys):
    code, out, err = run(capsys)
    assert code == 2 and out == "" and err.startswith("usage: gradguard") and "give a command" in err
    code, out, _ = run(capsys, "help")
    assert code == 0 and "usage: gradguard" in out and "check" in out and "server" in out


@pytest.mark.parametrize("argv", [["check", "--format", "xml", "a.py"], ["check", "--bogus"], ["nope"]])
def test_usage_errors_exit_2(capsys, argv):
    code, _, err = run(capsys, *argv)
    assert code == 2 and "usage:" in err


def test_missing_path_exits_2(capsys):
    write("a.py", BAD)
    code, out, err = run(capsys, "check", "a.py", "missing.py")
    assert code == 2
    assert "gradguard: missing.py: no such file or folder" in err
    assert "a.py:2:6: GG999" in out  # the other file is still checked


def test_folder_without_python_files_warns(capsys):
    Path("empty").mkdir()
    code, _, err = run(capsys, "check", "empty")
    assert code == 0 and "no Python files found" in err


# ------------------------------------------------------------------------------ selection


def test_select_and_ignore_options(capsys):
    write("a.py", BAD + "z = float(w)\n")
    assert "GG998" in run(capsys, "check", "a.py")[1]
    code, out, _ = run(capsys, "check", "--select", "GG998", "a.py")
    assert code == 1 and "GG998" in out and "GG999" not in out
    code, out, _ = run(capsys, "check", "--ignore", "GG998,GG999", "a.py")
    assert (code, out) == (0, "All checks passed!\n")


def test_unknown_code_in_option_exits_2(capsys):
    write("a.py", BAD)
    code, out, err = run(capsys, "check", "--select", "GG12345", "a.py")
    assert code == 2 and out == ""
    assert err.startswith("gradguard: --select: unknown rule code 'GG12345'") and err.count("\n") == 1


def test_pyproject_config_is_found_from_the_path(capsys, tmp_path):
    write("proj/pyproject.toml", """
[tool.gradguard]
ignore = ["GG998"]
[tool.gradguard.per-file-ignores]
"tests/*.py" = ["GG999"]
[tool.gradguard.severity]
GG999 = "info"
""")
    write("proj/src/a.py", BAD + "z = float(w)\n")
    write("proj/tests/test_a.py", BAD)
    code, out, _ = run(capsys, "check", "--format", "json", "proj")
    items = json.loads(out)
    assert code == 1
    assert [(i["path"], i["code"], i["severity"]) for i in items] == [("proj/src/a.py", "GG999", "info")]
    # --select replaces the file's selection; the file's ignores still apply
    items = json.loads(run(capsys, "check", "--format", "json", "--select", "GG998", "proj")[1])
    assert items == []


def test_explicit_config_option(capsys):
    write("a.py", BAD + "z = float(w)\n")
    write("conf/gradguard.toml", 'select = ["GG998"]\n')
    items = json.loads(run(capsys, "check", "--format", "json", "--config", "conf/gradguard.toml", "a.py")[1])
    assert [i["code"] for i in items] == ["GG998"]


def test_bad_config_exits_2_with_one_line_and_no_traceback(capsys):
    write("pyproject.toml", '[tool.gradguard]\nselct = ["GG1"]\n')
    write("a.py", BAD)
    code, out, err = run(capsys, "check", "a.py")
    assert code == 2 and out == ""
    assert "pyproject.toml: [tool.gradguard]: unknown key 'selct'" in err
    assert "Traceback" not in err and err.count("\n") == 1


def test_missing_config_file_exits_2(capsys):
    write("a.py", BAD)
    code, _, err = run(capsys, "check", "--config", "nope.toml", "a.py")
    assert code == 2 and "nope.toml: config file not found" in err


def test_suppression_comments_are_honoured(capsys):
    write("a.py", "y = x.numpy()  # gradguard: ignore[GG999]\nz = x.numpy()  # noqa: GG998\n")
    code, out, _ = run(capsys, "check", "a.py")
    assert code == 1 and "a.py:1:" not in out and "a.py:2:6: GG999" in out


# ------------------------------------------------------------------------------ formats


def test_json_format(capsys):
    write("a.py", BAD)
    code, out, _ = run(capsys, "check", "--format", "json", "a.py")
    assert code == 1
    assert json.loads(out) == [{
        "path": "a.py", "cell": None, "line": 2, "column": 6, "end_line": 2, "end_column": 14, "code": "GG999",
        "name": "fake-numpy", "url": FakeNumpy.doc_url(), "severity": "error", "message": "`.numpy()` cuts the gradient",
        "fix": {"title": "Remove `.numpy()`", "safety": "safe", "edits": [
            {"cell": None, "line": 2, "column": 6, "end_line": 2, "end_column": 14, "content": ""}]},
        "related": [],
    }]


def test_sarif_format(capsys):
    write("a.py", BAD)
    sarif = json.loads(run(capsys, "check", "--format", "sarif", "a.py")[1])
    assert sarif["version"] == "2.1.0"
    assert [r["id"] for r in sarif["runs"][0]["tool"]["driver"]["rules"]] == ["GG998", "GG999", "E999", "E902", "GG900"]
    assert sarif["runs"][0]["results"][0]["ruleId"] == "GG999"


def test_github_format(capsys):
    write("a.py", BAD)
    out = run(capsys, "check", "--format", "github", "a.py")[1]
    assert out == "::error file=a.py,line=2,col=6,endLine=2,endColumn=14,title=GG999::`.numpy()` cuts the gradient\n"


def test_statistics(capsys):
    write("a.py", BAD + "z = x.numpy()\nw = float(v)\n")
    code, out, _ = run(capsys, "check", "--statistics", "a.py")
    assert code == 1
    assert out.splitlines() == ["2\tGG999\t[*] fake-numpy", "1\tGG998\t[ ] fake-cast"]
    rows = json.loads(run(capsys, "check", "--statistics", "--format", "json", "a.py")[1])
    assert [(r["code"], r["count"]) for r in rows] == [("GG999", 2), ("GG998", 1)]


def test_unsafe_fixes_without_fix_shows_them_fixable(capsys):
    write("a.py", "z = float(w)\n")
    out = run(capsys, "check", "a.py")[1]
    assert "GG998 float()" in out and "= help: Use tf.cast (unsafe fix)\n" in out
    assert out.endswith("Found 1 error.\n1 unsafe fix available with `--fix --unsafe-fixes`.\n")
    out = run(capsys, "check", "--unsafe-fixes", "a.py")[1]
    assert "GG998 [*] float()" in out and out.endswith("Found 1 error.\n[*] 1 fixable with `--fix`.\n")
    assert Path("a.py").read_text() == "z = float(w)\n"  # nothing written without --fix


# ------------------------------------------------------------------------------ fixing


def test_fix_applies_safe_fixes_only(capsys):
    write("a.py", BAD + "z = float(w)\n")
    code, out, _ = run(capsys, "check", "--fix", "a.py")
    assert Path("a.py").read_text() == "import tensorflow as tf\ny = x\nz = float(w)\n"
    assert code == 1 and "GG998" in out and "GG999" not in out
    assert out.endswith("Found 2 errors (1 fixed, 1 remaining).\n1 unsafe fix available with `--fix --unsafe-fixes`.\n")


def test_fix_with_unsafe_fixes(capsys):
    write("a.py", BAD + "z = float(w)\n")
    code, out, _ = run(capsys, "check", "--fix", "--unsafe-fixes", "a.py")
    assert Path("a.py").read_text() == "import tensorflow as tf\ny = x\nz = tf.cast(w, tf.float32)\n"
    assert (code, out) == (0, "Found 2 errors (2 fixed, 0 remaining).\n")


def test_fix_loop_needs_several_rounds_for_conflicting_fixes(capsys):
    write("a.py", "y = x.numpy().numpy().numpy()\n")
    code, out, _ = run(capsys, "check", "--fix", "a.py")
    assert Path("a.py").read_text() == "y = x\n"
    assert (code, out) == (0, "Found 3 errors (3 fixed, 0 remaining).\n")


def test_fix_loop_stops_after_ten_rounds(capsys, monkeypatch):
    calls = []

    def never_done(source, path="<stdin>", *, enabled=None, **_):
        calls.append(source)
        end = len(source.split("\n")[0])
        fix = Fix("grow", Safety.SAFE, (Edit(Span(1, end, 1, end), "#"),))
        return [Diagnostic("GG999", Severity.ERROR, "again", Span(1, 0, 1, 1), fixes=(fix,))]

    monkeypatch.setattr(api, "findings", never_done)
    write("a.py", "x = 1\n")
    code, out, _ = run(capsys, "check", "--fix", "a.py")
    assert Path("a.py").read_text() == "x = 1" + "#" * 10 + "\n"
    assert len(calls) == 11 and code == 1
    assert "Found 11 errors (10 fixed, 1 remaining)." in out


def test_fix_keeps_crlf_and_bom(capsys, monkeypatch):
    def add_line(source, path="<stdin>", *, enabled=None, **_):
        if "import tensorflow" in source:
            return []
        fix = Fix("import", Safety.SAFE, (Edit(Span(1, 0, 1, 0), "import tensorflow as tf\n"),))
        return [Diagnostic("GG999", Severity.ERROR, "m", Span(1, 0, 1, 1), fixes=(fix,))]

    monkeypatch.setattr(api, "findings", add_line)
    Path("a.py").write_bytes(b"\xef\xbb\xbfy = 1\r\nz = 2\r\n")
    assert run(capsys, "check", "--fix", "a.py")[0] == 0
    assert Path("a.py").read_bytes() == b"\xef\xbb\xbfimport tensorflow as tf\r\ny = 1\r\nz = 2\r\n"


def test_diff_prints_and_writes_nothing(capsys):
    write("a.py", BAD)
    code, out, err = run(capsys, "check", "--diff", "a.py")
    assert code == 1
    assert out == "--- a.py\n+++ a.py\n@@ -1,2 +1,2 @@\n import tensorflow as tf\n-y = x.numpy()\n+y = x\n"
    assert "Would fix 1 error." in err
    assert Path("a.py").read_text() == BAD


def test_diff_with_nothing_to_fix_exits_0(capsys):
    write("a.py", "z = float(w)\n")
    assert run(capsys, "check", "--diff", "a.py") == (0, "", "No errors would be fixed (1 fix available with `--unsafe-fixes`).\n")
    write("b.py", "x = 1\n")
    assert run(capsys, "check", "--diff", "b.py") == (0, "", "")
    code, out, _ = run(capsys, "check", "--diff", "--unsafe-fixes", "a.py")
    assert code == 1 and "+z = tf.cast(w, tf.float32)" in out


def test_diff_wins_over_fix(capsys):
    write("a.py", BAD)
    assert run(capsys, "check", "--fix", "--diff", "a.py")[0] == 1
    assert Path("a.py").read_text() == BAD


# ------------------------------------------------------------------------------ safe writing


def test_fix_writes_atomically_and_keeps_permissions(capsys):
    path = write("a.py", BAD)
    path.chmod(0o640)
    inode = path.stat().st_ino
    assert run(capsys, "check", "--fix", "a.py")[0] == 0
    assert path.read_text() == "import tensorflow as tf\ny = x\n"
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    assert path.stat().st_ino != inode  # replaced by a new file, not rewritten in place
    assert sorted(os.listdir(".")) == ["a.py"]  # no temp file left behind


def test_failed_replace_leaves_the_original_and_no_temp_file(capsys, monkeypatch):
    write("a.py", BAD)

    def broken_replace(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(files.os, "replace", broken_replace)
    code, out, err = run(capsys, "check", "--fix", "a.py")
    assert code == 2
    assert "gradguard: a.py: cannot write fixes: No space left on device" in err
    assert Path("a.py").read_text() == BAD and sorted(os.listdir(".")) == ["a.py"]
    assert "a.py:2:6: GG999" in out  # what is still on disk is reported


def test_file_changed_since_read_is_not_overwritten(capsys, monkeypatch):
    path = write("a.py", BAD)

    def editor_saves_meanwhile(source, path_="<stdin>", *, enabled=None, **_):
        if "edited" not in path.read_text():
            path.write_text("edited = True\n")
        return fake_findings(source, path_, enabled=enabled)

    monkeypatch.setattr(api, "findings", editor_saves_meanwhile)
    code, _, err = run(capsys, "check", "--fix", "a.py")
    assert code == 2
    assert "a.py: changed on disk since it was read; fixes not written" in err
    assert path.read_text() == "edited = True\n"


def test_read_only_file_is_reported_not_crashed(capsys):
    path = write("a.py", BAD)
    path.chmod(0o444)
    code, out, err = run(capsys, "check", "--fix", "--exit-zero", "a.py")
    assert code == 2
    assert "gradguard: a.py: file is read-only; fixes not written" in err
    assert path.read_text() == BAD and "a.py:2:6: GG999 [*]" in out and "Traceback" not in err


def test_fix_through_a_symlink_inside_the_project_keeps_the_link(capsys):
    Path(".git").mkdir()
    real = write("real.py", BAD)
    Path("link.py").symlink_to("real.py")
    assert run(capsys, "check", "--fix", ".")[0] == 0
    assert Path("link.py").is_symlink() and real.read_text() == "import tensorflow as tf\ny = x\n"


def test_symlinks_out_of_the_project_are_reported_and_skipped(capsys, tmp_path):
    write("outside/evil.py", BAD)
    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)
    write(project / "ok.py", "x = 1\n")
    (project / "evil.py").symlink_to(tmp_path / "outside" / "evil.py")
    (project / "vendor").symlink_to(tmp_path / "outside", target_is_directory=True)
    code, out, err = run(capsys, "check", "--fix", "project")
    assert code == 0 and "GG999" not in out
    assert "project/evil.py: symlink to" in err and "project/vendor: symlink to" in err
    assert "points outside the project; skipped" in err
    assert (tmp_path / "outside" / "evil.py").read_text() == BAD
    code, _, err = run(capsys, "check", "project/evil.py")
    assert "points outside the project; skipped" in err


# ------------------------------------------------------------------------------ bad files


def test_syntax_error_is_reported_and_checking_continues(capsys):
    write("bad.py", "x = 1\ndef f(:\n    pass\n")
    write("good.py", BAD)
    code, out, _ = run(capsys, "check", ".")
    assert code == 1
    assert re.search(r"^bad\.py:2:7: E999 SyntaxError: .+$", out, re.MULTILINE)
    assert "good.py:2:6: GG999" in out


def test_syntax_error_is_not_fixed(capsys):
    write("bad.py", "y = x.numpy(\n")
    assert run(capsys, "check", "--fix", "bad.py")[0] == 1
    assert Path("bad.py").read_text() == "y = x.numpy(\n"


def test_binary_and_non_utf8_files_get_a_clear_message(capsys):
    Path("bin.py").write_bytes(b"\x00\x01\x02")
    Path("latin.py").write_bytes(b"x = '\xe9'\n")
    write("good.py", BAD)
    code, out, err = run(capsys, "check", ".")
    assert code == 1 and "Traceback" not in err
    assert "bin.py:1:1: E902 binary file (contains NUL bytes); not checked" in out
    assert "latin.py:1:1: E902 not UTF-8 text (byte 0xe9 at offset 5); not checked" in out
    assert "good.py:2:6: GG999" in out


def test_analyzer_crash_on_one_file_is_an_internal_error(capsys, monkeypatch):
    def crash_on_b(source, path="<stdin>", *, enabled=None, **_):
        if "boom" in source:
            raise RuntimeError("engine exploded")
        return fake_findings(source, path, enabled=enabled)

    monkeypatch.setattr(api, "findings", crash_on_b)
    write("a.py", BAD)
    write("b.py", "boom = 1\n")
    code, out, err = run(capsys, "check", ".")
    assert code == 2
    assert "gradguard: internal error while checking b.py: RuntimeError: engine exploded" in err
    assert "please report" in err and "Traceback" not in err
    assert "a.py:2:6: GG999" in out


def test_unexpected_exception_in_main_is_an_internal_error(capsys, monkeypatch):
    def explode(args):
        raise KeyError("oops")

    monkeypatch.setattr(cli, "run_check", explode)
    code, _, err = run(capsys, "check", ".")
    assert code == 2
    assert err.startswith("gradguard: internal error: KeyError: 'oops'\n") and "report" in err


# ------------------------------------------------------------------------------ finding files


def test_folders_are_walked_for_py_and_ipynb_only(capsys):
    write("pkg/a.py", BAD)
    write("pkg/sub/b.py", BAD)
    write("pkg/notes.txt", BAD)
    write("pkg/nb.ipynb", notebook(["y = x.numpy()\n"]))
    out = run(capsys, "check", "--format", "json", "pkg")[1]
    assert sorted({i["path"] for i in json.loads(out)}) == ["pkg/a.py", "pkg/nb.ipynb", "pkg/sub/b.py"]


def test_default_excludes(capsys):
    for folder in (".git", ".venv", "venv", "__pycache__", "node_modules", "build", "dist", ".tox",
                   ".mypy_cache", "lib/site-packages"):
        write(f"{folder}/x.py", BAD)
    write("src/a.py", BAD)
    out = run(capsys, "check", "--format", "json", ".")[1]
    assert [i["path"] for i in json.loads(out)] == ["src/a.py"]


def test_gitignore_semantics(capsys):
    write(".gitignore", "# comment\n*_gen.py\n/top.py\nout/\ndata/**\n!keep_gen.py\n")
    write("sub/.gitignore", "!local_gen.py\nonly_here.py\n")
    names = ["a.py", "x_gen.py", "keep_gen.py", "top.py", "sub/top.py", "out/o.py", "deep/out/o.py",
             "data/d/e.py", "sub/local_gen.py", "sub/only_here.py", "only_here.py", "sub/y_gen.py"]
    for name in names:
        write(name, BAD)
    out = run(capsys, "check", "--format", "json", ".")[1]
    assert sorted(i["path"] for i in json.loads(out)) == [
        "a.py", "keep_gen.py", "only_here.py", "sub/local_gen.py", "sub/top.py"
    ]


def test_gitignore_of_the_project_applies_when_checking_a_subfolder(capsys):
    Path(".git").mkdir()
    write(".gitignore", "generated/\n")
    write("pkg/generated/x.py", BAD)
    write("pkg/a.py", BAD)
    out = run(capsys, "check", "--format", "json", "pkg")[1]
    assert [i["path"] for i in json.loads(out)] == ["pkg/a.py"]


def test_config_exclude_and_extend_exclude(capsys):
    write("pyproject.toml", '[tool.gradguard]\nexclude = ["gen/"]\nextend-exclude = ["legacy/**", "*_old.py"]\n')
    for name in ("gen/a.py", "legacy/b/c.py", "x_old.py", "main.py"):
        write(name, BAD)
    out = run(capsys, "check", "--format", "json", ".")[1]
    assert [i["path"] for i in json.loads(out)] == ["main.py"]
    # a file named on the command line (as pre-commit does) still honours the config excludes
    assert run(capsys, "check", "--format", "json", "x_old.py")[1] == "[]\n"


def test_progress_on_a_terminal_for_many_files(capsys, monkeypatch):
    for number in range(51):
        write(f"m{number:02}.py", "x = 1\n")
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    err = run(capsys, "check", ".")[2]
    assert "\rgradguard: checking 1/51 files" in err and "checking 51/51 files" in err
    monkeypatch.setattr(sys.stderr, "isatty", lambda: False)
    assert run(capsys, "check", ".")[2] == ""


def test_no_progress_for_few_files(capsys, monkeypatch):
    for number in range(50):
        write(f"m{number:02}.py", "x = 1\n")
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    assert run(capsys, "check", ".")[2] == ""


# ------------------------------------------------------------------------------ stdin


def set_stdin(monkeypatch, text: str):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode()), encoding="utf-8"))


def test_stdin_with_filename(capsys, monkeypatch):
    set_stdin(monkeypatch, BAD)
    code, out, _ = run(capsys, "check", "-", "--stdin-filename", "pkg/model.py")
    assert code == 1 and out.startswith("pkg/model.py:2:6: GG999")


def test_stdin_without_filename(capsys, monkeypatch):
    set_stdin(monkeypatch, BAD)
    assert run(capsys, "check", "-")[1].startswith("-:2:6: GG999")


def test_stdin_fix_prints_fixed_code_and_reports_on_stderr(capsys, monkeypatch):
    set_stdin(monkeypatch, BAD + "z = float(w)\n")
    code, out, err = run(capsys, "check", "--fix", "-", "--stdin-filename", "m.py")
    assert out == "import tensorflow as tf\ny = x\nz = float(w)\n"
    assert code == 1 and "m.py:3:5: GG998" in err


def test_stdin_fix_of_undecodable_input_echoes_it(capsysbinary, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"x = '\xe9'\n"), encoding="utf-8"))
    code = cli.main(["check", "--fix", "-"])
    out, err = capsysbinary.readouterr()
    assert code == 1 and out == b"x = '\xe9'\n"
    assert b"-:1:1: E902 not UTF-8 text" in err


def test_python_s_warnings_about_the_checked_code_are_not_printed(tmp_path):
    # `1if` is valid Python that CPython's parser warns about (SyntaxWarning: invalid decimal
    # literal); the code is the user's, and no warning of the parser's is ours to print.
    (tmp_path / "m.py").write_text("x = 1if True else 2\n", encoding="utf-8")
    script = Path(sys.executable).parent / "gradguard"
    result = subprocess.run([str(script), "check", "--no-cache", "m.py"], cwd=tmp_path, capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 0 and result.stderr == "", result.stderr


def test_stdin_per_file_ignores_use_the_stdin_filename(capsys, monkeypatch):
    write("pyproject.toml", '[tool.gradguard.per-file-ignores]\n"tests/*" = ["GG999"]\n')
    set_stdin(monkeypatch, BAD)
    assert run(capsys, "check", "-", "--stdin-filename", "tests/t.py")[0] == 0


# ------------------------------------------------------------------------------ notebooks


def test_notebook_positions_are_per_cell(capsys):
    write("nb.ipynb", notebook(["import tensorflow as tf\n"], ["%matplotlib inline\n", "y = x.numpy()\n"]))
    code, out, _ = run(capsys, "check", "nb.ipynb")
    assert code == 1 and out.startswith("nb.ipynb:cell 3:2:6: GG999 [*]")


def test_notebook_fix_writes_cells_back_and_keeps_outputs(capsys):
    output = {"name": "stdout", "output_type": "stream", "text": ["done\n"]}
    text = notebook(["import tensorflow as tf\n"], ["%time f()\n", "y = x.numpy().numpy()\n", "z = 1"], outputs=[output])
    write("nb.ipynb", text)
    code, out, _ = run(capsys, "check", "--fix", "nb.ipynb")
    assert (code, out) == (0, "Found 2 errors (2 fixed, 0 remaining).\n")
    data, before = json.loads(Path("nb.ipynb").read_text()), json.loads(text)
    assert data["cells"][2]["source"] == ["%time f()\n", "y = x\n", "z = 1"]
    assert data["cells"][2]["outputs"] == [output] and data["cells"][0]["outputs"] == [output]
    assert data["cells"][0] == before["cells"][0] and data["cells"][1] == before["cells"][1]
    assert Path("nb.ipynb").read_text() == text.replace('"y = x.numpy().numpy()\\n"', '"y = x\\n"')


def test_notebook_diff_is_per_cell(capsys):
    text = notebook(["y = x.numpy()\n"])
    write("nb.ipynb", text)
    code, out, _ = run(capsys, "check", "--diff", "nb.ipynb")
    assert code == 1
    assert out == "--- nb.ipynb:cell 1\n+++ nb.ipynb:cell 1\n@@ -1 +1 @@\n-y = x.numpy()\n+y = x\n"
    assert Path("nb.ipynb").read_text() == text


def test_notebook_fix_across_two_cells_is_skipped(capsys, monkeypatch):
    def with_cross_cell_fix(source, path="<stdin>", *, enabled=None, **_):
        across = Fix("join cells", Safety.SAFE, (Edit(Span(1, 0, 2, 1), ""),))
        diag = Diagnostic("GG998", Severity.ERROR, "across", Span(1, 0, 1, 1), fixes=(across,))
        return sorted(fake_findings(source, path) + [diag], key=lambda d: d.span)

    monkeypatch.setattr(api, "findings", with_cross_cell_fix)
    write("nb.ipynb", notebook(["a = 1\n"], ["y = x.numpy()\n"]))
    code, out, _ = run(capsys, "check", "--fix", "nb.ipynb")
    cells = json.loads(Path("nb.ipynb").read_text())["cells"]
    assert cells[0]["source"] == ["a = 1\n"] and cells[2]["source"] == ["y = x\n"]
    assert code == 1 and "nb.ipynb:cell 1:1:1: GG998 [*] across" in out


def test_invalid_notebook_is_reported(capsys):
    write("nb.ipynb", "{not json")
    write("a.py", BAD)
    code, out, _ = run(capsys, "check", ".")
    assert code == 1
    assert "nb.ipynb:1:1: E902 invalid notebook JSON" in out and "a.py:2:6: GG999" in out


# ------------------------------------------------------------------------------ gradguard rule


def test_rule_prints_markdown(capsys):
    code, out, _ = run(capsys, "rule", "gg999")
    assert code == 0 and out.startswith("# GG999: fake-numpy\n") and "## Use instead" in out
    assert run(capsys, "rule", "fake-cast")[1].startswith("# GG998: fake-cast")


def test_rule_unknown_suggests_close_matches(capsys):
    code, out, err = run(capsys, "rule", "GG99")
    assert code == 2 and out == ""
    assert err.startswith("gradguard: unknown rule 'GG99'; did you mean ") and "GG999" in err
    code, _, err = run(capsys, "rule", "fake-nampy")
    assert code == 2 and "fake-numpy" in err


def test_rule_without_code_is_a_usage_error(capsys):
    code, _, err = run(capsys, "rule")
    assert code == 2 and "give a rule code" in err


def test_rule_all_text_and_json(capsys):
    code, out, _ = run(capsys, "rule", "--all")
    lines = out.splitlines()
    assert code == 0 and len(lines) == 5  # the rules, then the CLI's own codes E999, E902, GG900
    assert lines[0].split()[:3] == ["GG998", "fake-cast", "warning"]
    assert lines[1].startswith("GG999  fake-numpy") and "fix" in lines[1]
    assert [line.split()[:2] for line in lines[2:]] == [["E999", "syntax-error"], ["E902", "io-error"],
                                                        ["GG900", "unused-suppression"]]
    rows = json.loads(run(capsys, "rule", "--all", "--format", "json")[1])
    assert [row["code"] for row in rows] == ["GG998", "GG999", "E999", "E902", "GG900"]
    assert rows[1] == {"code": "GG999", "name": "fake-numpy", "summary": "`.numpy()` on a tensor",
                       "severity": "error", "fix_safety": "text", "url": FakeNumpy.doc_url()}


# ------------------------------------------------------------------------------ gradguard server


def test_server_delegates_with_its_arguments(capsys, monkeypatch):
    received = []
    module = types.ModuleType("gradguard.server")
    module.main = lambda args: received.append(args) or 7
    monkeypatch.setitem(sys.modules, "gradguard.server", module)
    assert cli.main(["server", "--stdio", "--check-parent-process"]) == 7
    assert received == [["--stdio", "--check-parent-process"]]


def test_server_missing_exits_2(capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "gradguard.server", None)  # makes the import fail
    code, _, err = run(capsys, "server")
    assert code == 2 and "language server is not available" in err


def test_server_without_main_exits_2(capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "gradguard.server", types.ModuleType("gradguard.server"))
    code, _, err = run(capsys, "server")
    assert code == 2 and "has no main" in err


# ------------------------------------------------------------------------------ the real engine


def copy_program(name: str) -> Path:
    return Path(shutil.copy(PROGRAMS / name, name))


def expected_codes(path: Path) -> list[str]:
    """The distinct codes of the program's `# expect:` header (its entries are `CODE@line`)."""
    from program_headers import parse_header

    return parse_header(path.read_text())["expect"]


@pytest.mark.usefixtures("real_engine")
@pytest.mark.parametrize("name", ["bad_dqn_numpy_q_values.py", "ok_dqn_target_numpy_outside_tape.py",
                                  "bad_nb_reinforce_numpy_probs.ipynb", "ok_nb_dqn_replay_target_network.ipynb"])
def test_real_engine_reports_what_the_program_header_expects(capsys, name):
    path = copy_program(name)
    code, out, err = run(capsys, "check", "--format", "json", name)
    assert err == ""
    codes = sorted({item["code"] for item in json.loads(out)})
    assert codes == expected_codes(path)
    assert code == (1 if codes else 0)


@pytest.mark.usefixtures("real_engine")
def test_real_engine_fix_removes_numpy_call(capsys):
    path = copy_program("bad_dqn_numpy_q_values.py")
    before = path.read_text()
    code, out, err = run(capsys, "check", "--fix", "--unsafe-fixes", path.name)
    assert (code, err) == (0, "") and "fixed, 0 remaining" in out
    after = path.read_text()
    assert after.count(".numpy()") < before.count(".numpy()")
    compile(after, path.name, "exec")
    assert run(capsys, "check", path.name)[0] == 0


# ------------------------------------------------------------------------------ pre-commit


def test_pre_commit_hooks():
    yaml = pytest.importorskip("yaml")
    hooks = {hook["id"]: hook for hook in yaml.safe_load((PROGRAMS.parent.parent / ".pre-commit-hooks.yaml").read_text())}
    assert hooks["gradguard"]["entry"] == "gradguard check"
    assert hooks["gradguard-fix"]["entry"] == "gradguard check --fix"
    for hook in hooks.values():
        assert hook["language"] == "python" and hook["types_or"] == ["python", "jupyter"]


# ------------------------------------------------------------------------------ worker processes


def _mixed_folder() -> None:
    for index in range(6):
        write(f"pkg/m{index}.py", BAD if index % 2 else "x = 1\n")
    write("pkg/broken.py", "def f(:\n")
    Path("pkg/bin.py").write_bytes(b"\x00\x01")
    write("pkg/boom.py", "boom = x.numpy()\n")
    write("pkg/nb.ipynb", notebook("y = x.numpy()\n"))


@pytest.mark.parametrize("extra", [[], ["--fix"], ["--diff"], ["--statistics"], ["--format", "json"]])
def test_worker_processes_report_exactly_what_one_process_does(capsys, monkeypatch, extra):
    def crash_on_boom(source, path="<stdin>", *, enabled=None, **_):
        if "boom" in source:
            raise RuntimeError("engine exploded")
        return fake_findings(source, path, enabled=enabled)

    monkeypatch.setattr(api, "findings", crash_on_boom)
    _mixed_folder()
    shutil.copytree("pkg", "copy")
    Path("pkg/m5.py").chmod(0o444)  # a file --fix cannot write
    Path("copy/m5.py").chmod(0o444)
    serial = run(capsys, "check", "--jobs", "1", *extra, "pkg")
    parallel = run(capsys, "check", "--jobs", "3", *extra, "copy")
    assert parallel == tuple(part.replace("pkg", "copy") if isinstance(part, str) else part for part in serial)
    assert "internal error while checking copy/boom.py" in parallel[2]
    assert [p.read_text() for p in sorted(Path("pkg").glob("*.py")) if p.name != "bin.py"] == \
        [p.read_text() for p in sorted(Path("copy").glob("*.py")) if p.name != "bin.py"]


def test_jobs_must_be_a_positive_number(capsys):
    write("a.py", BAD)
    code, _, err = run(capsys, "check", "--jobs", "0", "a.py")
    assert code == 2 and "expected a number of processes (1 or more), got '0'" in err


def test_small_inputs_use_one_process_and_big_ones_one_per_core(monkeypatch):
    from gradguard.rules.app import parallel

    monkeypatch.setattr(parallel, "available_cores", lambda: 4)
    assert parallel.worker_count(None, [2_000] * 10) == 1       # 20 kB: forking costs more than it saves
    assert parallel.worker_count(None, [30_000] * 200) == 4
    assert parallel.worker_count(None, [10_000_000]) == 1       # one file: one process
    assert parallel.worker_count(3, [10] * 2) == 2


def _pid_and_item(item):
    return os.getpid(), item * 10


def test_the_costliest_items_go_out_first_and_the_results_come_back_in_order():
    from gradguard.rules.app import parallel

    costs = [1, 50, 3, 40, 2, 99, 0, 7] * 5
    results = list(parallel.ordered_map(_pid_and_item, list(range(len(costs))), 2, lambda: None, (), costs=costs))
    assert [item for _, item in results] == [index * 10 for index in range(len(costs))]
    order = parallel._costliest_first(len(costs), costs)
    assert [costs[index] for index in order] == sorted(costs, reverse=True)
    chunks = list(parallel._chunks(order, 2))
    assert [index for chunk in chunks for index in chunk] == order  # every item once, costliest first
    assert len(chunks[0]) == len(costs) // 8 and [len(chunk) for chunk in chunks[-3:]] == [1, 1, 1]


def test_import_roots_are_looked_up_once_per_folder_whatever_the_configuration(tmp_path, monkeypatch):
    import argparse

    from gradguard.rules.app import check
    from gradguard.rules.project.config import Config
    from gradguard.rules.project.files import import_root

    (tmp_path / "a" / ".git").mkdir(parents=True)
    names = ("a/x/m.py", "a/x/n.py", "a/m.py", "b/k.py", "b/l.py", "b/pkg/__init__.py", "b/pkg/sub/__init__.py",
             "b/pkg/sub/s.py")
    for name in names:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("x = 1\n")
    files = [tmp_path / name for name in names if not name.endswith("__init__.py")]
    looked_up = []
    monkeypatch.setattr(check, "import_root", lambda path: looked_up.append(path) or import_root(path))
    # The repository with .git, else the folder above the top package: never the config's folder.
    expected = [tmp_path / "a"] * 3 + [tmp_path / "b"] * 3
    for config in (Config(), Config(root=tmp_path / "a" / "x"), Config(root=tmp_path), Config(root=tmp_path / "c")):
        looked_up.clear()
        run = check.CheckRun(argparse.Namespace(), config)
        assert [run._import_root(path) for path in files] == expected
        assert len(looked_up) == 4  # a/x, a, b, b/pkg/sub


_CHURN = """
import resource, sys
from gradguard.rules.app import parallel
if sys.argv[1] == "keep":
    parallel.keep_freed_memory()
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
for _ in range(20):  # what each file's analysis does: allocate megabytes, free them all
    blocks = [bytes(2048) for _ in range(4000)]  # 8 MB from malloc (pymalloc keeps <= 512 bytes)
    del blocks
print(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)
"""


@pytest.mark.skipif(not hasattr(os, "confstr") or not os.confstr("CS_GNU_LIBC_VERSION"), reason="glibc's malloc only")
def test_a_run_of_many_files_keeps_freed_memory_instead_of_faulting_it_in_again():
    faults = {mode: int(subprocess.run([sys.executable, "-c", _CHURN, mode], capture_output=True, text=True,
                                       check=True).stdout) for mode in ("default", "keep")}
    assert faults["keep"] * 4 < faults["default"]  # ~2,000 page faults instead of ~40,000


def _exit_on_three(item):
    if item == 3:
        os._exit(9)  # a worker killed (out of memory, SIGKILL) does not raise: it vanishes
    return item * 10


def test_a_worker_that_dies_is_reported_with_the_results_before_it():
    from gradguard.rules.app import parallel

    results = []
    with pytest.raises(parallel.WorkerDied) as died:
        for result in parallel.ordered_map(_exit_on_three, [0, 1, 2, 3, 4, 5], 2, lambda: None, ()):
            results.append(result)
    assert results == [0, 10, 20][: died.value.done] and died.value.done <= 3


def test_a_dead_worker_leaves_no_file_unchecked(capsys, monkeypatch):
    from gradguard.rules.app import parallel

    def dies_after_two(function, items, jobs, initializer, initargs, **_):
        initializer(*initargs)
        yield function(items[0])
        yield function(items[1])
        raise parallel.WorkerDied(2, RuntimeError("A process in the process pool was terminated abruptly"))

    monkeypatch.setattr(parallel, "ordered_map", dies_after_two)
    for index in range(5):
        write(f"m{index}.py", BAD)
    code, out, err = run(capsys, "check", "--jobs", "2", ".")
    assert code == 1 and out.count("GG999") == 5
    assert "a worker process died (A process in the process pool was terminated abruptly); " \
           "checking the other 3 files here" in err


def test_gg900_analyses_again_only_the_files_with_a_suppression_comment(capsys, monkeypatch):
    analysed = []

    def counting(source, path="<stdin>", *, enabled=None, **_):
        analysed.append(str(path))
        return fake_findings(source, path, enabled=enabled)

    monkeypatch.setattr(api, "findings", counting)
    write("plain.py", BAD + "# a comment, no suppression\n")
    write("used.py", "y = x.numpy()  # noqa: GG999\n")
    write("unused.py", "y = 1  # gradguard: ignore[GG998]\n")
    write("other_tool.py", "import os  # noqa: F401\n")  # another tool's code: never judged
    code, out, _ = run(capsys, "check", "--no-cache", "--extend-select", "GG900", ".")
    assert "unused.py:1:8: GG900" in out and out.count("GG900") == 1 and "plain.py:2:6: GG999" in out
    # Every file for the check, then again for GG900 only those with a comment that could be unused.
    assert sorted(analysed) == sorted(["other_tool.py", "plain.py", "unused.py", "used.py"] + ["unused.py", "used.py"])


# ------------------------------------------------------------------------------ result cache


@pytest.fixture
def analysed(monkeypatch):
    """The files the (fake) analyzer was run on, in order; the cache in its default place."""
    monkeypatch.delenv("GRADGUARD_CACHE_DIR")
    paths = []

    def counting(source, path="<stdin>", *, enabled=None, **_):
        paths.append(str(path))
        return fake_findings(source, path, enabled=enabled)

    monkeypatch.setattr(api, "findings", counting)
    return paths


def test_unchanged_files_are_not_analysed_again(capsys, analysed):
    Path(".git").mkdir()
    write("a.py", BAD)
    write("b.py", "x = 1\n")
    write("nb.ipynb", notebook("y = x.numpy()\n"))
    first = run(capsys, "check", ".")
    assert sorted(analysed) == ["a.py", "b.py", "nb.ipynb"]
    assert run(capsys, "check", ".") == first and len(analysed) == 3
    assert "nb.ipynb:cell 1:1:6: GG999" in first[1]  # cached notebook findings keep their cells
    write("b.py", "y = x.numpy()\n")
    assert run(capsys, "check", ".")[0] == 1 and analysed[3:] == ["b.py"]
    run(capsys, "check", "--select", "GG998", ".")  # other settings: other results
    assert len(analysed) == 7


def test_the_cache_folder_explains_itself_and_is_ignored(capsys, monkeypatch):
    monkeypatch.delenv("GRADGUARD_CACHE_DIR")
    Path(".git").mkdir()
    write("a.py", BAD)
    run(capsys, "check", "a.py")
    folder = Path(".gradguard_cache")
    assert (folder / ".gitignore").read_text().splitlines()[-1] == "*"
    assert (folder / "CACHEDIR.TAG").read_text().startswith("Signature: 8a477f597d28d172789f06886806bc55")
    write(".gradguard_cache/stray.py", BAD)
    assert "stray" not in run(capsys, "check", ".")[1]


def test_no_cache_fix_and_diff_neither_read_nor_write_it(capsys, analysed):
    Path(".git").mkdir()
    write("a.py", BAD)
    run(capsys, "check", "--no-cache", "a.py")
    assert not Path(".gradguard_cache").exists()
    run(capsys, "check", "a.py")
    run(capsys, "check", "--no-cache", "a.py")
    run(capsys, "check", "--diff", "a.py")
    assert run(capsys, "check", "--fix", "a.py")[0] == 0
    assert Path("a.py").read_text() == "import tensorflow as tf\ny = x\n" and len(analysed) >= 5


@pytest.mark.parametrize("damage", [
    lambda text: text[: len(text) // 2],
    lambda text: "[]",
    lambda text: re.sub(r'"span":\[[0-9,]+\]', '"span":[-1,0,0,0]', text),
    lambda text: text.replace('"message":"', '"message":7,"x":"'),
])
def test_a_damaged_cache_is_a_miss_not_an_error(capsys, analysed, damage):
    Path(".git").mkdir()
    write("a.py", BAD)
    first = run(capsys, "check", "a.py")
    [results] = Path(".gradguard_cache").glob("results-*.json")
    results.write_text(damage(results.read_text()))
    assert run(capsys, "check", "a.py") == first and analysed == ["a.py", "a.py"]


def test_an_unwritable_cache_costs_only_time(capsys, monkeypatch, tmp_path):
    write("a.py", BAD)
    blocker = write("blocker", "a file where the cache folder would go\n")
    monkeypatch.setenv("GRADGUARD_CACHE_DIR", str(blocker / "cache"))
    first = run(capsys, "check", "a.py")
    assert first[0] == 1 and first[2] == "" and run(capsys, "check", "a.py") == first


def test_cache_dir_comes_from_the_environment(capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("GRADGUARD_CACHE_DIR", str(tmp_path / "elsewhere"))
    write("a.py", BAD)
    run(capsys, "check", "a.py")
    assert list((tmp_path / "elsewhere").glob("results-*.json")) and not Path(".gradguard_cache").exists()
