# expect: none
# tensorflow: ok
# source: https://github.com/tensorflow/tensorflow/issues/53541
# shape: meta-learning style step that runs the layer's computation functionally with the scaled weight tensors instead of set_weights
# heldout: 6
import numpy as np
import tensorflow as tf
from tensorflow import keras

learner = keras.Sequential([
    keras.Input(shape=(4,)),
    keras.layers.Dense(3, activation="softmax"),
])
x_train = np.random.rand(8, 4).astype(np.float32)
y_train = tf.one_hot(np.random.randint(0, 3, size=8), 3)

l = tf.constant(0.1)
with tf.GradientTape() as gt:
    gt.watch(l)
    kernel, bias = [w * l for w in learner.weights]
    y_pred = tf.nn.softmax(tf.matmul(x_train, kernel) + bias)
    loss = keras.losses.categorical_crossentropy(y_train, y_pred)
grads = gt.gradient(loss, l)
