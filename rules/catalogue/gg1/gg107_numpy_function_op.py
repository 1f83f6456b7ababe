"""GG107: `tf.numpy_function` / `tf.compat.v1.py_func` on the path to the loss."""
from __future__ import annotations

from ...model.library import NUMPY_FUNCTIONS
from ..rule import BreakRule



class NumpyFunctionOp(BreakRule):
    code = "GG107"
    name = "numpy-function-op"
    summary = "`tf.numpy_function` runs Python on numpy arrays and has no gradient"
    what = "A gradient-carrying tensor goes through `tf.numpy_function` (or the TF1 `py_func`) on its way " \
           "to the loss, or the Python function it runs calls the model (`tf.numpy_function(self.np_step, " \
           "[], ...)` stepping the environments and running the policy) and the loss uses its results."
    why = "`tf.numpy_function` hands numpy arrays to a Python function and registers no gradient, so " \
          "the tape stops there. `tf.py_function` is differentiable when the wrapped function uses " \
          "TensorFlow operations on its tensor arguments; better still, write the computation with TensorFlow ops."
    error = "`ValueError: No gradients provided for any variable`, or `None` gradients."
    fix_safety = "No automatic fix: the wrapped Python function has to be rewritten with TensorFlow ops."
    fixed_outcome = "nofix"
    bad = '''\
import numpy as np
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(4, activation="relu"), tf.keras.layers.Dense(1)])
x = np.random.rand(8, 3).astype("float32")
y = np.random.rand(8, 1).astype("float32")


def smooth_l1(diff):
    return np.where(np.abs(diff) < 1.0, 0.5 * diff ** 2, np.abs(diff) - 0.5).astype("float32")


with tf.GradientTape() as tape:
    diff = y - model(x)
    loss = tf.reduce_mean(tf.numpy_function(smooth_l1, [diff], tf.float32))
grads = tape.gradient(loss, model.trainable_variables)
'''
    good = '''\
import numpy as np
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(4, activation="relu"), tf.keras.layers.Dense(1)])
x = np.random.rand(8, 3).astype("float32")
y = np.random.rand(8, 1).astype("float32")


def smooth_l1(diff):
    return tf.where(tf.abs(diff) < 1.0, 0.5 * diff ** 2, tf.abs(diff) - 0.5)


with tf.GradientTape() as tape:
    diff = y - model(x)
    loss = tf.reduce_mean(tf.py_function(smooth_l1, [diff], tf.float32))
grads = tape.gradient(loss, model.trainable_variables)
'''

    def value_node(self, site):
        inputs = site.args[1] if len(site.args) > 1 else site.keywords.get("inp")
        if site.args and site.args[0].live and not (inputs is not None and inputs.live):
            return site.node.args[0]  # the function runs the model: `self.np_train_step`
        return site.arg_node(1, "inp")

    def match(self, site):
        if site.qualname in NUMPY_FUNCTIONS:
            return f"`{site.doc.text(site.node.func)}`"
        return None
