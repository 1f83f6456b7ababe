# expect: GG401@22
# tensorflow: none
# fixed: ok
# shape: notebook cells exported to one module: the first cell's subclassed model rounds its output in `call` and is trained there; a later cell defines a class of the same name again, without the rounding, and trains that one. Each cell's `Net()` is its own class (the analysis once took the last class of the name for both, and missed the first cell's break)
import numpy as np
import tensorflow as tf
from tensorflow import keras


class Net(keras.Model):
    def __init__(self):
        super().__init__()
        self.dense = keras.layers.Dense(1)

    def call(self, x):
        return tf.round(self.dense(x))


model = Net()
x = np.random.rand(4, 3).astype("float32")
with tf.GradientTape() as tape:
    loss = tf.reduce_mean(tf.square(model(x) - 1.0))
grads = tape.gradient(loss, model.trainable_variables)


class Net(keras.Model):
    def __init__(self):
        super().__init__()
        self.dense = keras.layers.Dense(1)

    def call(self, x):
        return self.dense(x)


model = Net()
with tf.GradientTape() as tape:
    loss = tf.reduce_mean(tf.square(model(x) - 1.0))
grads = tape.gradient(loss, model.trainable_variables)
