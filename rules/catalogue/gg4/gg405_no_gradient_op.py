"""GG405: any other TensorFlow op without gradient on the only path to the loss."""
from __future__ import annotations

from ._no_gradient_op import NoGradientOp


class NoGradientOther(NoGradientOp):
    code = "GG405"
    name = "op-without-gradient"
    category = "other"
    summary = "a TensorFlow op that has no registered gradient is the only path to the loss"
    what = "The loss depends on the trained variables only through a TensorFlow, `keras.ops` or " \
           "`keras.backend` function that has no gradient for its first argument and is not a rounding, " \
           "index or comparison op (those are GG401, GG402 and GG404): `tf.histogram_fixed_width`, " \
           "`tf.math.count_nonzero`, `tf.shape`, `keras.ops.one_hot`, `keras.ops.heaviside`, " \
           "`tf.image.adjust_contrast`... The list ships with gradguard: " \
           "`scripts/generate_no_gradient_ops.py` calls every public function of these modules with " \
           "float tensors under a `tf.GradientTape` (one argument, then two) and checks the result " \
           "against TensorFlow's gradient registry. A gradient that is zero (`tf.sign`) is a gradient " \
           "and is not listed."
    why = "When an op is registered as not differentiable, or its gradient function returns `None`, " \
          "backpropagation stops there and every variable before it gets `None`. When an op on a float " \
          "path has no registry entry at all (`AdjustContrastv2`, `AdjustSaturation`, `AdjustHue` of " \
          "`tf.image.adjust_*`, `TruncateMod`, `Bitcast`), `tape.gradient` raises instead."
    error = "`ValueError: No gradients provided for any variable`, `None` gradients, or " \
            "`LookupError: gradient registry has no entry for: AdjustContrastv2`."
    fix_safety = "No automatic fix."
    fixed_outcome = "nofix"
    bad = '''\
import numpy as np
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(4, activation="relu"), tf.keras.layers.Dense(3)])
x = np.random.rand(8, 4).astype("float32")

with tf.GradientTape() as tape:
    scores = model(x)
    loss = tf.reduce_mean(tf.cast(tf.math.count_nonzero(tf.nn.relu(scores), axis=1), tf.float32))
grads = tape.gradient(loss, model.trainable_variables)
'''
    good = '''\
import numpy as np
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(4, activation="relu"), tf.keras.layers.Dense(3)])
x = np.random.rand(8, 4).astype("float32")

with tf.GradientTape() as tape:
    scores = model(x)
    loss = tf.reduce_mean(tf.nn.relu(scores))
grads = tape.gradient(loss, model.trainable_variables)
'''
