"""A check's findings depend on the files checked alone: not on where the configuration file lives,
not on the order of the files, not on what jedi's caches (or the result cache) hold from before.

Each project is made so that the wrong answer shows: a `helpers.py` next to a configuration file
outside the checked folder, that a jedi project rooted at the configuration's folder imports instead
of the folder's own; and a chain of modules deeper than jedi is followed, whose analysis made for
one file was reused for another at a different depth.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from gradguard.rules.app import cli

TRAIN = """\
import tensorflow as tf
from tensorflow import keras

from {module} import {name}

model = keras.Sequential([keras.Input(shape=(4,)), keras.layers.Dense(2)])
states = tf.random.normal((8, 4))
targets = tf.random.normal((8, 2))

with tf.GradientTape() as tape:
    q = {name}(model(states))
    loss = tf.reduce_mean(tf.square(targets - q))
grads = tape.gradient(loss, model.trainable_variables)
"""
BREAKS = "def {name}(tensor):\n    return tensor.numpy()\n"
KEEPS = "def {name}(tensor):\n    return tensor * 2.0\n"
PLAIN = """\
import tensorflow as tf

w = tf.Variable(1.0)
with tf.GradientTape() as tape:
    loss = (w * 2.0).numpy()
grads = tape.gradient(loss, [w])
"""


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def check(capsys, *argv: str) -> list[tuple]:
    """The findings of `gradguard check --format json ARGV`, in a form that compares."""
    code = cli.main(["check", "--format", "json", *argv])
    out, err = capsys.readouterr()
    assert code in (0, 1), err
    return [(f["path"], f["code"], f["line"], f["column"], f["message"],
             tuple((r["path"], r["line"], r["message"]) for r in f["related"]))
            for f in json.loads(out)]


@pytest.fixture
def project(tmp_path, monkeypatch):
    """outer/proj/ is checked; outer/helpers.py breaks the gradient where proj/helpers.py keeps it
    and the other way round."""
    outer = tmp_path / "outer"
    proj = outer / "proj"
    write(proj / "helpers.py", BREAKS.format(name="convert") + "\n\n" + KEEPS.format(name="scale"))
    write(outer / "helpers.py", KEEPS.format(name="convert") + "\n\n" + BREAKS.format(name="scale"))
    write(proj / "train_convert.py", TRAIN.format(module="helpers", name="convert"))
    write(proj / "train_scale.py", TRAIN.format(module="helpers", name="scale"))
    write(proj / "plain.py", PLAIN)  # no other module: its result goes to the result cache
    monkeypatch.chdir(outer)
    return outer


def test_findings_do_not_depend_on_where_the_configuration_lives_nor_on_the_order(capsys, project):
    found = check(capsys, "--no-cache", "proj")
    assert sorted((path, code) for path, code, *_ in found) == [
        ("proj/plain.py", "GG101"), ("proj/train_convert.py", "GG101")]
    assert "inside a helper (helpers.py, line 2)" in next(f[4] for f in found if f[0] == "proj/train_convert.py")
    write(project / "gradguard.toml", 'select = ["GG"]\n')                     # above the checked folder
    write(project / "settings" / "pyproject.toml", '[tool.gradguard]\nselect = ["GG"]\n')  # beside it
    files = ["proj/train_scale.py", "proj/plain.py", "proj/train_convert.py"]
    for config in ([], ["--config", "gradguard.toml"], ["--config", "settings/pyproject.toml"]):
        for cache in (["--no-cache"], [], []):  # cold, then the result cache written and read
            assert check(capsys, *cache, *config, "proj") == found, (config, cache)
            assert check(capsys, *cache, *config, *files) == found, (config, cache)
            assert check(capsys, *cache, *config, *reversed(files)) == found, (config, cache)
    write(project / "proj" / "pyproject.toml", '[tool.gradguard]\nselect = ["GG"]\n')  # inside it
    assert check(capsys, "proj") == check(capsys, "proj") == found
    assert check(capsys, "--no-jedi", "proj") == [f for f in found if f[0] == "proj/plain.py"]


def test_a_module_followed_for_one_file_is_not_reused_at_another_depth(capsys, tmp_path, monkeypatch):
    """train_deep.py reaches mod_d.py through mod_a, mod_b and mod_c: deeper than jedi is followed.
    train_near.py calls mod_c directly and finds mod_d's break, whichever file is checked first."""
    monkeypatch.chdir(tmp_path)
    for module, callee in (("a", "b"), ("b", "c"), ("c", "d")):
        write(tmp_path / f"mod_{module}.py", f"from mod_{callee} import f_{callee}\n\n\n"
                                             f"def f_{module}(x):\n    return f_{callee}(x)\n")
    write(tmp_path / "mod_d.py", BREAKS.format(name="f_d"))
    write(tmp_path / "train_deep.py", TRAIN.format(module="mod_a", name="f_a"))
    write(tmp_path / "train_near.py", TRAIN.format(module="mod_c", name="f_c"))
    write(tmp_path / "gradguard.toml", "jedi-time-budget = 60.0\n")  # a cold jedi on a busy machine
    options = ["--no-cache", "--config", "gradguard.toml"]
    alone = check(capsys, *options, "train_deep.py") + check(capsys, *options, "train_near.py")
    assert ("train_near.py", "GG101") in [(path, code) for path, code, *_ in alone]
    assert check(capsys, *options, "train_deep.py", "train_near.py") == alone
    assert check(capsys, *options, "train_near.py", "train_deep.py") == alone
