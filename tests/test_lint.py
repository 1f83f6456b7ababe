"""lint (strict, for the CLI) and lint_tolerant (for an editor, where code is half-typed)."""
from __future__ import annotations

from gradguard.rules.api import lint, lint_tolerant
from gradguard.rules.source.recovery import recover

BROKEN_STEP = '''\
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(1)])


def train_step(x):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(model(x).numpy())
    return tape.gradient(loss, model.trainable_variables)
'''


def _codes(diagnostics):
    return [(d.code, d.span.line) for d in diagnostics]


def test_strict_lint_reports_a_syntax_error_as_e999():
    found = lint(BROKEN_STEP + "\ndef other(:\n", "t.py")
    assert _codes(found) == [("E999", 11)]


def test_tolerant_lint_still_finds_the_break_while_another_function_is_half_typed():
    for typing in ["\ndef other(:\n", "\ndef other():\n    x = (\n", "\ndef other():\n    if x\n",
                   "\nclass Agent:\n    def act(self\n", "\nx = model(\n"]:
        assert _codes(lint_tolerant(BROKEN_STEP + typing, "t.py")) == [("GG101", 8)], typing


def test_findings_on_a_blanked_line_are_dropped_not_misplaced():
    half_typed = BROKEN_STEP.replace("model(x).numpy())", "model(x).numpy()")  # unclosed paren
    assert lint_tolerant(half_typed, "t.py") == []


def test_recovery_keeps_every_other_line_and_position():
    source = "a = 1\nb = (\nc = 3\n"
    recovered, blanked = recover(source)
    assert blanked == {2}
    assert recovered.splitlines()[0] == "a = 1" and recovered.splitlines()[2] == "c = 3"
    assert len(recovered.splitlines()) == 3


def test_a_block_being_typed_stays_a_block():
    recovered, blanked = recover("def f():\n    x = [\n")
    assert recovered == "def f():\n    pass\n" and blanked == {2}


def test_hopeless_text_gives_nothing():
    assert recover("\x00binary") is None
    assert lint_tolerant("(" * 50 + "\n" + ")" * 3, "t.py") == []


def test_a_half_typed_statement_drops_findings_of_its_own_scope_only():
    """Blanking `loss = ...` would make `loss` undefined: no GG302 guess about it."""
    script = "x = tf.ones((1, 1))\nwith tf.GradientTape() as tape2:\n    other = (\nstep = 1\n"
    found = lint_tolerant(BROKEN_STEP + script, "t.py")
    assert _codes(found) == [("GG101", 8)]
    assert lint_tolerant(BROKEN_STEP.replace("model(x).numpy())\n", "model(x).numpy()\n    "), "t.py") == []
