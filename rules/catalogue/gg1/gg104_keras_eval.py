"""GG104: `K.eval`, `K.get_value` or `keras.ops.convert_to_numpy` on the way to the loss."""
from __future__ import annotations

from ..edits import unwrap
from ..rule import BreakRule

_EVALUATORS = {
    "keras.backend.eval", "keras.backend.get_value", "keras.backend.batch_get_value",
    "keras.ops.convert_to_numpy", "tensorflow.make_ndarray",
}


class KerasEval(BreakRule):
    code = "GG104"
    name = "keras-eval-on-tensor"
    summary = "`K.eval`/`K.get_value`/`keras.ops.convert_to_numpy` evaluates a gradient-carrying tensor to numpy"
    what = "A Keras backend evaluation function turns a tensor computed from trainable variables into a " \
           "numpy array that is then used to compute the loss."
    why = "These functions return numpy values, which the tape cannot differentiate: the loss becomes a " \
          "constant with respect to the model's variables."
    error = "`ValueError: No gradients provided for any variable`, or `None` gradients."
    fix_safety = "The fix removes the wrapper and keeps the tensor; unsafe because the type changes."
    bad = '''\
import numpy as np
import tensorflow as tf
from tensorflow.keras import backend as K

model = tf.keras.Sequential([tf.keras.layers.Dense(4, activation="relu"), tf.keras.layers.Dense(1)])
x = np.random.rand(8, 3).astype("float32")
y = np.random.rand(8, 1).astype("float32")

with tf.GradientTape() as tape:
    pred = K.eval(model(x))
    loss = tf.reduce_mean(tf.square(y - pred))
grads = tape.gradient(loss, model.trainable_variables)
'''
    good = '''\
import numpy as np
import tensorflow as tf
from tensorflow.keras import backend as K

model = tf.keras.Sequential([tf.keras.layers.Dense(4, activation="relu"), tf.keras.layers.Dense(1)])
optimizer = tf.keras.optimizers.Adam(1e-3)
x = np.random.rand(8, 3).astype("float32")
y = np.random.rand(8, 1).astype("float32")

with tf.GradientTape() as tape:
    pred = model(x)
    loss = tf.reduce_mean(tf.square(y - pred))
grads = tape.gradient(loss, model.trainable_variables)
print("learning rate", K.eval(optimizer.learning_rate))  # evaluating a hyper-parameter is fine
'''

    def match(self, site):
        if site.qualname in _EVALUATORS:
            return f"`{site.doc.text(site.node.func)}`"
        if site.method == "eval" and site.receiver is not None and site.receiver.live and not site.args:
            return "`.eval()`"
        return None

    def fixes(self, brk, doc):
        call = brk.node
        if call.args and len(call.args) == 1:
            return [unwrap(doc, call, call.args[0], f"Remove `{doc.text(call.func)}` and keep the tensor")]
        return []
