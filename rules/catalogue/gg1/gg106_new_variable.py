"""GG106: a gradient-carrying value re-created as a new `tf.Variable`."""
from __future__ import annotations

from ...model.library import VARIABLE_CONSTRUCTORS
from ..edits import unwrap
from ..rule import BreakRule


class NewVariable(BreakRule):
    code = "GG106"
    name = "tensor-recreated-as-variable"
    summary = "`tf.Variable(x)` copies a gradient-carrying value into a new variable with no history"
    what = "A value computed from trainable variables is wrapped in a new `tf.Variable`, and the loss is " \
           "computed from that variable."
    why = "A new variable starts a new history: its initial value is copied, not recorded. The tape can " \
          "differentiate with respect to the new variable, but not through it to the model's variables."
    error = "`ValueError: No gradients provided for any variable`, or `None` gradients."
    fix_safety = "The fix uses the value itself instead of a new variable; unsafe because code may " \
                 "`.assign` to the variable later."
    bad = '''\
import numpy as np
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(4, activation="relu"), tf.keras.layers.Dense(1)])
x = np.random.rand(8, 3).astype("float32")
y = np.random.rand(8, 1).astype("float32")

with tf.GradientTape() as tape:
    pred = tf.Variable(model(x))
    loss = tf.reduce_mean(tf.square(y - pred))
grads = tape.gradient(loss, model.trainable_variables)
'''
    good = '''\
import numpy as np
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(4, activation="relu"), tf.keras.layers.Dense(1)])
scale = tf.Variable(1.0)
x = np.random.rand(8, 3).astype("float32")
y = np.random.rand(8, 1).astype("float32")

with tf.GradientTape() as tape:
    pred = scale * model(x)
    loss = tf.reduce_mean(tf.square(y - pred))
grads = tape.gradient(loss, model.trainable_variables + [scale])
'''

    def match(self, site):
        if site.qualname in VARIABLE_CONSTRUCTORS:
            return f"`{site.doc.text(site.node.func)}(...)`"
        return None

    def fixes(self, brk, doc):
        call = brk.node
        if call.args:
            return [unwrap(doc, call, call.args[0], "Use the value itself instead of a new `tf.Variable`")]
        return []
