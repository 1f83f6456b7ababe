"""Configuration by folder (rules/project/config.py: Configs), through the `gradguard check` command
with the real analyzer: each file is configured by the nearest pyproject.toml with [tool.gradguard]
at or above it, alone (a nearer table replaces the outer one, as ruff's without `extend`), whatever
PATH the check was given; `--config FILE` configures every file.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from gradguard.rules.app import cli

# GG101 (.numpy()) on line 6 and GG402 (tf.argmax) on line 7: one finding of each family.
BOTH = '''\
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(3)])
x = tf.ones((2, 4))
with tf.GradientTape() as tape:
    a = tf.reduce_mean(model(x).numpy())
    b = tf.cast(tf.argmax(model(x), axis=1), tf.float32)
    loss = a + tf.reduce_mean(b)
grads = tape.gradient(loss, model.trainable_variables)
'''


@pytest.fixture(autouse=True)
def in_tmp(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)


def write(path: str, text: str) -> Path:
    file = Path(path)
    file.parent.mkdir(parents=True, exist_ok=True)
    file.write_text(text, encoding="utf-8")
    return file


def found(*argv: str) -> set[tuple[str, str]]:
    """(path as given relative to the cwd, code) of every finding of `gradguard check`."""
    code, out = _run("check", "--no-cache", "--format", "json", *argv)
    assert code in (0, 1), out
    return {(Path(item["path"]).as_posix(), item["code"]) for item in json.loads(out)}


def _run(*argv: str) -> tuple[int, str]:
    import io
    import sys
    stdout, stderr = io.StringIO(), io.StringIO()
    old = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = stdout, stderr
    try:
        code = cli.main(list(argv))
    finally:
        sys.stdout, sys.stderr = old
    return code, stdout.getvalue() + stderr.getvalue()


def _layout() -> None:
    write("pyproject.toml", '[tool.gradguard]\nignore = ["GG1"]\n')
    write("sub/pyproject.toml", '[project]\nname = "sub"\n\n[tool.gradguard]\nignore = ["GG4"]\n')
    write("top.py", BOTH)
    write("sub/s.py", BOTH)
    write("sub/deeper/d.py", BOTH)


def test_check_dot_and_check_sub_configure_the_files_of_sub_alike():
    _layout()
    in_sub = {("sub/s.py", "GG101"), ("sub/deeper/d.py", "GG101")}  # sub ignores GG4 only
    assert found(".") == {("top.py", "GG402")} | in_sub
    assert found("sub") == in_sub
    assert found("sub/s.py", "sub/deeper/d.py") == in_sub
    assert found("top.py", "sub/deeper") == {("top.py", "GG402"), ("sub/deeper/d.py", "GG101")}


def test_checking_from_inside_the_subfolder_agrees(monkeypatch):
    _layout()
    monkeypatch.chdir("sub")
    assert found(".") == {("s.py", "GG101"), ("deeper/d.py", "GG101")}
    assert found("../top.py") == {("../top.py", "GG402")}


def test_the_nearer_table_replaces_the_outer_one_entirely():
    write("pyproject.toml", '[tool.gradguard]\nselect = ["GG4"]\n')
    write("sub/pyproject.toml", '[tool.gradguard]\njedi = false\n')  # says nothing of select
    write("top.py", BOTH)
    write("sub/s.py", BOTH)
    assert found(".") == {("top.py", "GG402"), ("sub/s.py", "GG101"), ("sub/s.py", "GG402")}


def test_a_pyproject_without_the_table_leaves_the_outer_configuration_in_force():
    write("pyproject.toml", '[tool.gradguard]\nignore = ["GG1"]\n')
    write("sub/pyproject.toml", '[project]\nname = "sub"\n')
    write("sub/s.py", BOTH)
    assert found(".") == found("sub") == {("sub/s.py", "GG402")}


def test_excludes_and_per_file_ignores_belong_to_the_folder_of_their_file():
    # As ruff: sub's table decides for sub/, so the root's "sub/legacy/" does not reach into it.
    write("pyproject.toml", '[tool.gradguard]\nextend-exclude = ["sub/legacy/", "gen/"]\n')
    write("sub/pyproject.toml", '[tool.gradguard]\nextend-exclude = ["/gen/"]\n'
                                '[tool.gradguard.per-file-ignores]\n"tests/*.py" = ["GG4"]\n')
    for name in ("gen/g.py", "sub/gen/g.py", "sub/legacy/l.py", "sub/tests/t.py", "tests/t.py", "sub/pkg/gen/g.py"):
        write(name, BOTH)
    everything = {(name, code) for name in ("sub/legacy/l.py", "tests/t.py", "sub/pkg/gen/g.py")
                  for code in ("GG101", "GG402")} | {("sub/tests/t.py", "GG101")}
    assert found(".") == everything
    assert found("sub") == {item for item in everything if item[0].startswith("sub/")}


def test_command_line_options_apply_over_every_files_configuration():
    _layout()
    assert found("--ignore", "GG101", ".") == {("top.py", "GG402")}
    assert found("--select", "GG4", ".") == {("top.py", "GG402")}  # sub still ignores GG4


def test_worker_processes_configure_each_file_the_same(monkeypatch):
    _layout()
    for number in range(6):
        write(f"sub/more_{number}.py", BOTH * 40)  # big enough for two workers
        write(f"more_{number}.py", BOTH * 40)
    one = found("-j", "1", ".")
    assert found("-j", "2", ".") == one
    assert ("sub/more_0.py", "GG101") in one and ("more_0.py", "GG402") in one
    assert ("sub/more_0.py", "GG402") not in one and ("more_0.py", "GG101") not in one


def test_the_result_cache_sees_a_subfolder_configuration_change():
    _layout()
    code, out = _run("check", "--format", "json", ".")  # with the cache
    assert {(i["path"], i["code"]) for i in json.loads(out)} >= {("sub/s.py", "GG101")}
    write("sub/pyproject.toml", '[tool.gradguard]\nignore = ["GG1"]\n')
    code, out = _run("check", "--format", "json", ".")
    assert {(i["path"], i["code"]) for i in json.loads(out) if i["path"] == "sub/s.py"} == {("sub/s.py", "GG402")}


def test_config_option_configures_every_file_with_a_tool_table_or_top_level_keys():
    _layout()
    write("ci/lint.toml", '[tool.gradguard]\nignore = ["GG402"]\n')  # not named pyproject.toml
    assert found("--config", "ci/lint.toml", ".") == {("top.py", "GG101"), ("sub/s.py", "GG101"),
                                                       ("sub/deeper/d.py", "GG101")}
    write("ci/gradguard.toml", 'select = ["GG4"]\n')
    assert found("--config", "ci/gradguard.toml", "sub") == {("sub/s.py", "GG402"), ("sub/deeper/d.py", "GG402")}


def test_config_option_names_the_table_in_its_errors():
    write("ci/lint.toml", '[tool.gradguard]\nselct = ["GG4"]\n')
    write("a.py", BOTH)
    code, out = _run("check", "--config", "ci/lint.toml", "a.py")
    assert code == 2 and "ci/lint.toml: [tool.gradguard]: unknown key 'selct' (did you mean 'select'" in out


def test_extend_is_refused_with_what_gradguard_does_instead():
    write("pyproject.toml", '[tool.gradguard]\nignore = ["GG1"]\n')
    write("sub/pyproject.toml", '[tool.gradguard]\nextend = "../pyproject.toml"\n')
    write("sub/s.py", BOTH)
    code, out = _run("check", "sub")
    assert code == 2
    assert "[tool.gradguard]: 'extend' is not supported: gradguard does not extend configuration files" in out


def test_a_broken_subfolder_configuration_is_an_error_naming_it():
    write("pyproject.toml", '[tool.gradguard]\nignore = ["GG1"]\n')
    write("sub/pyproject.toml", '[tool.gradguard]\nignore = "GG4"\n')
    write("sub/s.py", BOTH)
    code, out = _run("check", ".")
    assert code == 2 and "sub/pyproject.toml: [tool.gradguard]: ignore: expected a list of strings" in out
