# expect: none
# tensorflow: ok
# source: https://github.com/tensorflow/tensorflow/issues/44125
# shape: fixed twin: straight-through estimator (p + stop_gradient(sample - p)) keeps the binary forward pass and passes the gradient to p
# heldout: 8
import numpy as np
import tensorflow as tf
from tensorflow import keras


def binarize(d):
    x1, x2 = d
    hard = tf.cast(tf.random.uniform(tf.shape(x2)) <= x2, "float32")
    # straight-through estimator: forward pass uses the 0/1 sample, backward pass the probability
    return x1 * (x2 + tf.stop_gradient(hard - x2))


inp = keras.Input((1,))
var = keras.layers.Dense(1, activation="sigmoid")(inp)
out = keras.layers.Lambda(binarize, output_shape=(1,))([inp, var])

model = keras.Model(inp, out)
model.compile(loss="mse", optimizer="sgd")

x = np.random.normal(size=(32, 1)).astype("float32")
y = (x >= 0).astype("float32")
print(model.train_on_batch(x, y))
