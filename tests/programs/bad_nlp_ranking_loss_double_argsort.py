# expect: GG402@22
# tensorflow: none
# fixed: nofix
# shape: ordering the cells of a document with a transformer encoder (a small Embedding + Dense stack stands in for `TFAutoModel.from_pretrained("distilbert-base-uncased")`) and a Dense head scoring each cell; the custom loss from `calculate_loss(pad_val, max_val)` replaces padded targets by `max_val`, turns targets and scores into ranks with `tf.argsort(tf.argsort(...))` and sums the absolute rank differences; argsort returns integer positions, so fit gets no gradient ("change this with 'mse' and the error is gone")
# source: https://github.com/tensorflow/tensorflow/issues/56396
# family: 4
# heldout: 1
import numpy as np
import tensorflow as tf
import keras
from keras import Model
from keras.layers import Dense, Dropout, Input

n_cells, seq_len, vocab_size, pad_val, max_val = 6, 5, 30, -1.0, 100.0


def calculate_loss(pad_val, max_val):
    def loss(y_true, y_pred):
        pad_indices = tf.where(y_true == pad_val)
        y_true = tf.tensor_scatter_nd_update(y_true, pad_indices, tf.ones(tf.shape(pad_indices)[0], y_true.dtype) * max_val)
        actual_orders = tf.argsort(tf.argsort(y_true))
        predicted_orders = tf.argsort(tf.argsort(y_pred))
        return tf.reduce_sum(tf.abs(actual_orders - predicted_orders))

    return loss


ids = Input(shape=(n_cells, seq_len), dtype="int32")
encoder = keras.Sequential([keras.layers.Embedding(vocab_size, 8), Dense(8, activation="gelu")], name="encoder")
x = keras.ops.mean(encoder(ids), axis=2)
x = Dropout(0.1)(x)
x = Dense(8, activation="relu")(x)
out = keras.ops.squeeze(Dense(1)(x), -1)
model = Model(ids, out)
model.compile(optimizer="adam", loss=calculate_loss(pad_val, max_val))

cell_ids = np.random.randint(0, vocab_size, size=(4, n_cells, seq_len))
orders = np.stack([np.random.permutation(n_cells) for _ in range(4)]).astype(np.float32)
orders[:, -1] = pad_val
model.fit(cell_ids, orders, epochs=1, batch_size=4, verbose=0)
