# expect: GG305@28
# tensorflow: none
# fixed: nofix
# shape: a keras.Model standing for a log posterior whose call writes its input into its own weight with self.w.assign(x) and computes from the weight; the gradient with respect to x is None (HMC needs it)
# source: https://github.com/tensorflow/tensorflow/issues/54532
# family: 3
import numpy as np
import tensorflow as tf
import keras


class DummyModel(keras.Model):
    def build(self, input_shape):
        self.w = self.add_weight(name="w", shape=(), dtype="float64", initializer="zeros")

    def call(self, x):
        # evaluate the log posterior at the proposed parameter value
        self.w.assign(x)
        return -0.5 * self.w ** 2


model = DummyModel()
model.build(())
x = tf.Variable(1.5, dtype=tf.float64)

with tf.GradientTape() as tape:
    tape.watch(x)
    log_posterior = model(x)
grad = tape.gradient(log_posterior, x)
