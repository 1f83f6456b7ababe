"""GG105: `model.predict(...)` on the path to the loss."""
from __future__ import annotations

from ...diagnostics import Safety
from ..edits import make_fix, replace
from ..rule import BreakRule

_PREDICT = {"predict", "predict_on_batch", "predict_step"}


class PredictInLoss(BreakRule):
    code = "GG105"
    name = "predict-in-loss"
    summary = "`model.predict(...)` returns numpy, so a loss built from it has no gradient"
    what = "The prediction that the loss trains is computed with `model.predict` (or `predict_on_batch`)."
    why = "`predict` runs the model in inference mode in its own compiled function and returns numpy " \
          "arrays. Nothing it does is recorded on your tape, so the loss is a constant with respect to " \
          "the model's variables. Calling the model directly, `model(x, training=True)`, is recorded."
    error = "`ValueError: No gradients provided for any variable`, or `None` gradients."
    fix_safety = "The fix calls the model directly with `training=True`; unsafe because the result is " \
                 "a tensor and layers such as dropout now run in training mode."
    bad = '''\
import numpy as np
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.Input(shape=(4,)), tf.keras.layers.Dense(8, activation="relu"),
                             tf.keras.layers.Dense(2)])
states = np.random.rand(8, 4).astype("float32")
target_q = np.random.rand(8, 2).astype("float32")

with tf.GradientTape() as tape:
    q_values = model.predict(states, verbose=0)
    loss = tf.reduce_mean(tf.square(target_q - q_values))
grads = tape.gradient(loss, model.trainable_variables)
'''
    good = '''\
import numpy as np
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.Input(shape=(4,)), tf.keras.layers.Dense(8, activation="relu"),
                             tf.keras.layers.Dense(2)])
states = np.random.rand(8, 4).astype("float32")
target_q = model.predict(states, verbose=0)  # predict for targets, outside the tape, is fine
target_q[:, 0] += 1.0

with tf.GradientTape() as tape:
    q_values = model(states, training=True)
    loss = tf.reduce_mean(tf.square(target_q - q_values))
grads = tape.gradient(loss, model.trainable_variables)
'''

    def value_node(self, site):
        return site.node.func.value

    def match(self, site):
        if site.method in _PREDICT and site.receiver is not None and site.receiver.live:
            return f"`.{site.method}()`"
        return None

    def fixes(self, brk, doc):
        call = brk.node
        model = doc.text(call.func.value)
        args = [doc.text(a) for a in call.args[:1]]
        if not args:
            return []
        text = f"{model}({args[0]}, training=True)"
        return [make_fix(f"Call `{model}(...)` directly instead of `.{call.func.attr}()`", Safety.UNSAFE,
                         [replace(doc, call, text)], preferred=True)]
