"""What a ruff user expects of `gradguard check` (issue 15, items 4, 7, 8, 9), run as the real
CLI on real TensorFlow programs (its `main` in this process; the console script itself where a
process is needed): the text output's fixes, summary, colours and
carets; the small options; notebook cells in every format; SARIF and JSON for code scanning.

Each behaviour is next to ruff 0.17's, whose words the messages copy.
"""
from __future__ import annotations

import io
import json
import os
import pty
import re
import subprocess
import sys
from pathlib import Path

import pytest

from gradguard.rules.app import cli

GRADGUARD = Path(sys.executable).parent / "gradguard"

# GG401 with an unsafe fix (the straight-through estimator).
ROUND = '''import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
x = tf.ones((2, 3))
with tf.GradientTape() as tape:
    y = model(x)
    loss = tf.reduce_mean(tf.round(y))
grads = tape.gradient(loss, model.trainable_variables)
'''
# GG306 with a safe fix (watch the constant).
UNWATCHED = '''import tensorflow as tf

x = tf.constant([1.0, 2.0, 3.0])
with tf.GradientTape() as tape:
    y = tf.reduce_sum(x ** 2)
dy_dx = tape.gradient(y, x)
'''


def gradguard(*args: str, cwd: Path, stdin: str | None = None, env: dict | None = None):
    """`gradguard ARGS` in this process (its `main`, the real analyzer; a subprocess costs half a
    second): exit code, stdout and stderr."""
    saved_env, saved_cwd = dict(os.environ), os.getcwd()
    saved = sys.stdin, sys.stdout, sys.stderr
    out, err = io.TextIOWrapper(io.BytesIO(), encoding="utf-8"), io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    try:
        for name in ("NO_COLOR", "FORCE_COLOR"):
            os.environ.pop(name, None)
        os.environ.update(env or {})
        os.chdir(cwd)
        sys.stdin = io.TextIOWrapper(io.BytesIO((stdin or "").encode()), encoding="utf-8")
        sys.stdout, sys.stderr = out, err
        code = cli.main(list(args))
    finally:
        sys.stdin, sys.stdout, sys.stderr = saved
        os.chdir(saved_cwd)
        os.environ.clear()
        os.environ.update(saved_env)
    return code, _text(out), _text(err)


def _text(stream: io.TextIOWrapper) -> str:
    stream.flush()
    return stream.buffer.getvalue().decode("utf-8")


def command(*args: str, cwd: Path):
    """The installed console script itself, for what needs a process (a terminal, argv)."""
    result = subprocess.run([str(GRADGUARD), *args], cwd=cwd, capture_output=True, text=True, timeout=120)
    return result.returncode, result.stdout, result.stderr


def check(tmp_path: Path, *args: str, **kwargs):
    return gradguard("check", "--no-cache", *args, cwd=tmp_path, **kwargs)


def notebook(*cells: str) -> str:
    """A notebook with a markdown cell second: code cells are numbered among all cells."""
    items = [{"cell_type": "code", "execution_count": None, "id": f"c{i}", "metadata": {}, "outputs": [],
              "source": source.splitlines(keepends=True)} for i, source in enumerate(cells)]
    items.insert(1, {"cell_type": "markdown", "id": "md", "metadata": {}, "source": ["# notes\n"]})
    return json.dumps({"cells": items, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}, indent=1) + "\n"


# ------------------------------------------------------------------------------ 7. text output


def test_each_finding_says_its_fix_and_whether_it_is_unsafe(tmp_path):
    (tmp_path / "r.py").write_text(ROUND)
    (tmp_path / "w.py").write_text(UNWATCHED)
    code, out, _ = check(tmp_path, "r.py", "w.py")
    assert code == 1
    assert "  = help: Use a straight-through estimator: `tf.round` forward, identity gradient backward (unsafe fix)\n" in out
    assert "  = help: Add `tape.watch(x)`\n" in out
    # ruff 0.17: "[*] 1 fixable with `--fix` (1 unsafe fix available with `--fix --unsafe-fixes`)."
    assert out.endswith("Found 2 errors.\n[*] 1 fixable with `--fix` (1 unsafe fix available with `--fix --unsafe-fixes`).\n")
    code, out, _ = check(tmp_path, "--unsafe-fixes", "r.py", "w.py")
    assert out.endswith("Found 2 errors.\n[*] 2 fixable with `--fix`.\n")


def test_diff_with_only_unsafe_fixes_says_so(tmp_path):
    (tmp_path / "r.py").write_text(ROUND)
    code, out, err = check(tmp_path, "--diff", "r.py")
    assert (code, out) == (0, "")
    assert err == "No errors would be fixed (1 fix available with `--unsafe-fixes`).\n"
    (tmp_path / "w.py").write_text(UNWATCHED)
    code, out, err = check(tmp_path, "--diff", "r.py", "w.py")
    assert code == 1 and "+    tape.watch(x)" in out
    assert err == "Would fix 1 error (1 additional fix available with `--unsafe-fixes`).\n"
    assert (tmp_path / "r.py").read_text() == ROUND


def test_after_fix_the_summary_says_what_remains_fixable(tmp_path):
    (tmp_path / "r.py").write_text(ROUND)
    (tmp_path / "w.py").write_text(UNWATCHED)
    code, out, _ = check(tmp_path, "--fix", "r.py", "w.py")
    assert code == 1
    assert out.endswith("Found 2 errors (1 fixed, 1 remaining).\n1 unsafe fix available with `--fix --unsafe-fixes`.\n")


ANSI = re.compile(r"\x1b\[[0-9;]*m")


@pytest.mark.parametrize(("args", "env", "coloured"), [
    (["--color", "always"], {}, True),
    (["--color", "never"], {"FORCE_COLOR": "1"}, False),
    ([], {}, False),                      # not a terminal
    ([], {"FORCE_COLOR": "1"}, True),
    (["--color", "always"], {"NO_COLOR": "1"}, True),  # an explicit option wins, as in ruff
])
def test_colour_option_and_environment(tmp_path, args, env, coloured):
    (tmp_path / "r.py").write_text(ROUND)
    _, out, _ = check(tmp_path, *args, "r.py", env=env)
    assert bool(ANSI.search(out)) == coloured
    assert ANSI.sub("", out) == check(tmp_path, "--color", "never", "r.py")[1]


def _on_a_terminal(tmp_path: Path, env: dict) -> str:
    leader, follower = pty.openpty()
    environment = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    environment.update(env, TERM="xterm")
    process = subprocess.Popen([str(GRADGUARD), "check", "--no-cache", "r.py"], cwd=tmp_path, stdout=follower,
                               stderr=subprocess.DEVNULL, env=environment)
    os.close(follower)
    chunks = []
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:
            break
        if not chunk:
            break
        chunks.append(chunk)
    process.wait(timeout=60)
    os.close(leader)
    return b"".join(chunks).decode()


def test_colour_on_a_terminal_unless_no_color(tmp_path):
    (tmp_path / "r.py").write_text(ROUND)
    assert "\x1b[1;31mGG401\x1b[0m" in _on_a_terminal(tmp_path, {})
    assert not ANSI.search(_on_a_terminal(tmp_path, {"NO_COLOR": "1"}))


def test_carets_stand_under_wide_characters_and_after_tabs(tmp_path):
    line = '    loss = len("中文😀") * 0 + tf.reduce_mean(tf.round(y))'
    (tmp_path / "r.py").write_text(ROUND.replace("    loss = tf.reduce_mean(tf.round(y))", line))
    _, out, _ = check(tmp_path, "r.py")
    lines = out.splitlines()
    shown = next(i for i, text in enumerate(lines) if text.startswith("7 | "))
    caret = lines[shown + 1]
    # Terminal columns before `tf.round(y)`: the two CJK characters and the emoji take two each.
    prefix = line[: line.index("tf.round")]
    assert caret.index("^") - len("  | ") == len(prefix) + 3
    assert caret.count("^") == len("tf.round(y)")
    # a tab goes to the next multiple of 8, in the shown line and under it alike
    tabbed = UNWATCHED.replace("y = tf.reduce_sum(x ** 2)", "y = tf.reduce_sum(x ** 2)\tif True else 0")
    (tmp_path / "t.py").write_text(tabbed.replace("dy_dx = tape.gradient(y, x)", "dy_dx = tape.gradient(y,\tx)"))
    _, out, _ = check(tmp_path, "t.py")
    lines = out.splitlines()
    shown = next(i for i, text in enumerate(lines) if text.startswith("6 | "))
    assert lines[shown] == "6 | " + "dy_dx = tape.gradient(y,\tx)".expandtabs()
    assert lines[shown + 1].index("^") == lines[shown].index("x)")


# ------------------------------------------------------------------------------ 8. conveniences


def test_stdin_filename_alone_reads_stdin(tmp_path):
    (tmp_path / "other.py").write_text(UNWATCHED)  # would be found if `.` were checked
    code, out, _ = check(tmp_path, "--stdin-filename", "train.py", stdin=ROUND)
    assert code == 1 and out.startswith("train.py:7:27: GG401") and "other.py" not in out


def test_select_and_ignore_given_twice_add_up(tmp_path):
    (tmp_path / "r.py").write_text(ROUND)
    (tmp_path / "w.py").write_text(UNWATCHED)
    _, out, _ = check(tmp_path, "--select", "GG401", "--select", "GG306", ".")
    assert "GG401" in out and "GG306" in out
    code, out, _ = check(tmp_path, "--ignore", "GG401", "--ignore", "GG306", ".")
    assert (code, out) == (0, "All checks passed!\n")


def test_extend_select_adds_to_the_configured_selection(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.gradguard]\nselect = ["GG4"]\n')
    (tmp_path / "r.py").write_text(ROUND)
    (tmp_path / "w.py").write_text(UNWATCHED)
    _, out, _ = check(tmp_path, ".")
    assert "GG401" in out and "GG306" not in out
    _, out, _ = check(tmp_path, "--extend-select", "GG3", ".")
    assert "GG401" in out and "GG306" in out
    code, _, err = check(tmp_path, "--extend-select", "GG7", ".")
    assert code == 2 and "--extend-select: unknown rule code 'GG7'" in err


def test_exclude_and_show_files(tmp_path):
    for name in ("a.py", "gen/b.py", "c.ipynb"):
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text(UNWATCHED if name.endswith(".py") else notebook(UNWATCHED))
    code, out, _ = check(tmp_path, "--show-files", ".")
    assert code == 0 and out.splitlines() == [str(tmp_path / "a.py"), str(tmp_path / "c.ipynb"), str(tmp_path / "gen/b.py")]
    _, out, _ = check(tmp_path, "--show-files", "--exclude", "gen/", ".")
    assert out.splitlines() == [str(tmp_path / "a.py"), str(tmp_path / "c.ipynb")]
    _, out, _ = check(tmp_path, "--show-files", "--extend-exclude", "*.ipynb", "--extend-exclude", "gen", ".")
    assert out.splitlines() == [str(tmp_path / "a.py")]
    _, out, _ = check(tmp_path, "--exclude", "gen/,*.ipynb", ".")
    assert "a.py:" in out and "b.py" not in out and "c.ipynb" not in out


def test_show_settings(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.gradguard]\nignore = ["GG303"]\nmodel-names = ["brain"]\n')
    (tmp_path / "a.py").write_text("x = 1\n")
    code, out, _ = check(tmp_path, "--show-settings", "--select", "GG1,GG3", "--ignore", "GG101", "a.py")
    assert code == 0
    assert f"Settings path: {tmp_path / 'pyproject.toml'}\n" in out
    assert "select = ['GG1', 'GG3']\n" in out and "ignore = ['GG303', 'GG101']\n" in out
    assert "model-names = ['brain']\n" in out and out.startswith("Resolved settings for: a.py\n")


def test_add_noqa_then_everything_is_suppressed(tmp_path):
    (tmp_path / "r.py").write_text(ROUND)
    (tmp_path / "nb.ipynb").write_text(notebook(UNWATCHED))
    code, out, err = check(tmp_path, "--add-noqa", ".")
    assert (code, out, err) == (0, "", "Added 2 suppression comments.\n")
    assert "    loss = tf.reduce_mean(tf.round(y))  # gradguard: ignore[GG401]\n" in (tmp_path / "r.py").read_text()
    cells = json.loads((tmp_path / "nb.ipynb").read_text())["cells"]
    assert cells[0]["source"][-1] == "dy_dx = tape.gradient(y, x)  # gradguard: ignore[GG306]\n"
    assert check(tmp_path, ".")[:2] == (0, "All checks passed!\n")
    code, _, err = check(tmp_path, "--add-noqa", "--fix", ".")
    assert code == 2 and "--add-noqa cannot be combined with --fix or --diff" in err


def test_file_level_noqa(tmp_path):
    (tmp_path / "r.py").write_text("# gradguard: noqa: GG4\n" + ROUND)
    (tmp_path / "w.py").write_text("# gradguard: noqa\n" + UNWATCHED)
    (tmp_path / "s.py").write_text('"""\n# gradguard: noqa\n"""\n' + UNWATCHED)  # in a string: no comment
    code, out, _ = check(tmp_path, ".")
    assert code == 1 and "r.py" not in out and "w.py" not in out and "s.py:9:" in out
    (tmp_path / "r.py").write_text("# gradguard: noqa: GG3\n" + ROUND)
    assert "r.py:8:27: GG401" in check(tmp_path, "r.py")[1]


def test_unused_suppressions_are_found_only_when_gg900_is_selected(tmp_path):
    source = ROUND.replace("tf.round(y))", "tf.round(y))  # noqa: GG401, F401")
    source = source.replace("x = tf.ones((2, 3))", "x = tf.ones((2, 3))  # gradguard: ignore[GG101]")
    source = source.replace("model.trainable_variables)\n", "model.trainable_variables)  # noqa\n")
    (tmp_path / "r.py").write_text(source)
    assert check(tmp_path, "r.py")[:2] == (0, "All checks passed!\n")  # off by default, like RUF100
    code, out, _ = check(tmp_path, "--extend-select", "GG900", "r.py")
    assert code == 1
    assert "r.py:4:22: GG900 [*] Unused suppression comment (unused: GG101)" in out
    assert out.count("GG900") == 1  # the used GG401, ruff's F401 and a bare noqa are not judged
    assert "  = help: Remove the unused suppression comment\n" in out
    # used only by a rule the selection leaves out: unused, as ruff says of non-enabled codes
    code, out, _ = check(tmp_path, "--extend-select", "GG900", "--ignore", "GG401", "r.py")
    assert "r.py:7:41: GG900 [*] Unused suppression comment (unused: GG401)" in out and "= help: Remove unused GG401\n" in out
    assert check(tmp_path, "--select", "GG900", "--ignore", "GG900", "r.py")[:2] == (0, "All checks passed!\n")


def test_e999_in_ignore_and_rule_is_understood(tmp_path):
    (tmp_path / "bad.py").write_text("def f(:\n")
    code, out, err = check(tmp_path, "--ignore", "E999", "bad.py")
    assert code == 1 and "bad.py:1:7: E999" in out
    assert "E999 in --ignore has no effect" in err
    code, out, _ = gradguard("rule", "E999", cwd=tmp_path)
    assert code == 0 and out.startswith("# E999: syntax-error\n")
    code, out, _ = gradguard("rule", "e902", "--format", "json", cwd=tmp_path)
    assert code == 0 and json.loads(out)["name"] == "io-error"


def test_rule_as_json(tmp_path):
    code, out, _ = gradguard("rule", "GG101", "--format", "json", cwd=tmp_path)
    row = json.loads(out)
    assert code == 0 and row["code"] == "GG101" and row["name"] == "numpy-method-on-tensor"
    assert row["url"].endswith("/docs/rules/GG101.md") and row["explanation"].startswith("# GG101: ")


def test_version_help_and_usage(tmp_path):
    assert command("-V", cwd=tmp_path)[:2] == (0, f"gradguard {_version()}\n")
    code, out, _ = gradguard("help", cwd=tmp_path)
    assert code == 0 and out.startswith("usage: gradguard")
    code, out, _ = gradguard("help", "check", cwd=tmp_path)
    assert code == 0 and out.startswith("usage: gradguard check")
    code, out, err = command(cwd=tmp_path)
    assert (code, out) == (2, "") and err.startswith("usage: gradguard")
    code, _, err = gradguard("check", "--bogus", cwd=tmp_path)
    assert code == 2 and err.startswith("usage: gradguard check") and "unrecognized arguments: --bogus" in err


def _version() -> str:
    from gradguard.rules import __version__
    return __version__


def test_an_explicit_symlink_loop_exits_2_like_a_missing_path(tmp_path):
    (tmp_path / "one").symlink_to(tmp_path / "two")
    (tmp_path / "two").symlink_to(tmp_path / "one")
    (tmp_path / "r.py").write_text(ROUND)
    code, out, err = check(tmp_path, "one", "r.py")
    assert code == 2 and "gradguard: one: symlink loop; cannot be read" in err and "r.py:7:27: GG401" in out
    assert check(tmp_path, "missing", "r.py")[0] == 2


def test_a_number_in_a_list_of_codes_says_which_key_and_what_was_expected(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[tool.gradguard]\nignore = [101]\n")
    (tmp_path / "a.py").write_text("x = 1\n")
    code, _, err = check(tmp_path, "a.py")
    assert code == 2
    assert err == (f"gradguard: {tmp_path / 'pyproject.toml'}: [tool.gradguard]: ignore: expected a list of strings, "
                   "got 101 (an integer) in the list; write it quoted, e.g. \"GG101\"\n")


# ------------------------------------------------------------------------------ 4. notebooks


def _notebook_project(tmp_path: Path) -> None:
    first, second = ROUND.split("with tf.GradientTape()")
    (tmp_path / "nb.ipynb").write_text(notebook(first, "with tf.GradientTape()" + second))


def test_notebook_json_gives_the_cell_and_the_line_in_it(tmp_path):
    _notebook_project(tmp_path)
    item = json.loads(check(tmp_path, "--format", "json", "nb.ipynb")[1])[0]
    assert (item["code"], item["cell"], item["line"], item["column"]) == ("GG401", 3, 3, 27)
    assert (item["end_line"], item["end_column"]) == (3, 38)
    assert "in cell 3, line 4" in item["message"]  # "the loss given to `tape.gradient` on line 8" of the joined cells
    assert [(r["cell"], r["line"]) for r in item["related"]] == [(3, 2), (3, 4)]
    assert {edit["cell"] for edit in item["fix"]["edits"]} == {3}


def test_notebook_sarif_region_is_in_the_cell(tmp_path):
    _notebook_project(tmp_path)
    result = json.loads(check(tmp_path, "--format", "sarif", "nb.ipynb")[1])["runs"][0]["results"][0]
    location = result["locations"][0]
    assert location["physicalLocation"]["region"] == {"startLine": 3, "startColumn": 27, "endLine": 3, "endColumn": 38}
    assert location["properties"] == {"cell": 3} and result["properties"] == {"cell": 3}
    assert result["message"]["text"].startswith("cell 3: ")
    assert "fixes" not in result  # cell positions cannot be applied to the .ipynb's JSON


def test_notebook_github_annotation_names_the_cell(tmp_path):
    _notebook_project(tmp_path)
    out = check(tmp_path, "--format", "github", "nb.ipynb")[1]
    assert out.startswith("::error file=nb.ipynb,line=3,col=27,endLine=3,endColumn=38,title=GG401::cell 3, line 3: ")


# ------------------------------------------------------------------------------ 9. sarif and json


def test_sarif_for_code_scanning(tmp_path):
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "r.py").write_text(ROUND.replace("    loss = ", '    loss = len("😀") * 0 + '))
    (tmp_path / "src" / "bad.py").write_text("def f(:\n")
    (tmp_path / "src" / "bin.py").write_bytes(b"\xff\xfe")
    sarif = json.loads(check(tmp_path, "--format", "sarif", "src")[1])
    run = sarif["runs"][0]
    assert run["columnKind"] == "utf16CodeUnits"
    assert run["originalUriBaseIds"] == {"%SRCROOT%": {"uri": tmp_path.as_uri() + "/"}}
    rules = run["tool"]["driver"]["rules"]
    by_code = {result["ruleId"]: result for result in run["results"]}
    assert set(by_code) == {"E999", "E902", "GG401"}
    for result in run["results"]:
        rule = rules[result["ruleIndex"]]
        assert rule["id"] == result["ruleId"] and rule["helpUri"].startswith("https://")
        assert rule["help"]["text"] and rule["help"]["markdown"].startswith(f"# {rule['id']}: ")
    location = by_code["GG401"]["locations"][0]["physicalLocation"]
    assert location["artifactLocation"] == {"uri": "src/r.py", "uriBaseId": "%SRCROOT%"}
    # the emoji is one character and two UTF-16 code units: the column counts two
    line = (tmp_path / "src" / "r.py").read_text().splitlines()[6]
    assert location["region"]["startColumn"] == line.index("tf.round") + 2
    fix = by_code["GG401"]["fixes"][0]
    assert fix["description"]["text"].endswith("(unsafe fix)")
    change = fix["artifactChanges"][0]
    assert change["artifactLocation"] == location["artifactLocation"]
    assert change["replacements"][0]["insertedContent"]["text"]


def test_sarif_paths_outside_the_current_folder_are_file_uris(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "r.py").write_text(ROUND)
    sarif = json.loads(check(tmp_path / "a", "--format", "sarif", str(tmp_path / "b" / "r.py"))[1])
    artifact = sarif["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]
    assert artifact == {"uri": (tmp_path / "b" / "r.py").as_uri()}


def test_json_gives_the_fix_edits_and_the_docs_url(tmp_path):
    (tmp_path / "w.py").write_text(UNWATCHED)
    item = json.loads(check(tmp_path, "--format", "json", "w.py")[1])[0]
    assert item["url"] == "https://github.com/gradguard/gradguard/blob/main/docs/rules/GG306.md"
    assert item["fix"]["safety"] == "safe"
    edit = item["fix"]["edits"][0]
    assert (edit["line"], edit["column"], edit["end_line"], edit["end_column"]) == (5, 1, 5, 1)
    assert edit["content"] == "    tape.watch(x)\n"


def test_fix_removes_unused_suppressions_and_reports_the_file_as_written(tmp_path):
    source = "# gradguard: noqa: GG2\n" + ROUND.replace("x = tf.ones((2, 3))", "x = tf.ones((2, 3))  # noqa: GG101, E501")
    (tmp_path / "r.py").write_text(source)
    code, out, _ = check(tmp_path, "--extend-select", "GG900", "--fix", "r.py")
    assert (tmp_path / "r.py").read_text() == ROUND.replace("x = tf.ones((2, 3))", "x = tf.ones((2, 3))  # noqa: E501")
    assert code == 1 and "GG900" not in out
    assert out.startswith("r.py:7:27: GG401")  # line 7 of the file as written, not 8 of the one read
    assert "Found 3 errors (2 fixed, 1 remaining)." in out


def test_the_colour_of_one_run_does_not_leak_into_the_next(tmp_path):
    from gradguard.rules.app.output import format_text
    (tmp_path / "r.py").write_text(ROUND)
    check(tmp_path, "--color", "always", "r.py")
    assert "\x1b[" not in format_text([])
