"""GG405: any other TensorFlow op without gradient on the only path to the loss."""
from __future__ import annotations

from ._no_gradient_op import NoGradientOp


class NoGradientOther(NoGradientOp):
    code = "GG405"
    name = "op-without-gradient"
    category = "other"
    summary = "a TensorFlow op that has no registered gradient is the only path to the loss"
    what = "The loss depends on the trained variables only through a TensorFlow function whose ops " \
           "have no gradient in TensorFlow's gradient registry (the list ships with gradguard and is " \
           "generated from TensorFlow itself)."
    why = "When an op has no registered gradient (or one that returns `None`), backpropagation stops " \
          "there and every variable before it gets `None`."
    error = "`ValueError: No gradients provided for any variable`, or `None` gradients."
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
