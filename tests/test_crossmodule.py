"""Cross-module analysis with jedi, on the fixture workspace tests/crossmodule/project.

The workspace is a small RL project: a package `rlkit` with helpers re-exported through its
`__init__`, a module of networks, a forward-pass module, a star-imported module and two replay
buffers (numpy and tensors), plus training scripts and a notebook that use them. Each `bad_*`
file loses its gradient only through another module: gradguard must find it with jedi on and
must not (cannot) with jedi off. Each `ok_*` file must stay silent both ways. TensorFlow runs
every file and confirms its header.
"""
from __future__ import annotations

import logging
import sys
from pathlib import Path

import pytest

from gradguard.rules.model.inference import Budget, JediResolver
from gradguard.rules.api import lint

PROJECT = Path(__file__).parent / "crossmodule" / "project"
PROGRAMS = sorted(p for p in PROJECT.iterdir() if p.suffix in (".py", ".ipynb"))
BAD = [p for p in PROGRAMS if p.name.startswith("bad_")]
GENEROUS = 30.0  # seconds: a cold jedi on a busy CI machine; the editor's default is 1 s


@pytest.fixture(scope="module")
def resolver():
    return JediResolver(str(PROJECT))


def _python(path: Path, harness) -> str:
    text = path.read_text(encoding="utf-8")
    return harness.notebook_source(text) if path.suffix == ".ipynb" else text


def _codes(path: Path, source: str, **cross_module) -> list[str]:
    return sorted({d.code for d in lint(source, str(path), **cross_module)})


def test_the_workspace_has_every_kind_of_cross_module_break():
    names = {p.name for p in PROGRAMS}
    assert len(BAD) >= 7 and {"ok_numpy_buffer.py", "ok_tensor_buffer.py"} <= names
    assert any(p.suffix == ".ipynb" for p in BAD)


@pytest.mark.parametrize("path", PROGRAMS, ids=lambda p: p.name)
def test_found_with_jedi_only_and_confirmed_by_tensorflow(path, resolver, tf_harness, monkeypatch):
    source = _python(path, tf_harness)
    header = tf_harness.parse_header(path.read_text(encoding="utf-8"))
    assert _codes(path, source) == [], "the one-file analysis cannot know this; it must stay silent"
    found = _codes(path, source, resolver=resolver, budget=Budget(GENEROUS))
    assert found == header["expect"], f"{path.name}: with jedi, gradguard disagrees with the header"
    monkeypatch.syspath_prepend(str(PROJECT))
    outcome = tf_harness.run_program(source, path.stem + ".py")
    for name in [m for m in sys.modules if m == "rlkit" or m.startswith("rlkit.")]:
        monkeypatch.delitem(sys.modules, name)
    assert tf_harness.matches(outcome, header["tensorflow"]), f"{path.name}: {outcome.describe()}"


def test_the_break_in_the_helper_module_is_named_and_linked(resolver):
    path = PROJECT / "bad_helper_to_numpy.py"
    [diagnostic] = lint(path.read_text(), str(path), resolver=resolver, budget=Budget(GENEROUS))
    assert "inside a helper (rlkit/convert.py, line 6)" in diagnostic.message
    assert diagnostic.message.startswith("`to_numpy(model(states))` (output of `model`)")
    helper = [r for r in diagnostic.related if r.path]
    assert [(Path(r.path).name, r.span.line) for r in helper] == [("convert.py", 6)]
    assert diagnostic.fixes == ()  # the fix belongs in the helper, which the user may not own


def test_answers_are_cached_across_edits(resolver):
    path = PROJECT / "bad_helper_to_numpy.py"
    source = path.read_text()
    lint(source, str(path), resolver=resolver, budget=Budget(GENEROUS))
    calls = resolver.stats["jedi_calls"]
    edited = source.replace("targets - q", "targets - q * 1.0")  # an edit that does not touch imports
    budget = Budget(GENEROUS)
    assert _codes(path, edited, resolver=resolver, budget=budget) == ["GG101"]
    assert resolver.stats["jedi_calls"] == calls and budget.spent == 0.0


LIBRARIES_ONLY = """\
import numpy as np
import tensorflow as tf
from collections import deque


def train(agent, states, targets, optimizer):
    memory = deque(maxlen=10)
    with tf.GradientTape() as tape:
        q = np.clip(agent.scorer(states), -10.0, 10.0)
        loss = later_defined_loss(targets, q) + len(memory)
    grads = tape.gradient(loss, agent.scorer.trainable_variables)
    optimizer.apply_gradients(zip(grads, agent.scorer.trainable_variables))


def later_defined_loss(targets, q):
    return tf.reduce_mean(tf.square(targets - q))
"""


def test_jedi_is_not_asked_about_a_file_that_imports_only_libraries():
    """jedi's first answer costs about a second: a file that imports nothing but numpy, TensorFlow
    and the standard library has nothing in other modules for it to find."""
    resolver = JediResolver(str(PROJECT))
    lint(LIBRARIES_ONLY, str(PROJECT / "train.py"), resolver=resolver, budget=Budget(GENEROUS))
    assert resolver.stats["jedi_calls"] == 0
    with_project_code = "from rlkit.agents import Agent\n" + LIBRARIES_ONLY.replace("(agent,", "(agent: Agent,")
    assert _codes(PROJECT / "train.py", with_project_code, resolver=resolver, budget=Budget(GENEROUS)) == ["GG102"]
    assert resolver.stats["jedi_calls"] > 0  # now `agent.scorer` may be a model from rlkit


def test_a_spent_budget_leaves_the_one_file_result():
    path = PROJECT / "bad_helper_to_numpy.py"
    assert _codes(path, path.read_text(), resolver=JediResolver(str(PROJECT)), budget=Budget(0.0)) == []


def test_a_stale_document_stops_asking_jedi():
    path = PROJECT / "bad_helper_to_numpy.py"
    resolver = JediResolver(str(PROJECT))
    assert _codes(path, path.read_text(), resolver=resolver, budget=Budget(GENEROUS, stale=lambda: True)) == []
    assert resolver.stats["jedi_calls"] == 0


@pytest.mark.parametrize("error", [RecursionError("maximum recursion depth exceeded"), KeyError("parso"),
                                   AttributeError("'NoneType' object has no attribute 'tree_node'")])
def test_jedi_failures_degrade_to_the_one_file_result_and_are_logged_once(error, monkeypatch, caplog):
    import jedi

    def broken(*args, **kwargs):
        raise error

    monkeypatch.setattr(jedi.Script, "goto", broken)
    monkeypatch.setattr(jedi.Script, "infer", broken)
    resolver = JediResolver(str(PROJECT))
    caplog.set_level(logging.WARNING, logger="gradguard.jedi")
    for path in BAD:
        source = path.read_text() if path.suffix == ".py" else None
        if source is not None:
            assert _codes(path, source, resolver=resolver, budget=Budget(GENEROUS)) == []
    assert resolver.stats["failures"] >= 2
    assert len([r for r in caplog.records if r.name == "gradguard.jedi"]) == 1


def test_cli_follows_helpers_unless_told_not_to(capsys, monkeypatch):
    from gradguard.rules.app.cli import main

    monkeypatch.chdir(PROJECT)
    assert main(["check", "-q", "bad_helper_to_numpy.py"]) == 1
    assert "rlkit/convert.py:6:12: `.numpy()` cuts the gradient here" in capsys.readouterr().out
    assert main(["check", "-q", "--no-jedi", "bad_helper_to_numpy.py"]) == 0


def test_results_jedi_helped_with_are_not_cached(capsys, monkeypatch, tmp_path):
    """They depend on the modules jedi followed, which the cache's key does not cover."""
    import json

    from gradguard.rules.app.cli import main

    monkeypatch.chdir(PROJECT)
    monkeypatch.setenv("GRADGUARD_CACHE_DIR", str(tmp_path))
    main(["check", "-q", "bad_helper_to_numpy.py"])
    assert not list(tmp_path.glob("results-*.json"))
    main(["check", "-q", "--no-jedi", "bad_helper_to_numpy.py"])
    [results] = tmp_path.glob("results-*.json")
    [name] = json.loads(results.read_text())["files"]
    assert name.endswith("crossmodule/project/bad_helper_to_numpy.py")
