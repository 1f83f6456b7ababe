# expect: GG402@18
# tensorflow: none
# fixed: nofix
# source: https://github.com/keras-team/keras/issues/16663
# shape: loss factory returning a compiled Keras loss that compares ranks tf.argsort(tf.argsort(y_pred)); argsort returns integer indices with no gradient, so fit() gets no gradient for any weight
# heldout: 7
import numpy as np
import tensorflow as tf
import keras


def calculate_loss(pad_val, max_val):
    def loss(y_true, y_pred):
        pad_indices = tf.where(y_true == pad_val)
        y_true = tf.tensor_scatter_nd_update(
            y_true, pad_indices, tf.ones(tf.shape(pad_indices)[0], y_true.dtype) * max_val)
        actual_orders = tf.argsort(tf.argsort(y_true))
        predicted_orders = tf.argsort(tf.argsort(y_pred))
        return tf.cast(tf.reduce_sum(tf.abs(actual_orders - predicted_orders)), tf.float32)

    return loss


model = keras.Sequential([
    keras.Input(shape=(6,)),
    keras.layers.Dense(16, activation="relu"),
    keras.layers.Dense(5),
])
model.compile(optimizer="adam", loss=calculate_loss(pad_val=-1.0, max_val=10.0), run_eagerly=True)

x = np.random.rand(8, 6).astype("float32")
y = np.random.rand(8, 5).astype("float32")
y[:, -1] = -1.0
model.fit(x, y, batch_size=8, epochs=1, verbose=0)
