"""GG103: `float()`, `int()`, `bool()` or `.tolist()` on a gradient-carrying tensor."""
from __future__ import annotations

import ast

from ...diagnostics import Safety
from ..edits import make_fix, replace, tensorflow_alias
from ..rule import BreakRule

_BUILTINS = {"float", "int", "bool", "complex"}
# `.tolist()` exists on tensors with NumPy behaviour on; `.item()` never does (an AttributeError,
# not a lost gradient, so it is not this rule's).
_METHODS = {"tolist"}


class PythonConversion(BreakRule):
    code = "GG103"
    name = "python-conversion-of-tensor"
    summary = "`float()`/`int()`/`.tolist()` turns a gradient-carrying tensor into Python numbers"
    what = "A tensor computed from trainable variables is converted to a Python scalar or list and the " \
           "result is used to compute the loss."
    why = "A Python number has no connection to the tape. Any loss computed from it is a constant, so " \
          "the gradient is `None`. (Converting the *loss* to `float` for logging is fine and not reported.)"
    error = "`ValueError: No gradients provided for any variable`, or `None` gradients."
    fix_safety = "For `float(x)` the fix is `tf.cast(x, tf.float32)`, unsafe because the value becomes " \
                 "a tensor. `int()` and `bool()` have no fix: their results have no gradient anyway."
    bad = '''\
import tensorflow as tf

w = tf.Variable(0.5)
x = tf.constant([1.0, 2.0, 3.0])
y = tf.constant([2.0, 4.0, 6.0])
optimizer = tf.keras.optimizers.SGD(0.1)

with tf.GradientTape() as tape:
    scale = float(w)
    loss = tf.reduce_mean(tf.square(y - scale * x))
grads = tape.gradient(loss, [w])
'''
    good = '''\
import tensorflow as tf

w = tf.Variable(0.5)
x = tf.constant([1.0, 2.0, 3.0])
y = tf.constant([2.0, 4.0, 6.0])
history = []

with tf.GradientTape() as tape:
    loss = tf.reduce_mean(tf.square(y - w * x))
grads = tape.gradient(loss, [w])
history.append(float(loss))  # a Python float for logging only
'''

    def match(self, site):
        node = site.node
        if isinstance(node, ast.Call) and site.qualname is None and isinstance(node.func, ast.Name) \
                and node.func.id in _BUILTINS and site.args:
            if node.func.id == "float" and site.traced:
                return None  # AutoGraph makes `float(t)` a cast to float32 there: the gradient goes through
            return f"`{node.func.id}()`"
        if site.method in _METHODS and site.receiver is not None and site.receiver.live:
            return f"`.{site.method}()`"
        return None

    def fixes(self, brk, doc):
        call = brk.node
        if not (isinstance(call.func, ast.Name) and call.func.id == "float" and len(call.args) == 1):
            return []
        alias, imports = tensorflow_alias(doc)
        text = f"{alias}.cast({doc.text(call.args[0])}, {alias}.float32)"
        return [make_fix("Replace `float(...)` with `tf.cast(..., tf.float32)`", Safety.UNSAFE,
                         [replace(doc, call, text), *imports], preferred=True)]
