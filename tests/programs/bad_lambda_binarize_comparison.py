# expect: GG404@14
# tensorflow: none
# fixed: nofix
# source: https://github.com/tensorflow/tensorflow/issues/44125
# shape: a Lambda layer binarizes the sigmoid output with a comparison (random_uniform <= p) cast to float; the comparison has no gradient, so the Dense layer before it gets none
# heldout: 8
import numpy as np
import tensorflow as tf
from tensorflow import keras


def binarize(d):
    x1, x2 = d
    return x1 * tf.cast(tf.random.uniform(tf.shape(x2)) <= x2, "float32")


inp = keras.Input((1,))
var = keras.layers.Dense(1, activation="sigmoid")(inp)
out = keras.layers.Lambda(binarize, output_shape=(1,))([inp, var])

model = keras.Model(inp, out)
model.compile(loss="mse", optimizer="sgd")

x = np.random.normal(size=(32, 1)).astype("float32")
y = (x >= 0).astype("float32")
print(model.train_on_batch(x, y))
