"""GG315: a `tf.custom_gradient` function whose `grad` returns None for its input, on the path."""
from __future__ import annotations

import ast

from ...model.custom_gradients import drops_input_gradient
from ..rule import BreakRule


class CustomGradientDropsInput(BreakRule):
    code = "GG315"
    name = "custom-gradient-drops-input"
    verb = "goes through"
    summary = "a `@tf.custom_gradient` function's `grad` returns None for its input, and the loss depends on it"
    what = "A value carrying the gradient of trained variables goes through a function decorated with " \
           "`@tf.custom_gradient` whose `grad` returns `None` as the gradient of its input (often a " \
           "placeholder left from a first draft, or a copy of an example that only needed the forward pass)."
    why = "The custom gradient replaces every operation the forward pass recorded: what `grad` returns " \
          "for the input is the only gradient that reaches the values before the call, and None is no " \
          "gradient. `tape.gradient` returns None for the variables that reach the loss only through it."
    error = "`ValueError: No gradients provided for any variable`, or `None` gradients."
    fix_safety = "No automatic fix: the gradient is the function's own mathematics. Return `dy` times the " \
                 "derivative of the forward pass (`dy` alone for a straight-through estimator)."
    fixed_outcome = "nofix"
    bad = '''\
import numpy as np
import tensorflow as tf


@tf.custom_gradient
def clip_gradient(x):
    def grad(dy):
        return None

    return tf.identity(x), grad


model = tf.keras.Sequential([tf.keras.layers.Dense(4, activation="tanh"), tf.keras.layers.Dense(1)])
x = np.random.rand(8, 3).astype("float32")
y = np.random.rand(8, 1).astype("float32")

with tf.GradientTape() as tape:
    prediction = clip_gradient(model(x))
    loss = tf.reduce_mean(tf.square(y - prediction))
grads = tape.gradient(loss, model.trainable_variables)
'''
    good = '''\
import numpy as np
import tensorflow as tf


@tf.custom_gradient
def clip_gradient(x):
    def grad(dy):
        return tf.clip_by_norm(dy, 1.0)

    return tf.identity(x), grad


model = tf.keras.Sequential([tf.keras.layers.Dense(4, activation="tanh"), tf.keras.layers.Dense(1)])
x = np.random.rand(8, 3).astype("float32")
y = np.random.rand(8, 1).astype("float32")

with tf.GradientTape() as tape:
    prediction = clip_gradient(model(x))
    loss = tf.reduce_mean(tf.square(y - prediction))
grads = tape.gradient(loss, model.trainable_variables)
'''

    def match(self, site):
        function = site.callee.func if site.callee is not None else None
        if isinstance(function, ast.FunctionDef) and drops_input_gradient(function, site.doc.imports):
            return f"`{function.name}`, whose `grad` returns None for its input"
        return None
