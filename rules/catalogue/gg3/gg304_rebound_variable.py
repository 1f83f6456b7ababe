"""GG304: a `tf.Variable` rebound to a plain tensor (`w = w - lr * g`) and then differentiated."""
from __future__ import annotations

import ast

from ...diagnostics import Diagnostic, Safety
from ..edits import make_fix, replace
from ...model.status import Verdict
from ..rule import CheckRule

_METHODS = {ast.Sub: "assign_sub", ast.Add: "assign_add"}
_OPERATORS = {ast.Sub: "-", ast.Add: "+", ast.Mult: "*", ast.Div: "/", ast.Pow: "**"}


class ReboundVariable(CheckRule):
    code = "GG304"
    owns = (Verdict.REBOUND,)  # reported once, on the statement that replaces the variable
    name = "variable-rebound-to-tensor"
    summary = "`w = w - lr * g` replaces the variable with a tensor; the next gradient for `w` is None"
    what = "A name that holds a `tf.Variable` is reassigned from an expression of itself (`w = w - lr * g`, " \
           "`w -= lr * g`) and is differentiated with `tape.gradient`."
    why = "Arithmetic on a variable returns a new plain tensor; rebinding the name throws the variable " \
          "away. A tape watches variables automatically, but not plain tensors, so on the next step the " \
          "gradient for `w` is `None`. The in-place spelling `w -= lr * g` does not get that far: " \
          "TensorFlow 2.21 refuses in-place operators on variables with a `RuntimeError`. Update variables " \
          "in place with `assign_sub`/`assign_add`/`assign`."
    error = "`None` gradients from the second step on, or `ValueError: No gradients provided for any variable`; " \
            "for `w -= ...`, `RuntimeError: variable -= value with tf.Variables is not supported`."
    fix_safety = "The fix rewrites the statement as `w.assign_sub(...)` (or `assign_add`/`assign`); unsafe " \
                 "because other references to the old variable now see the update too."
    bad = '''\
import tensorflow as tf

w = tf.Variable(0.0)
b = tf.Variable(0.0)
x = tf.constant([1.0, 2.0, 3.0, 4.0])
y = tf.constant([3.0, 5.0, 7.0, 9.0])

for step in range(2):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(y - (w * x + b)))
    dw, db = tape.gradient(loss, [w, b])
    w = w - 0.01 * dw
    b = b - 0.01 * db
'''
    good = '''\
import tensorflow as tf

w = tf.Variable(0.0)
b = tf.Variable(0.0)
x = tf.constant([1.0, 2.0, 3.0, 4.0])
y = tf.constant([3.0, 5.0, 7.0, 9.0])

for step in range(2):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(y - (w * x + b)))
    dw, db = tape.gradient(loss, [w, b])
    w.assign_sub(0.01 * dw)
    b.assign_sub(0.01 * db)
'''

    def check(self, analysis):
        doc = analysis.doc
        out = []
        for rebind in analysis.rebindings.values():
            if not rebind.replaces_variable:
                continue
            name = doc.text(rebind.target)
            if rebind.variable not in analysis.gradient_source_origins(rebind.function):
                continue
            if isinstance(rebind.node, ast.AugAssign):  # checked with TensorFlow 2.21: it refuses
                message = (f"`{name} {_OPERATORS.get(type(rebind.node.op), '?')}= ...` on a `tf.Variable` raises "
                           f"RuntimeError: TensorFlow has no in-place operators for variables; update it with "
                           f"`assign_sub`/`assign_add`/`assign`")
            else:
                message = (f"`{name}` was a `tf.Variable`; this rebinds it to a plain tensor, so the next "
                           f"`tape.gradient` for `{name}` returns None")
            out.append(Diagnostic(self.code, self.severity, message, doc.span(rebind.node),
                                  fixes=self._fixes(doc, rebind.node, name)))
        return out

    def _fixes(self, doc, stmt, name):
        if isinstance(stmt, ast.AugAssign):
            op, value = stmt.op, stmt.value
        elif isinstance(stmt.value, ast.BinOp) and doc.text(stmt.value.left) == name:
            op, value = stmt.value.op, stmt.value.right
        else:
            op, value = None, stmt.value
        method = _METHODS.get(type(op), "assign")
        if method == "assign" and op is not None and isinstance(stmt, ast.AugAssign):
            return ()
        text = f"{name}.{method}({doc.text(value)})"
        return (make_fix(f"Update the variable in place with `{name}.{method}(...)`", Safety.UNSAFE,
                         [replace(doc, stmt, text)], preferred=True),)
