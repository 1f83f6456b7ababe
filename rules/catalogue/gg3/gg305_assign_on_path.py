"""GG305: `.assign()` (or `assign_add`/`assign_sub`) on the path to the loss."""
from __future__ import annotations

from ...model.values import Kind
from ..rule import BreakRule

_ASSIGN = {"assign", "assign_add", "assign_sub"}
_METRIC_UPDATES = {"__call__", "update_state"}  # a `keras.metrics.*` object's: it assigns into its variables


class AssignOnPath(BreakRule):
    code = "GG305"
    name = "assign-on-gradient-path"
    summary = "a gradient-carrying value is stored with `.assign()`, which has no gradient"
    verb = "is stored with"
    mutates_receiver = True
    what = "A value computed from trainable variables is written into a variable with `.assign()` " \
           "(or `assign_add`/`assign_sub`), and the loss is computed from that variable, or from the " \
           "output of a model that variable belongs to (MAML's adapted weights `w - alpha * g` assigned " \
           "into a second model's `trainable_variables`; copying weights alone, as a target network's " \
           "soft update does, is not reported). A " \
           "`keras.metrics.*` object called on the prediction (`metric(y_true, y_pred)`, `update_state`) " \
           "does the same: it adds the value to its state variables and returns their running result."
    why = "Assignment is a state change, not a differentiable operation: the tape does not connect the " \
          "variable's new value to what was assigned, so the gradient to the model is `None`."
    error = "`ValueError: No gradients provided for any variable`, or `None` gradients."
    fix_safety = "No automatic fix: use the assigned value directly in the loss."
    fixed_outcome = "nofix"
    bad = '''\
import numpy as np
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(4, activation="relu"), tf.keras.layers.Dense(1)])
x = np.random.rand(8, 3).astype("float32")
y = np.random.rand(8, 1).astype("float32")
cache = tf.Variable(tf.zeros((8, 1)), trainable=False)

with tf.GradientTape() as tape:
    cache.assign(model(x))
    loss = tf.reduce_mean(tf.square(y - cache))
grads = tape.gradient(loss, model.trainable_variables)
'''
    good = '''\
import numpy as np
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(4, activation="relu"), tf.keras.layers.Dense(1)])
x = np.random.rand(8, 3).astype("float32")
y = np.random.rand(8, 1).astype("float32")
cache = tf.Variable(tf.zeros((8, 1)), trainable=False)

with tf.GradientTape() as tape:
    pred = model(x)
    loss = tf.reduce_mean(tf.square(y - pred))
cache.assign(pred)  # keeping a copy is fine
grads = tape.gradient(loss, model.trainable_variables)
'''

    def match(self, site):
        if site.method in _ASSIGN and site.receiver is not None and any(v.live for v in site.args):
            return f"`.{site.method}()`"
        if site.method in _METRIC_UPDATES and site.receiver is not None and site.receiver.kind == Kind.METRIC \
                and any(v.live for v in site.args):
            metric = site.node.func.value if site.method == "update_state" else site.node.func
            return (f"the metric `{site.doc.text(metric)}`, which adds it to its state variables and returns "
                    f"their running value")
        return None

    def value_node(self, site):
        if site.method in _METRIC_UPDATES:  # `metric(y_true, y_pred)`: the prediction, not the labels
            return next((site.arg_node(i) for i, v in enumerate(site.args) if v.live), None)
        return site.arg_node(0, "value")

    def cut_inputs(self, site):
        return list(site.args) + list(site.keywords.values())
