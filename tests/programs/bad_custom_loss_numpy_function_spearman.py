# expect: GG107@24
# tensorflow: none
# fixed: nofix
# shape: Spearman-correlation loss per target ranking y_pred with a numpy rankdata through tf.numpy_function, built by a loss factory custom_loss(num_targets) and given to compile(loss=...)
# source: https://github.com/tensorflow/tensorflow/issues/35713
# family: 3
import numpy as np
import tensorflow as tf
import keras

BATCH_SIZE = 8


def rankdata(a):
    return np.argsort(np.argsort(a)).astype(np.float32) + 1.0


def custom_loss(num_targets):
    def custom_rhos(y_true, y_pred):
        rhos = []
        for ind in range(num_targets):
            a = tf.squeeze(tf.slice(y_true, [0, ind], [-1, 1]))
            b = tf.squeeze(tf.slice(y_pred, [0, ind], [-1, 1]))
            rank_a, rank_b = tf.numpy_function(rankdata, [a], Tout=tf.float32), tf.numpy_function(rankdata, [b], Tout=tf.float32)
            rho = 1 - 6 * tf.reduce_sum((rank_a - rank_b) ** 2) / (BATCH_SIZE ** 3 - BATCH_SIZE)
            rhos.append(rho)
        return -tf.reduce_sum(rhos)
    return custom_rhos


model = keras.Sequential([keras.Input(shape=(5,)), keras.layers.Dense(8, activation="relu"), keras.layers.Dense(2)])
model.compile(optimizer="adam", loss=custom_loss(2), run_eagerly=True)

x_train = np.random.rand(BATCH_SIZE, 5).astype(np.float32)
y_train = np.random.rand(BATCH_SIZE, 2).astype(np.float32)
model.fit(x_train, y_train, batch_size=BATCH_SIZE, epochs=1, verbose=0)
