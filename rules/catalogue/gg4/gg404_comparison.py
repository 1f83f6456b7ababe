"""GG404: a comparison (`x > 0`, `tf.equal`, logical ops) on the only path to the loss."""
from __future__ import annotations

import ast

from ._no_gradient_op import NoGradientOp

_SYMBOLS = {ast.Gt: ">", ast.GtE: ">=", ast.Lt: "<", ast.LtE: "<=", ast.Eq: "==", ast.NotEq: "!="}


class Comparison(NoGradientOp):
    code = "GG404"
    name = "comparison-without-gradient"
    category = "comparison"
    summary = "a comparison returns booleans, which have no gradient"
    what = "The loss depends on the trained variables only through a comparison (`>`, `tf.equal`, " \
           "`tf.greater`, `tf.logical_and`, ...), for example an accuracy used as the loss. A comparison " \
           "used as the condition of `tf.where(cond, a, b)` is fine: `a` and `b` keep their gradients."
    why = "A boolean is not differentiable; TensorFlow registers no gradient for comparison ops, so the " \
          "gradient is `None`. Use a smooth surrogate (a sigmoid, a hinge, cross-entropy) for training."
    error = "`ValueError: No gradients provided for any variable`, or `None` gradients."
    fix_safety = "No automatic fix: the differentiable surrogate is a modelling decision."
    fixed_outcome = "nofix"
    bad = '''\
import numpy as np
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(4, activation="relu"), tf.keras.layers.Dense(1)])
x = np.random.rand(8, 3).astype("float32")
labels = np.random.randint(0, 2, size=(8, 1)).astype("float32")

with tf.GradientTape() as tape:
    predicted = tf.cast(model(x) > 0.5, tf.float32)
    loss = 1.0 - tf.reduce_mean(tf.cast(tf.equal(predicted, labels), tf.float32))
grads = tape.gradient(loss, model.trainable_variables)
'''
    good = '''\
import numpy as np
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(4, activation="relu"), tf.keras.layers.Dense(1)])
x = np.random.rand(8, 3).astype("float32")
labels = np.random.randint(0, 2, size=(8, 1)).astype("float32")

with tf.GradientTape() as tape:
    logits = model(x)
    loss = tf.reduce_mean(tf.nn.sigmoid_cross_entropy_with_logits(labels=labels, logits=logits))
grads = tape.gradient(loss, model.trainable_variables)
accuracy = tf.reduce_mean(tf.cast(tf.equal(tf.cast(logits > 0.0, tf.float32), labels), tf.float32))
'''

    def match(self, site):
        if isinstance(site.node, ast.Compare):
            symbol = _SYMBOLS.get(type(site.node.ops[0]), "comparison")
            return f"`{symbol}`, which has no gradient"
        return super().match(site)

    def cut_inputs(self, site):
        return site.inputs()
