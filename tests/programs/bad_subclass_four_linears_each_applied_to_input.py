# expect: GG302@34
# tensorflow: none
# fixed: nofix
# shape: a subclassed model's call applies linear1 .. linear4 each to the input x (`output = self.linear1(x)` ... `output = self.linear4(x)`), overwriting `output` every time, so only linear4 reaches the prediction and the first three Dense layers get None ("No gradients for bias and kernels in Dense layer")
# source: https://github.com/tensorflow/tensorflow/issues/36880
# heldout: 4
import numpy as np
import tensorflow as tf
import keras


class Net(keras.Model):
    def __init__(self):
        super().__init__()
        self.linear1 = keras.layers.Dense(8, activation="relu")
        self.linear2 = keras.layers.Dense(8, activation="relu")
        self.linear3 = keras.layers.Dense(8, activation="relu")
        self.linear4 = keras.layers.Dense(1)

    def call(self, x):
        output = self.linear1(x)
        output = self.linear2(x)
        output = self.linear3(x)
        output = self.linear4(x)
        return output


model = Net()
optimizer = keras.optimizers.Adam(1e-3)
x = np.random.rand(8, 5).astype(np.float32)
y = np.random.rand(8, 1).astype(np.float32)
with tf.GradientTape() as tape:
    loss = tf.reduce_mean(tf.square(model(x) - y))
grads = tape.gradient(loss, model.trainable_variables)
optimizer.apply_gradients(zip(grads, model.trainable_variables))
