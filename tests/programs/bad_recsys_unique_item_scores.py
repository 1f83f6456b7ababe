# expect: GG405@27
# tensorflow: raises LookupError
# fixed: nofix
# shape: recommender loss over the distinct predicted scores of a batch, taken with tf.unique; TensorFlow registers no gradient for Unique and tape.gradient raises
# source: https://github.com/tensorflow/tensorflow/issues/36810
# family: 4
import numpy as np
import tensorflow as tf
import keras

n_users, n_items = 10, 12

user_in = keras.Input(shape=(), dtype="int32")
item_in = keras.Input(shape=(), dtype="int32")
u = keras.layers.Embedding(n_users, 4)(user_in)
v = keras.layers.Embedding(n_items, 4)(item_in)
score = keras.layers.Dot(axes=1)([u, v])
model = keras.Model([user_in, item_in], score)
optimizer = keras.optimizers.Adam(1e-2)

users = np.random.randint(0, n_users, size=8)
items = np.random.randint(0, n_items, size=8)
ratings = np.random.rand(8).astype(np.float32)

with tf.GradientTape() as tape:
    scores = tf.reshape(model([users, items]), [-1])
    y, idx = tf.unique(scores)
    loss = tf.reduce_mean(tf.square(tf.reduce_mean(y) - ratings))
grads = tape.gradient(loss, model.trainable_variables)
optimizer.apply_gradients(zip(grads, model.trainable_variables))
