# expect: none
# tensorflow: ok
# source: https://github.com/keras-team/keras/issues/16663
# shape: same loss factory and compiled Keras loss, but the rank targets are compared with the real-valued predictions (squared error between y_pred and the true ranks), so fit() gets gradients
# heldout: 7
import numpy as np
import tensorflow as tf
import keras


def calculate_loss(pad_val, max_val):
    def loss(y_true, y_pred):
        pad_indices = tf.where(y_true == pad_val)
        y_true = tf.tensor_scatter_nd_update(
            y_true, pad_indices, tf.ones(tf.shape(pad_indices)[0], y_true.dtype) * max_val)
        actual_orders = tf.cast(tf.argsort(tf.argsort(y_true)), tf.float32)
        return tf.reduce_sum(tf.square(actual_orders - y_pred))

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
