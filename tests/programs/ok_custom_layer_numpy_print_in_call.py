# expect: none
# tensorflow: ok
# shape: custom Dense layer whose call prints shapes through inputs.numpy(), self.w.numpy() and (matmul + b).numpy() but returns the TensorFlow result; called eagerly, the .numpy() values only reach print and every weight gets its gradient
# source: https://github.com/tensorflow/tensorflow/issues/46765
# family: 3
import numpy as np
import tensorflow as tf
import keras


class SimpleDense(keras.layers.Layer):
    def __init__(self, units=32):
        super().__init__()
        self.units = units

    def build(self, input_shape):
        self.w = self.add_weight(name="kernel", shape=(input_shape[-1], self.units), initializer="random_normal", trainable=True)
        self.b = self.add_weight(name="bias", shape=(self.units,), initializer="zeros", trainable=True)

    def call(self, inputs):
        print(inputs.numpy().shape)
        print(self.w.numpy().shape)
        print((tf.matmul(inputs, self.w) + self.b).numpy().shape)
        return tf.matmul(inputs, self.w) + self.b


my_dense = SimpleDense(units=1)
optimizer = keras.optimizers.SGD(0.1)
x = tf.ones((3, 2))
y = tf.zeros((3, 1))

with tf.GradientTape() as tape:
    loss = tf.reduce_mean(tf.square(y - my_dense(x)))
grads = tape.gradient(loss, my_dense.trainable_variables)
optimizer.apply_gradients(zip(grads, my_dense.trainable_variables))
