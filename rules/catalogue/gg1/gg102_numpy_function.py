"""GG102: a numpy function applied to a tensor that carries the gradient to the loss."""
from __future__ import annotations

import ast

from ...diagnostics import Safety
from ..edits import expression, make_fix, render, replace, straight_through, tensorflow_alias
from ...source.imports import is_differentiable_numpy, is_numpy
from ..rule import BreakRule

_ROUNDING = {"round": "round", "around": "round", "rint": "round", "floor": "floor", "ceil": "math.ceil"}


class NumpyFunction(BreakRule):
    code = "GG102"
    name = "numpy-function-on-tensor"
    summary = "a numpy function (`np.mean`, `np.round`, `np.array`, ...) is applied to a gradient-carrying tensor"
    what = "A numpy function receives a tensor computed from trainable variables, and its result is used " \
           "to compute the loss. Numpy on inputs, states, rewards or labels is fine and is not reported."
    why = "Numpy functions convert their tensor arguments to arrays (`__array__`) and compute outside " \
          "TensorFlow, so the tape sees a constant and the gradient is `None`. Swapping to the TensorFlow " \
          "function keeps the computation on the tape. `np.round`, `np.floor` and `np.ceil` are special: " \
          "`tf.round` keeps the value in TensorFlow but *its* gradient is still `None`; the " \
          "straight-through estimator `x + tf.stop_gradient(tf.round(x) - x)` rounds forward and passes " \
          "the gradient through unchanged."
    error = "`ValueError: No gradients provided for any variable`, or `None` gradients."
    fix_safety = "Both fixes are unsafe: the result becomes a tensor instead of an array. For rounding " \
                 "the straight-through estimator is preferred; the plain swap to `tf.round` is offered " \
                 "second and says that its gradient is still `None`."
    bad = '''\
import numpy as np
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(8, activation="relu"), tf.keras.layers.Dense(1)])
x = np.random.rand(8, 3).astype("float32")
y = np.random.rand(8, 1).astype("float32")

with tf.GradientTape() as tape:
    pred = model(x)
    loss = tf.convert_to_tensor(np.mean(np.square(y - pred)))
grads = tape.gradient(loss, model.trainable_variables)
'''
    good = '''\
import numpy as np
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(8, activation="relu"), tf.keras.layers.Dense(1)])
x = np.clip(np.random.rand(8, 3), 0.0, 1.0).astype("float32")  # numpy on inputs is fine
y = np.random.rand(8, 1).astype("float32")

with tf.GradientTape() as tape:
    pred = model(x)
    loss = tf.reduce_mean(tf.square(y - pred))
grads = tape.gradient(loss, model.trainable_variables)
'''

    def match(self, site):
        if is_numpy(site.qualname) and not is_differentiable_numpy(site.qualname):
            return f"`{site.doc.text(site.node.func)}`"
        return None

    def fixes(self, brk, doc):
        call = brk.node
        name = doc.imports.qualname(call.func)[len("numpy."):]
        fixes = []
        if name in _ROUNDING and len(call.args) == 1 and not call.keywords:
            fixes.append(straight_through(doc, call, call.args[0], _ROUNDING[name], f"np.{name}"))
        swap = self._swap(doc, call, name)
        if swap is not None:
            fixes.append(swap)
        return fixes

    def _swap(self, doc, call: ast.Call, name: str):
        # The swap table, when a finding asks for its fix (a check without one never builds it).
        from ..numpy_table import SWAPS, ast_arguments, has_gradient, keeps_arguments, plan_swap, swap_call

        arguments = ast_arguments(call)
        plan = plan_swap(name, arguments)
        if plan is None:
            return None
        alias, imports = tensorflow_alias(doc)
        tf_name = f"{alias}.{SWAPS[name].tf}"
        if keeps_arguments(plan, arguments):
            edit = replace(doc, call.func, tf_name)  # only the name changes: no need for libcst
        else:
            swapped = swap_call(expression(doc, call), name, alias)
            if swapped is None:
                return None
            edit = replace(doc, call, render(swapped))
        title = f"Replace `{doc.text(call.func)}` with `{tf_name}`"
        if not has_gradient(name):
            title += f" (`{tf_name}` has no gradient either: the gradient stays None)"
        return make_fix(title, Safety.UNSAFE, [edit, *imports], preferred=has_gradient(name))
