"""Snippets for GG2xx: tf.stop_gradient in the wrong place, or missing."""
from __future__ import annotations

from . import Invalid, Valid

SNIPPETS = [
    Invalid("GG201", "stop_gradient_on_output", '''\
import numpy as np
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
x = np.random.rand(8, 3).astype("float32")
y = np.random.rand(8, 1).astype("float32")
with tf.GradientTape() as tape:
    pred = tf.stop_gradient(model(x))
    loss = tf.reduce_mean(tf.square(y - pred))
grads = tape.gradient(loss, model.trainable_variables)
'''),
    Invalid("GG201", "one_of_two_variables", '''\
import tensorflow as tf

w = tf.Variable(2.0)
b = tf.Variable(1.0)
x = tf.constant([1.0, 2.0])
with tf.GradientTape() as tape:
    y = tf.stop_gradient(w * x) + b
    loss = tf.reduce_sum(y ** 2)
grads = tape.gradient(loss, [w, b])
'''),
    Valid("GG201", "stop_gradient_on_target", '''\
import numpy as np
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
target_model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
x = np.random.rand(8, 3).astype("float32")
with tf.GradientTape() as tape:
    target = tf.stop_gradient(target_model(x))
    loss = tf.reduce_mean(tf.square(target - model(x)))
grads = tape.gradient(loss, model.trainable_variables)
'''),
    Invalid("GG202", "td_target_in_tape", '''\
import numpy as np
import tensorflow as tf

critic = tf.keras.Sequential([tf.keras.layers.Dense(1)])
s = np.random.rand(8, 3).astype("float32")
s_next = np.random.rand(8, 3).astype("float32")
r = np.random.rand(8, 1).astype("float32")
with tf.GradientTape() as tape:
    target = r + 0.99 * critic(s_next)
    loss = tf.reduce_mean(tf.square(target - critic(s)))
grads = tape.gradient(loss, critic.trainable_variables)
'''),
    Valid("GG202", "td_target_before_tape", '''\
import numpy as np
import tensorflow as tf

critic = tf.keras.Sequential([tf.keras.layers.Dense(1)])
s = np.random.rand(8, 3).astype("float32")
s_next = np.random.rand(8, 3).astype("float32")
r = np.random.rand(8, 1).astype("float32")
target = r + 0.99 * critic(s_next)
with tf.GradientTape() as tape:
    loss = tf.reduce_mean(tf.square(target - critic(s)))
grads = tape.gradient(loss, critic.trainable_variables)
'''),
    Invalid("GG202", "unstopped_advantage", '''\
import tensorflow as tf
import keras

model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(3)])
ret = tf.constant([1.0, 0.5])
with tf.GradientTape() as tape:
    out = model(tf.ones((2, 4)))
    log_prob, value = tf.math.log(tf.nn.softmax(out)[:, 0]), out[:, 2]
    advantage = ret - value
    loss = tf.reduce_mean(-log_prob * advantage) + tf.reduce_mean(tf.square(advantage))
grads = tape.gradient(loss, model.trainable_variables)
'''),
    Valid("GG202", "stopped_advantage", '''\
import tensorflow as tf
import keras

model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(3)])
ret = tf.constant([1.0, 0.5])
with tf.GradientTape() as tape:
    out = model(tf.ones((2, 4)))
    log_prob, value = tf.math.log(tf.nn.softmax(out)[:, 0]), out[:, 2]
    advantage = ret - tf.stop_gradient(value)
    loss = tf.reduce_mean(-log_prob * advantage) + tf.reduce_mean(tf.square(ret - value))
grads = tape.gradient(loss, model.trainable_variables)
'''),
]
