"""GG201: `tf.stop_gradient` around the prediction the loss must train."""
from __future__ import annotations

from ..edits import unwrap
from ..rule import BreakRule

_STOP = {"tensorflow.stop_gradient", "keras.ops.stop_gradient"}


class StopGradientOnPrediction(BreakRule):
    code = "GG201"
    name = "stop-gradient-on-prediction"
    summary = "`tf.stop_gradient` cuts every path from the trained model to the loss"
    verb = "is wrapped in"
    absorbs_cuts = True
    what = "`tf.stop_gradient` wraps the value through which the loss depends on the variables being " \
           "trained, so no path is left. `tf.stop_gradient` on a *target* (while the prediction still " \
           "reaches the loss) is correct and not reported. When another break also cuts the model's paths " \
           "(`.numpy()`, `tf.numpy_function`), that break is reported instead: the `tf.stop_gradient` may be " \
           "deliberate, as in a straight-through estimator `x + tf.stop_gradient(tf.round(x) - x)`."
    why = "`tf.stop_gradient` tells the tape to treat its argument as a constant. Around a bootstrapped " \
          "target that is what you want; around the prediction it removes the only path to the " \
          "variables and every gradient is `None`."
    error = "`ValueError: No gradients provided for any variable`, or `None` gradients."
    fix_safety = "The fix removes `tf.stop_gradient`; unsafe because the author may have meant to stop a " \
                 "different value (the target) instead."
    bad = '''\
import numpy as np
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(8, activation="relu"), tf.keras.layers.Dense(2)])
target_model = tf.keras.Sequential([tf.keras.layers.Dense(8, activation="relu"), tf.keras.layers.Dense(2)])
states = np.random.rand(8, 4).astype("float32")
next_states = np.random.rand(8, 4).astype("float32")
rewards = np.random.rand(8).astype("float32")
actions = np.random.randint(0, 2, size=8)

with tf.GradientTape() as tape:
    target = rewards + 0.99 * tf.reduce_max(target_model(next_states), axis=1)
    q = tf.stop_gradient(tf.reduce_sum(model(states) * tf.one_hot(actions, 2), axis=1))
    loss = tf.reduce_mean(tf.square(target - q))
grads = tape.gradient(loss, model.trainable_variables)
'''
    good = '''\
import numpy as np
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(8, activation="relu"), tf.keras.layers.Dense(2)])
target_model = tf.keras.Sequential([tf.keras.layers.Dense(8, activation="relu"), tf.keras.layers.Dense(2)])
states = np.random.rand(8, 4).astype("float32")
next_states = np.random.rand(8, 4).astype("float32")
rewards = np.random.rand(8).astype("float32")
actions = np.random.randint(0, 2, size=8)

with tf.GradientTape() as tape:
    target = tf.stop_gradient(rewards + 0.99 * tf.reduce_max(target_model(next_states), axis=1))
    q = tf.reduce_sum(model(states) * tf.one_hot(actions, 2), axis=1)
    loss = tf.reduce_mean(tf.square(target - q))
grads = tape.gradient(loss, model.trainable_variables)
'''

    def match(self, site):
        if site.qualname in _STOP:
            return f"`{site.doc.text(site.node.func)}`"
        return None

    def fixes(self, brk, doc):
        call = brk.node
        if len(call.args) == 1:
            return [unwrap(doc, call, call.args[0], "Remove `tf.stop_gradient` from the trained prediction")]
        return []
