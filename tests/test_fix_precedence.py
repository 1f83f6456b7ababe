"""A fix that takes an expression out of a call keeps its meaning: `(w + x).numpy() * 2.0` becomes
`(w + x) * 2.0`, never `w + x * 2.0` (the analysis's spans exclude parentheses, so the fix puts back
those the new place needs)."""
from __future__ import annotations

import ast

import pytest

from gradguard.rules import Edit, fix_source
from gradguard.rules.api import apply_edits
from gradguard.rules.catalogue.edits import in_place_of
from gradguard.rules.source.document import Document


class Number(float):
    """A float whose `.numpy()` is itself (and whose arithmetic keeps it a Number): the
    expression's value does not change without the call."""

    def numpy(self):
        return self


def _keeps_number(name):
    def operator(self, *others):
        return Number(getattr(float, name)(self, *others))
    return operator


for _name in ("__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__", "__pow__", "__rpow__",
              "__neg__", "__truediv__", "__rtruediv__"):
    setattr(Number, _name, _keeps_number(_name))


CASES = [
    ("(w + x).numpy() * 2.0", "(w + x)"),
    ("2.0 * (w + x).numpy()", "(w + x)"),
    ("(w * x).numpy() + 2.0", "w * x"),
    ("2.0 - (w - x).numpy()", "(w - x)"),
    ("(w - x).numpy() - 2.0", "w - x"),
    ("(w ** x).numpy() ** 2", "(w ** x)"),
    ("2 ** (w ** x).numpy()", "w ** x"),
    ("-(w + x).numpy()", "(w + x)"),
    ("(w + x).numpy()", "w + x"),
    ("max((w + x).numpy(), 1.0)", "w + x"),
    ("(w + x).numpy().real", "(w + x)"),
    ("((w if w > x else x)).numpy() + 1", "(w if w > x else x)"),
]


@pytest.mark.parametrize("expression, operand", CASES, ids=[c[0] for c in CASES])
def test_the_operand_is_parenthesised_where_its_place_needs_it(expression, operand):
    doc = Document(f"y = {expression}\n")
    call = next(n for n in ast.walk(doc.tree)
                if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "numpy")
    assert in_place_of(doc, call, call.func.value) == operand
    fixed = apply_edits(doc.source, [Edit(doc.span(call), operand)]).removeprefix("y = ")
    values = {"w": Number(2.0), "x": Number(3.0)}
    assert eval(fixed, {}, values) == eval(expression, {}, values)  # noqa: S307 - our own test expressions


SOURCE = """\
import tensorflow as tf
from tensorflow.keras import backend as K

w = tf.Variable(2.0)
x = tf.constant(3.0)
with tf.GradientTape() as tape:
    loss = (w + x).numpy() * 2.0 + K.eval(w + x) * 2.0 + tf.Variable(w + x) * 2.0
grads = tape.gradient(loss, [w])
"""


def test_the_numpy_eval_and_variable_fixes_keep_the_arithmetic():
    fixed = fix_source(SOURCE, unsafe=True)
    assert "    loss = (w + x) * 2.0 + (w + x) * 2.0 + (w + x) * 2.0\n" in fixed


ROUNDED_MODEL = """\
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dropout(0.5), tf.keras.layers.Dense(1)])
x = tf.ones((2, 3))
with tf.GradientTape() as tape:
    levels = tf.round(model(x, training=True) * 4.0)
    loss = tf.reduce_sum(levels)
grads = tape.gradient(loss, model.trainable_variables)
"""


def test_the_straight_through_fix_runs_the_model_once():
    """Three calls would be three forward passes: with dropout each would see another mask."""
    fixed = fix_source(ROUNDED_MODEL, unsafe=True)
    line = next(line for line in fixed.splitlines() if line.lstrip().startswith("levels = "))
    assert line == ("    levels = ((st_input := model(x, training=True) * 4.0) + "
                    "tf.stop_gradient(tf.round(st_input) - st_input))")
    compile(fixed, "fixed.py", "exec")


def test_the_straight_through_fix_takes_a_name_the_file_does_not_use():
    source = ROUNDED_MODEL.replace("x = tf.ones((2, 3))", "x = st_input = tf.ones((2, 3))")
    assert "(st_input2 := model(x, training=True) * 4.0)" in fix_source(source, unsafe=True)


def test_the_straight_through_fix_writes_no_walrus_where_python_forbids_one():
    source = ROUNDED_MODEL.replace("    levels = tf.round(model(x, training=True) * 4.0)\n",
                                   "    levels = [v for v in tf.round(model(x, training=True) * 4.0)]\n")
    fixed = fix_source(source, unsafe=True)
    compile(fixed, "fixed.py", "exec")
    assert "tf.stop_gradient(tf.round(" in fixed and ":=" not in fixed  # fixed, the old way
