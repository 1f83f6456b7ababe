"""GG309: `if gradients:` cannot catch a list of None gradients."""
from __future__ import annotations

import ast

from ...diagnostics import Diagnostic, Safety, Severity
from ..edits import make_fix, replace
from ...model.values import Kind
from ..rule import CheckRule


class IneffectiveGradientGuard(CheckRule):
    code = "GG309"
    name = "ineffective-gradient-guard"
    summary = "`if gradients:` is true for a list of None, so it never guards `apply_gradients`"
    severity = Severity.WARNING
    bad_outcome = "raises ValueError"
    fixed_outcome = "noraise"
    what = "The list returned by `tape.gradient(loss, variables)` is tested for truth, for `is not None` " \
           "or for its length, to skip updates that have no gradients."
    why = "`tape.gradient` with a list of variables always returns a list of the same length; a missing " \
          "gradient is a `None` *inside* it. `[None, None]` is truthy and not `None`, so the guard lets it " \
          "through and `apply_gradients` raises anyway. Test the elements instead."
    error = "`ValueError: No gradients provided for any variable` despite the guard."
    fix_safety = "The fix tests `all(g is not None for g in gradients)`; unsafe because a step where only " \
                 "some gradients are `None` is now skipped instead of applied."
    bad = '''\
import numpy as np
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(4, activation="relu"), tf.keras.layers.Dense(1)])
optimizer = tf.keras.optimizers.Adam(1e-3)
x = np.random.rand(8, 3).astype("float32")
y = np.random.rand(8, 1).astype("float32")
model(x)

with tf.GradientTape() as tape:
    loss = tf.reduce_mean(tf.square(y - 0.5))
gradients = tape.gradient(loss, model.trainable_variables)
if gradients:
    optimizer.apply_gradients(zip(gradients, model.trainable_variables))
'''
    good = '''\
import numpy as np
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(4, activation="relu"), tf.keras.layers.Dense(1)])
optimizer = tf.keras.optimizers.Adam(1e-3)
x = np.random.rand(8, 3).astype("float32")
y = np.random.rand(8, 1).astype("float32")

with tf.GradientTape() as tape:
    loss = tf.reduce_mean(tf.square(y - model(x)))
gradients = tape.gradient(loss, model.trainable_variables)
if all(g is not None for g in gradients):
    optimizer.apply_gradients(zip(gradients, model.trainable_variables))
'''

    def check(self, analysis):
        doc = analysis.doc
        out = []
        for guard in analysis.truth_tests.values():
            if Kind.GRADS not in guard.kinds:
                continue  # only the list `tape.gradient` returns is always truthy
            name = doc.text(guard.value_node)
            message = (f"`{doc.short(guard.node)}` is true even when every gradient is None (`{name}` is a list "
                       f"with one entry per variable); test `all(g is not None for g in {name})`")
            negated = isinstance(guard.node, ast.UnaryOp) or _is_emptiness_test(guard.node)
            text = f"{'not ' if negated else ''}all(g is not None for g in {name})"
            fix = make_fix(f"Test the gradients themselves: `{text}`", Safety.UNSAFE,
                           [replace(doc, guard.node, text)], preferred=True)
            out.append(Diagnostic(self.code, self.severity, message, doc.span(guard.node), fixes=(fix,)))
        return out


def _is_emptiness_test(node: ast.AST) -> bool:
    """`grads is None`, `len(grads) == 0`: true when the list is 'missing'."""
    if not isinstance(node, ast.Compare):
        return False
    op = node.ops[0]
    if isinstance(op, ast.Is):
        return True
    return isinstance(op, ast.Eq) and isinstance(node.comparators[0], ast.Constant) and node.comparators[0].value == 0
