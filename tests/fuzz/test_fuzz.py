"""Fuzzing in the test suite (issue 7): never crash, never lose a line, stay inside the document.

* a short deterministic run: every mutation kind of mutations.py, a few corpus programs each,
  every property of properties.py (the analyzer, the editor paths, the server's pure functions
  and `gradguard check` / `--fix` on a temporary file);
* the heavy inputs once: 100,000-character lines and a 50,000-line file;
* hypothesis property tests over mutated corpus programs (bounded, derandomised);
* the known bugs the fuzzer found, as minimal reproductions marked strict xfail: fixing one makes
  its test fail loudly, and its entry in properties.KNOWN_BUGS is then removed.

The long run is `python tests/fuzz/fuzz.py --minutes N` (see docs/reliability.md).
"""
from __future__ import annotations

import random
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gradguard.rules import api
from gradguard.rules.app import cli
from gradguard.rules.api import lint, lint_tolerant

from mutations import (ALL_KINDS, CHEAP_TEXT_KINDS, HEAVY_KINDS, HUGE_LINES, TEXT_KINDS, corpus, make_sample,
                       program)
from properties import Checker, doc_lines, known_bug, parses, span_problem

SAMPLES_PER_KIND = 3
SEED = 7


def _new(failures):
    """The failures that are not known, reported bugs."""
    return [f for f in failures if known_bug(f) is None]


def _report(failures) -> str:
    return "\n\n".join(str(f) for f in failures[:5])


# ---------------------------------------------------------------------------------------------
# A short deterministic run over every kind


@pytest.mark.parametrize("kind", [k for k in ALL_KINDS if k not in HEAVY_KINDS])
def test_every_mutation_kind_keeps_every_property(kind, tmp_path):
    rng = random.Random(f"{SEED}/{kind}")
    checker = Checker(cli=True, tmp=tmp_path, cli_jedi_fraction=0.0)
    failures = []
    for _ in range(SAMPLES_PER_KIND):
        sample = make_sample(kind, rng.choice(corpus()), rng.randrange(2**32))
        failures += [(sample.label, f) for f in _new(checker.check(sample))]
    assert not failures, "\n\n".join(f"{label}\n{failure}" for label, failure in failures[:5])
    assert checker.figures.inputs[kind] == SAMPLES_PER_KIND


def test_the_run_checks_fixes_and_the_cli(tmp_path):
    """The mutations that keep programs parsable do reach fixes (the property is not vacuous)."""
    checker = Checker(cli=True, tmp=tmp_path, cli_jedi_fraction=0.0)
    for name in ("bad_dqn_numpy_q_values.py", "bad_nb_reinforce_numpy_probs.ipynb", "bad_regression_tf_round.py"):
        for kind in ("crlf", "unicode_in_strings", "wrap_in_tape"):
            assert not _new(checker.check(make_sample(kind, program(name), 1)))
    figures = checker.figures
    assert figures.fixes >= 5 and figures.edits >= figures.fixes and figures.cli_runs >= 9
    assert figures.parsable["crlf"] == 3


# ---------------------------------------------------------------------------------------------
# Heavy inputs


def test_100k_character_lines(tmp_path):
    checker = Checker(cli=False, tmp=tmp_path)
    for seed in range(6):
        sample = make_sample("long_line", program("bad_dqn_numpy_q_values.py"), seed)
        assert max(len(line) for line in doc_lines(sample.text)) >= 100_000
        assert not _new(checker.check(sample)), _report(checker.check(sample))


def test_a_50000_line_file_is_linted_strictly_and_tolerantly():
    """What the CLI (strict) and an editor (tolerant, one line half-typed) do with a huge file."""
    base = program("bad_dqn_numpy_q_values.py").text
    per_copy = len(lint(base, "x.py"))
    huge = make_sample("huge_file", program("bad_dqn_numpy_q_values.py"), 0).text
    lines = doc_lines(huge)
    assert len(lines) >= HUGE_LINES
    found = lint(huge, "huge.py")
    copies = huge.count(base)
    assert len(found) == per_copy * copies and not any(span_problem(d.span, lines) for d in found)
    typing = huge + "def half_typed():\n    x = (\n"  # being typed in a function: only its findings go
    assert [d.code for d in lint(typing, "huge.py")] == ["E999"]
    tolerant = lint_tolerant(typing, "huge.py")
    assert len(tolerant) == per_copy * copies  # the finding in every complete copy survives


# ---------------------------------------------------------------------------------------------
# Hypothesis

PROGRAMS = st.sampled_from(corpus())
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
FAST = settings(max_examples=40, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def _mutate(text: str, chain) -> str:
    for kind, seed in chain:
        text = TEXT_KINDS[kind](random.Random(seed), text)
    return text


@FAST
@given(PROGRAMS, st.lists(st.tuples(st.sampled_from(CHEAP_TEXT_KINDS), SEEDS), min_size=1, max_size=3))
def test_hypothesis_mutation_chains(prog, chain):
    text = _mutate(prog.text, chain)
    checker = Checker(cli=False)
    rng = random.Random(0)
    failures = checker.check_text(text, parses(text), rng) + checker.check_server(text, parses(text), rng)
    assert not _new(failures), _report(_new(failures))


FIXING_KINDS = ("wrap_in_tape", "wrap_expression", "swap_expression", "rename_identifier", "splice_line")
LAYOUT_KINDS = ("crlf", "cr_only", "mixed_endings", "tabs", "unicode_in_strings", "unicode_identifiers",
                "no_final_newline")


@FAST
@given(PROGRAMS, st.sampled_from(FIXING_KINDS), SEEDS, st.lists(st.sampled_from(LAYOUT_KINDS), max_size=2), SEEDS)
def test_hypothesis_fixes_on_programs_that_still_parse(prog, kind, seed, layouts, layout_seed):
    """The mutations most likely to produce findings with fixes, in unusual layouts."""
    text = _mutate(prog.text, [(kind, seed), *((layout, layout_seed) for layout in layouts)])
    checker = Checker(cli=False, server=False)
    failures = checker.check_text(text, parses(text), random.Random(seed))
    assert not _new(failures), _report(_new(failures))


@settings(max_examples=60, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(PROGRAMS, st.text(max_size=12), st.integers(min_value=0))
def test_hypothesis_any_text_inserted_anywhere(prog, inserted, where):
    """Hypothesis's own unicode, inserted at any offset: lint, lint_tolerant and analyze only."""
    at = where % (len(prog.text) + 1)
    text = prog.text[:at] + inserted + prog.text[at:]
    checker = Checker(cli=False, server=False)
    failures = [f for f in checker.check_text(text, parses(text), random.Random(0)) if "fix_source" not in f.prop]
    assert not _new(failures), _report(_new(failures))


# ---------------------------------------------------------------------------------------------
# Minimal reproductions of what the fuzzer found

DEEP_SUM = "y = " + " + ".join(["x"] * 500) + "\n"          # parses; ~500 levels of BinOp
DEEP_FOR_PYTHON = "y = x" + ".y" * 5000 + "\n"                # CPython's parser itself gives up
FLOOR_OUTSIDE_TAPE = """\
import tensorflow as tf
x = tf.Variable(1.0)
with tf.GradientTape() as tape:
    u = x * 2.0
g = tape.gradient(tf.floor(u), x)
"""


def test_a_500_term_sum_does_not_crash_lint():
    assert parses(DEEP_SUM)
    assert lint(DEEP_SUM, "deep.py") == []


def test_a_500_term_sum_does_not_crash_the_cli(tmp_path, capsys):
    path = tmp_path / "deep.py"
    path.write_text(DEEP_SUM)
    code = cli.main(["check", str(path)])
    assert code in (0, 1) and "internal error" not in capsys.readouterr().err


def test_a_text_too_deep_for_python_is_an_e999():
    assert not parses(DEEP_FOR_PYTHON)
    assert [d.code for d in lint(DEEP_FOR_PYTHON, "deep.py")] == ["E999"]


def test_a_text_that_exhausts_the_parser_is_an_e999():
    text = "{" * 200 + "h" + "}" * 200 + " = 1\n"
    assert not parses(text)
    assert [d.code for d in lint(text, "deep.py")] == ["E999"]


def test_a_text_too_deep_for_python_gives_nothing_in_an_editor():
    assert lint_tolerant(DEEP_FOR_PYTHON, "deep.py") == []


NUMPY_OF_A_MODEL = """\
import tensorflow as tf
model = tf.keras.Sequential([tf.keras.layers.Dense(1)]).numpy()
with tf.GradientTape() as tape:
    loss = model(1.0).numpy()
grads = tape.gradient(loss, model.trainable_variables)
"""


MODELS_FROM_A_TUPLE_SUM = """\
import tensorflow as tf
def make():
    return tf.keras.Sequential([tf.keras.layers.Dense(1)])
a, b = (make(), make()) + (make(), make())
def update(x):
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(b(x))
    return loss
update(1.0)
"""


def test_calling_the_numpy_of_a_model_does_not_crash_lint():
    lint(NUMPY_OF_A_MODEL, "m.py")


def test_a_model_unpacked_from_a_tuple_sum_does_not_crash_lint():
    lint(MODELS_FROM_A_TUPLE_SUM, "m.py")


WATCH_AN_ATTRIBUTE = """\
import tensorflow as tf
w = tf.constant(3.0)
with tf.GradientTape() as tape:
    loss = w * 2.0
grads = tape.gradient(loss, w.real)
"""


def test_the_watch_fix_for_an_attribute_source_is_idempotent():
    once = api.fix_source(WATCH_AN_ATTRIBUTE)  # a safe fix would be applied by plain `gradguard check --fix`
    assert once.count("tape.watch(w.real)") <= 1 and api.fix_source(once) == once


def _nested_loops(depth: int) -> str:
    body = "".join(" " * level + f"for i{level} in range(2):\n" for level in range(depth))
    return "import tensorflow as tf\n" + body + " " * depth + "y = i0\n"


def test_nested_loops_are_not_walked_2_to_the_depth_times(monkeypatch):
    from gradguard.rules.model.engine import Engine

    executed = []
    original = Engine.exec_stmt
    monkeypatch.setattr(Engine, "exec_stmt", lambda self, stmt, frame: executed.append(1) or original(self, stmt, frame))
    lint(_nested_loops(16), "loops.py")
    assert len(executed) < 1_000  # two rounds at every level would be 2**16 = 65,536


ROUND_THEN_NUMPY_FUNCTION = """\
import numpy as np
import tensorflow as tf


def loss_fn(y_true, y_pred):
    errors = y_true - tf.round(y_pred)
    return tf.reduce_mean(tf.numpy_function(np.square, [errors], tf.float32))


model = tf.keras.Sequential([tf.keras.Input(shape=(3,)), tf.keras.layers.Dense(1)])
model.compile(optimizer="adam", loss=loss_fn)
"""




# ---------------------------------------------------------------------------------------------
# Bugs the fuzzer found and that are fixed: regression tests


def test_gg401_and_gg201_fixes_do_not_undo_each_other():
    """The straight-through estimator's `tf.stop_gradient` was reported (GG201) and unwrapped when a
    `tf.numpy_function` further on cut the loss anyway: the fixes alternated for 10 rounds. A
    deliberate cut is now named only when nothing else cut the origin."""
    once = api.fix_source(ROUND_THEN_NUMPY_FUNCTION, unsafe=True)
    assert once.count("stop_gradient") == 1
    assert api.fix_source(once, unsafe=True) == once
    assert [d.code for d in lint(once, "loss.py")] == ["GG107"]  # the real problem, which has no fix


def test_the_straight_through_fix_on_a_loss_outside_the_tape_is_idempotent():
    """`tape.gradient(tf.floor(u), x)` after the `with`: the fix's own `tf.floor` (inside its
    `tf.stop_gradient`) was reported again and the estimator nested 10 times. The cut inside the
    estimator is now its own, and the path outside the tape is what is reported."""
    once = api.fix_source(FLOOR_OUTSIDE_TAPE, unsafe=True)
    assert once.count("stop_gradient") == 1
    assert api.fix_source(once, unsafe=True) == once
    assert [d.code for d in lint(once, "floor.py")] == ["GG301"]


def test_a_model_lookalike_called_after_numpy_does_not_crash_gg302():
    """`model.numpy()(x)` made a model output with no origin; GG302's fix finder crashed on it.
    (What `model.numpy()` returns, called, is a value nobody can follow: it may use the model, so
    no "never uses" claim rests on it.)"""
    source = ("import tensorflow as tf\nmodel = tf.keras.Sequential([tf.keras.layers.Dense(1)])\n"
              "with tf.GradientTape() as tape:\n    loss = model.numpy()(1.0)\n"
              "grads = tape.gradient(loss, model.trainable_variables)\n")
    assert [d.code for d in lint(source, "m.py")] == []


def test_notebook_cells_with_cr_line_endings_keep_their_positions():
    """A cell written with lone "\\r" endings counted as one line: every later position moved."""
    from gradguard.rules.source.notebook import Notebook, join_cells
    from gradguard.server import analysis
    from gradguard.server.documents import Encoding, TextDocument
    from gradguard.rules.project.config import Config

    first = "import tensorflow as tf\rimport numpy as np\rx = tf.Variable(1.0)\r"
    second = "with tf.GradientTape() as tape:\n    loss = np.sum(x * 2.0)\ng = tape.gradient(loss, [x])\n"
    source, first_lines = join_cells([first, second])
    assert first_lines == [1, 4] and source.count("\n") == 6
    documents = [TextDocument("cell:1", first, 1), TextDocument("cell:2", second, 1)]
    snap = analysis.snapshot("nb", "nb.ipynb", documents, True, Config(), Encoding("utf-16"))
    fixed = analysis.fixed_texts(snap, unsafe=True)
    assert fixed == [first, second.replace("np.sum", "tf.reduce_sum")]
    import json
    notebook = Notebook(json.dumps({"cells": [{"cell_type": "code", "source": first},
                                              {"cell_type": "code", "source": second}]}))
    assert notebook.cell_position(5, 11) == (1, 2, 11)


def test_a_notebook_cell_too_deep_for_pythons_parser_does_not_crash_the_server():
    """The server joined a notebook's cells and asked whether each parses: a cell nested deeper
    than CPython's parser goes raised RecursionError there and the notebook got no diagnostics.
    (A stale known-bug entry hid it from the fuzzer until the list was emptied.)"""
    from gradguard.rules.project.config import Config
    from gradguard.server import analysis
    from gradguard.server.documents import Encoding, TextDocument

    deep = "y = x" + ".y" * 5000 + "\n"
    assert not parses(deep)
    cells = [TextDocument("cell:1", "import numpy as np\n", 1), TextDocument("cell:2", deep, 1)]
    snap = analysis.snapshot("nb", "nb.ipynb", cells, True, Config(), Encoding("utf-16"))
    assert snap is not None


def test_no_watch_fix_for_a_source_bound_after_the_with_block():
    """`variables = ...` after the block: GG306's safe fix inserted `tape.watch(variables)` inside
    it, the finding stayed, and `--fix` added the line ten times."""
    source = ("import tensorflow as tf\nx = tf.ones((2, 2))\nwith tf.GradientTape() as tape:\n"
              "    tape.watch(x)\n    loss = tf.reduce_sum(x * 2.0)\nvariables = tf.ones((2,))\n"
              "grads = tape.gradient(loss, variables)\n")
    [finding] = lint(source, "late.py")
    assert finding.code == "GG306" and finding.fixes == ()
    assert api.fix_source(source) == source


def test_no_sources_fix_for_a_model_named_by_an_expression():
    """A model called through an expression (`{{...{actor}...}}(states)`, 200 deep) made GG302
    write that expression before `.trainable_variables`: nested deeper, it no longer parsed. The
    sets now hold `actor` itself, so the fix names it, never the expression."""
    source = ("import tensorflow as tf\nactor = tf.keras.Sequential([tf.keras.layers.Dense(2)])\n"
              "critic = tf.keras.Sequential([tf.keras.layers.Dense(1)])\nstates = tf.ones((4, 3))\n"
              "with tf.GradientTape() as tape:\n    loss = tf.reduce_mean({{{actor}}}(states))\n"
              "grads = tape.gradient(loss, critic.trainable_variables)\n")
    [finding] = lint(source, "expr.py")
    assert finding.code == "GG302"
    assert [edit.new_text for fix in finding.fixes for edit in fix.edits] == ["actor.trainable_variables"]
    nested = source.replace("{{{actor}}}", "{" * 200 + "actor" + "}" * 200)
    [deep] = lint(nested, "deep.py")
    assert all(edit.new_text == "actor.trainable_variables" for fix in deep.fixes for edit in fix.edits)


def test_in_suite_fuzzing_is_fast():
    """The guard on this file's budget: one ordinary sample with every property stays well under a second."""
    checker = Checker(cli=True, cli_jedi_fraction=0.0)
    checker.check(make_sample("crlf", program("bad_dqn_numpy_q_values.py"), 0))  # warm-up
    began = time.monotonic()
    checker.check(make_sample("wrap_in_tape", program("bad_dqn_numpy_q_values.py"), 0))
    assert time.monotonic() - began < 2.0
