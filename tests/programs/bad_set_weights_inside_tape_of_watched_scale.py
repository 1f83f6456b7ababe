# expect: GG302@25
# tensorflow: none
# fixed: ok
# source: https://github.com/tensorflow/tensorflow/issues/53541
# shape: meta-learning style step that scales the weights by a watched scalar and writes them back with model.set_weights inside the tape
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
    new_weights = [w * l for w in learner.weights]
    learner.set_weights(new_weights)
    y_pred = learner(x_train)
    loss = keras.losses.categorical_crossentropy(y_train, y_pred)
grads = gt.gradient(loss, l)
