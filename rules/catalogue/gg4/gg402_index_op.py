"""GG402: `tf.argmax`/`tf.argmin` on the only path to the loss."""
from __future__ import annotations

from ._no_gradient_op import NoGradientOp


class IndexOp(NoGradientOp):
    code = "GG402"
    name = "index-op-without-gradient"
    category = "index"
    summary = "`tf.argmax`/`tf.argmin` returns indices, which have no gradient"
    what = "The loss depends on the trained variables only through `tf.argmax`/`tf.argmin` (for example " \
           "`tf.one_hot(tf.argmax(q))` used as the prediction). Using argmax to *select* actions or to " \
           "mask q-values that still flow into the loss is fine and not reported."
    why = "An index is an integer: it does not change smoothly with the variables, and TensorFlow " \
          "registers no gradient for `ArgMax`/`ArgMin`. Use the values (`tf.reduce_max`, or a softmax for " \
          "a differentiable selection) instead of the indices."
    error = "`ValueError: No gradients provided for any variable`, or `None` gradients."
    fix_safety = "No automatic fix: choosing a differentiable replacement is a modelling decision."
    fixed_outcome = "nofix"
    bad = '''\
import numpy as np
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(8, activation="relu"), tf.keras.layers.Dense(3)])
x = np.random.rand(8, 4).astype("float32")
labels = tf.one_hot(np.random.randint(0, 3, size=8), 3)

with tf.GradientTape() as tape:
    predicted = tf.one_hot(tf.argmax(model(x), axis=1), 3)
    loss = tf.reduce_mean(tf.square(labels - predicted))
grads = tape.gradient(loss, model.trainable_variables)
'''
    good = '''\
import numpy as np
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(8, activation="relu"), tf.keras.layers.Dense(3)])
x = np.random.rand(8, 4).astype("float32")
labels = tf.one_hot(np.random.randint(0, 3, size=8), 3)

with tf.GradientTape() as tape:
    probabilities = tf.nn.softmax(model(x), axis=1)
    loss = tf.reduce_mean(tf.square(labels - probabilities))
grads = tape.gradient(loss, model.trainable_variables)
action = int(tf.argmax(model(x[:1]), axis=1)[0])  # argmax to act is fine
'''
