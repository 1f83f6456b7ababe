"""Snippets for GG4xx: ops without a gradient on the only path."""
from __future__ import annotations

from . import Invalid, Valid

SNIPPETS = [
    Invalid("GG401", "floor", '''\
import tensorflow as tf

w = tf.Variable([0.3, 1.7])
with tf.GradientTape() as tape:
    levels = tf.floor(w * 4.0)
    loss = tf.reduce_sum(levels ** 2)
grad = tape.gradient(loss, w)
'''),
    Invalid("GG401", "ceil_inside_a_helper", '''\
import tensorflow as tf

w = tf.Variable([0.3, 1.7])


def quantize(values, levels=4.0):
    return tf.math.ceil(values * levels) / levels


with tf.GradientTape() as tape:
    loss = tf.reduce_sum(quantize(w) ** 2)
grad = tape.gradient(loss, w)
'''),
    Invalid("GG401", "floor_cuts_one_sublayer_of_a_layer", '''\
import tensorflow as tf
import keras

class Attention(keras.layers.Layer):
    def __init__(self):
        super().__init__()
        self.position, self.score = keras.layers.Dense(1), keras.layers.Dense(4)
    def call(self, h):
        return self.score(h) * tf.floor(tf.sigmoid(self.position(h)) * 4.0)

layer = Attention()
with tf.GradientTape() as tape:
    loss = tf.reduce_sum(layer(tf.ones((2, 3))))
grads = tape.gradient(loss, layer.trainable_variables)
'''),
    Valid("GG401", "straight_through", '''\
import tensorflow as tf

w = tf.Variable([0.3, 1.7])
with tf.GradientTape() as tape:
    scaled = w * 4.0
    levels = scaled + tf.stop_gradient(tf.floor(scaled) - scaled)
    loss = tf.reduce_sum(levels ** 2)
grad = tape.gradient(loss, w)
'''),
    Invalid("GG402", "argmin", '''\
import tensorflow as tf

w = tf.Variable([[0.3, 1.7, 0.2]])
with tf.GradientTape() as tape:
    index = tf.argmin(w, axis=1)
    loss = tf.reduce_sum(tf.cast(index, tf.float32))
grad = tape.gradient(loss, w)
'''),
    Valid("GG402", "argmax_for_action", '''\
import numpy as np
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(2)])
states = np.random.rand(8, 3).astype("float32")
with tf.GradientTape() as tape:
    q = model(states)
    actions = tf.argmax(q, axis=1)
    chosen = tf.reduce_sum(q * tf.one_hot(actions, 2), axis=1)
    loss = tf.reduce_mean(tf.square(1.0 - chosen))
grads = tape.gradient(loss, model.trainable_variables)
'''),
    Valid("GG402", "top_k_values", '''\
import tensorflow as tf

w = tf.Variable([[0.3, 1.7, 0.2]])
with tf.GradientTape() as tape:
    top = tf.math.top_k(w, k=2)
    loss = tf.reduce_sum(top.values)
grad = tape.gradient(loss, w)
'''),
    Invalid("GG403", "cast_to_int64_by_name", '''\
import tensorflow as tf

w = tf.Variable([0.3, 1.7])
with tf.GradientTape() as tape:
    counts = tf.cast(w * 10.0, "int64")
    loss = tf.reduce_sum(tf.cast(counts, tf.float32))
grad = tape.gradient(loss, w)
'''),
    Invalid("GG403", "model_output_into_embedding", '''\
import tensorflow as tf
import keras

generator = keras.Sequential([keras.Input((4,)), keras.layers.Dense(10, activation="softmax")])
discriminator = keras.Sequential([keras.layers.Embedding(10, 8), keras.layers.Flatten(), keras.layers.Dense(1)])
with tf.GradientTape() as tape:
    fake = generator(tf.random.normal([2, 4]))
    loss = -tf.reduce_mean(discriminator(fake))
grads = tape.gradient(loss, generator.trainable_variables)
'''),
    Valid("GG403", "token_ids_into_embedding", '''\
import tensorflow as tf
import keras

model = keras.Sequential([keras.layers.Embedding(10, 8), keras.layers.Flatten(), keras.layers.Dense(1)])
tokens = tf.constant([[1, 4, 2], [3, 0, 9]])
with tf.GradientTape() as tape:
    loss = tf.reduce_mean(tf.square(model(tokens)))
grads = tape.gradient(loss, model.trainable_variables)
'''),
    Valid("GG403", "cast_labels", '''\
import tensorflow as tf

w = tf.Variable([[0.3, 1.7]])
labels = tf.constant([1.0])
with tf.GradientTape() as tape:
    logits = w * 2.0
    loss = tf.reduce_mean(tf.keras.losses.sparse_categorical_crossentropy(
        tf.cast(labels, tf.int32), logits, from_logits=True))
grad = tape.gradient(loss, w)
'''),
    Valid("GG403", "cast_to_float16", '''\
import tensorflow as tf

w = tf.Variable([0.3, 1.7])
with tf.GradientTape() as tape:
    half = tf.cast(w * 10.0, tf.float16)
    loss = tf.reduce_sum(tf.cast(half, tf.float32))
grad = tape.gradient(loss, w)
'''),
    Invalid("GG404", "tf_greater", '''\
import tensorflow as tf

w = tf.Variable([0.3, 1.7])
with tf.GradientTape() as tape:
    above = tf.cast(tf.greater(w, 1.0), tf.float32)
    loss = tf.reduce_sum(above)
grad = tape.gradient(loss, w)
'''),
    Invalid("GG404", "less_operator", '''\
import tensorflow as tf

w = tf.Variable([0.3, 1.7])
with tf.GradientTape() as tape:
    inside = tf.cast(w < 1.0, tf.float32)
    loss = tf.reduce_mean(inside)
grad = tape.gradient(loss, w)
'''),
    Valid("GG404", "where_condition", '''\
import tensorflow as tf

w = tf.Variable([0.3, 1.7])
with tf.GradientTape() as tape:
    error = w - 1.0
    loss = tf.reduce_sum(tf.where(tf.abs(error) < 0.5, error ** 2, tf.abs(error)))
grad = tape.gradient(loss, w)
'''),
    Invalid("GG405", "floordiv", '''\
import tensorflow as tf

w = tf.Variable([0.3, 1.7])
with tf.GradientTape() as tape:
    buckets = tf.math.floordiv(w * 10.0, 3.0)
    loss = tf.reduce_sum(buckets ** 2)
grad = tape.gradient(loss, w)
'''),
    Invalid("GG405", "zero_fraction", '''\
import numpy as np
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(4, activation="relu")])
x = np.random.rand(8, 3).astype("float32")
with tf.GradientTape() as tape:
    sparsity = tf.math.zero_fraction(model(x))
    loss = tf.square(sparsity - 0.5)
grads = tape.gradient(loss, model.trainable_variables)
'''),
    Valid("GG405", "count_on_labels", '''\
import tensorflow as tf

w = tf.Variable([0.3, 1.7])
labels = tf.constant([0.0, 1.0])
with tf.GradientTape() as tape:
    positives = tf.cast(tf.math.count_nonzero(labels), tf.float32)
    loss = tf.reduce_sum(w * labels) / positives
grad = tape.gradient(loss, w)
'''),
    Invalid("GG406", "map_reads_a_variable", '''\
import tensorflow as tf

w = tf.Variable(2.0)
ds = tf.data.Dataset.from_tensor_slices(tf.range(4, dtype=tf.float32)).batch(2)
with tf.GradientTape() as tape:
    scaled = ds.map(lambda x: x * w)
    loss = scaled.reduce(tf.constant(0.0), lambda total, x: total + tf.reduce_sum(x))
grads = tape.gradient(loss, [w])
'''),
    Invalid("GG406", "for_over_dataset_in_tf_function", '''\
import tensorflow as tf

ds = tf.data.Dataset.from_tensor_slices(tf.range(4, dtype=tf.float32))
u = tf.Variable(1.0)

@tf.function
def squared_error():
    total = tf.constant(0.0)
    for y in ds:
        total += (y - u) ** 2
    return total

with tf.GradientTape() as tape:
    loss = squared_error()
grads = tape.gradient(loss, [u])
'''),
    Valid("GG406", "for_over_iter_of_dataset_in_tf_function", '''\
import tensorflow as tf

ds = tf.data.Dataset.from_tensor_slices(tf.range(4, dtype=tf.float32))
u = tf.Variable(1.0)

@tf.function
def squared_error():
    total = tf.constant(0.0)
    for y in iter(ds):
        total += (y - u) ** 2
    return total

with tf.GradientTape() as tape:
    loss = squared_error()
grads = tape.gradient(loss, [u])
'''),
    Valid("GG406", "map_of_inputs_loss_in_python", '''\
import tensorflow as tf

w = tf.Variable(2.0)
ds = tf.data.Dataset.from_tensor_slices(tf.range(4, dtype=tf.float32)).map(lambda x: x * 2.0)
with tf.GradientTape() as tape:
    loss = tf.add_n([tf.reduce_sum(x * w) for x in ds])
grads = tape.gradient(loss, [w])
'''),
]
