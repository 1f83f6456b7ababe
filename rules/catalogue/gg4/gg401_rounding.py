"""GG401: `tf.round`, `tf.floor`, `tf.math.ceil` or `tf.math.rint` on the only path to the loss."""
from __future__ import annotations

import ast

from ._no_gradient_op import NoGradientOp
from ..edits import straight_through

_OPS = {"round": "round", "rint": "round", "floor": "floor", "ceil": "math.ceil"}


class Rounding(NoGradientOp):
    code = "GG401"
    name = "rounding-without-gradient"
    category = "rounding"
    summary = "`tf.round`/`tf.floor`/`tf.math.ceil` has no gradient; nothing reaches the variables before it"
    what = "A rounding op is applied to a gradient-carrying value, and it is the only way the loss " \
           "depends on the trained variables."
    why = "TensorFlow registers no gradient for `Round`, `Floor`, `Ceil` and `Rint` (their derivative is " \
          "zero almost everywhere), so `tape.gradient` returns `None`. Replacing `np.round` with " \
          "`tf.round` does not help. The straight-through estimator `x + tf.stop_gradient(tf.round(x) - x)` " \
          "uses the rounded value forward and the identity's gradient backward."
    error = "`ValueError: No gradients provided for any variable`, or `None` gradients."
    fix_safety = "The straight-through estimator is unsafe: it changes the gradient the model sees " \
                 "(by design), which is a modelling decision."
    bad = '''\
import numpy as np
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(4, activation="relu"), tf.keras.layers.Dense(1)])
x = np.random.rand(8, 3).astype("float32")
y = np.round(np.random.rand(8, 1) * 4).astype("float32")

with tf.GradientTape() as tape:
    levels = tf.round(model(x) * 4.0)
    loss = tf.reduce_mean(tf.square(y - levels))
grads = tape.gradient(loss, model.trainable_variables)
'''
    good = '''\
import numpy as np
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(4, activation="relu"), tf.keras.layers.Dense(1)])
x = np.random.rand(8, 3).astype("float32")
y = np.round(np.random.rand(8, 1) * 4).astype("float32")

with tf.GradientTape() as tape:
    scaled = model(x) * 4.0
    levels = scaled + tf.stop_gradient(tf.round(scaled) - scaled)
    loss = tf.reduce_mean(tf.square(y - levels))
grads = tape.gradient(loss, model.trainable_variables)
'''

    def fixes(self, brk, doc):
        call = brk.node
        op = _OPS.get(doc.imports.qualname(call.func).rsplit(".", 1)[-1])
        if op is None or len(call.args) != 1 or call.keywords:
            return []
        qual = doc.imports.qualname(call.func)
        if qual.startswith("keras.ops.") and isinstance(call.func, ast.Attribute):
            # `ops.ceil(x)` → `x + ops.stop_gradient(ops.ceil(x) - x)`, in the namespace written
            return [straight_through(doc, call, call.args[0], call.func.attr, doc.text(call.func),
                                     doc.text(call.func.value))]
        return [straight_through(doc, call, call.args[0], op, doc.text(call.func))]
