"""GG101: `.numpy()` on a tensor that carries the gradient to the loss."""
from __future__ import annotations

import ast

from ...diagnostics import Safety
from ..edits import in_place_of, make_fix, replace
from ..rule import BreakRule


class NumpyMethod(BreakRule):
    code = "GG101"
    name = "numpy-method-on-tensor"
    summary = "`.numpy()` turns a gradient-carrying tensor into a numpy array on its way to the loss"
    what = "A tensor computed from trainable variables (a model's output, a `tf.Variable`) is converted " \
           "with `.numpy()` and the result is then used to compute the loss."
    why = "`GradientTape` records TensorFlow operations only. `.numpy()` copies the values out of " \
          "TensorFlow: the array that comes back has no history, so everything computed from it is a " \
          "constant to the tape and the gradient with respect to the model's variables is `None`. " \
          "Inside `@tf.function` or a loss given to `compile`, `.numpy()` fails while tracing instead."
    error = "`ValueError: No gradients provided for any variable` from `apply_gradients`, or a list of " \
            "`None` from `tape.gradient`."
    fix_safety = "Dropping `.numpy()` keeps the value a tensor. It is marked unsafe because code after " \
                 "it may rely on numpy-only behaviour (in-place writes, numpy methods)."
    bad = '''\
import numpy as np
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(8, activation="relu"), tf.keras.layers.Dense(2)])
states = np.random.rand(8, 4).astype("float32")
actions = np.random.randint(0, 2, size=8)
targets = np.random.rand(8).astype("float32")

with tf.GradientTape() as tape:
    q_values = model(states).numpy()
    chosen = tf.reduce_sum(q_values * tf.one_hot(actions, 2), axis=1)
    loss = tf.reduce_mean(tf.square(targets - chosen))
grads = tape.gradient(loss, model.trainable_variables)
'''
    good = '''\
import numpy as np
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(8, activation="relu"), tf.keras.layers.Dense(2)])
states = np.random.rand(8, 4).astype("float32")
actions = np.random.randint(0, 2, size=8)
targets = np.random.rand(8).astype("float32")

with tf.GradientTape() as tape:
    q_values = model(states)
    chosen = tf.reduce_sum(q_values * tf.one_hot(actions, 2), axis=1)
    loss = tf.reduce_mean(tf.square(targets - chosen))
grads = tape.gradient(loss, model.trainable_variables)
print("loss", loss.numpy())  # logging after the tape is fine
'''

    def match(self, site):
        if site.method == "numpy" and site.receiver is not None and site.receiver.live and not site.args:
            return "`.numpy()`"
        return None

    def cut_inputs(self, site):
        return [site.receiver]

    def fixes(self, brk, doc):
        call = brk.node
        assert isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
        text = in_place_of(doc, call, call.func.value)
        return [make_fix("Remove `.numpy()`", Safety.UNSAFE, [replace(doc, call, text)], preferred=True)]
