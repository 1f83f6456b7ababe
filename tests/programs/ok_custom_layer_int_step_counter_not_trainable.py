# expect: none
# tensorflow: ok
# shape: a custom layer that keeps an int32 step counter with `add_weight(..., dtype="int32", trainable=False)` next to its float kernel, and counts its calls with `assign_add`: the counter is state, not trained, so every trainable weight gets its gradient
# family: 3
import numpy as np
import tensorflow as tf
import keras


class CountingDense(keras.layers.Layer):
    def build(self, input_shape):
        self.kernel = self.add_weight(shape=(input_shape[-1], 2), initializer="glorot_uniform")
        self.calls = self.add_weight(shape=(), initializer="zeros", dtype="int32", trainable=False)

    def call(self, inputs):
        self.calls.assign_add(1)
        return tf.matmul(inputs, self.kernel)


layer = CountingDense()
optimizer = keras.optimizers.SGD(0.1)
x = np.random.rand(4, 3).astype("float32")
y = np.random.rand(4, 2).astype("float32")
with tf.GradientTape() as tape:
    loss = tf.reduce_mean(tf.square(y - layer(x)))
gradients = tape.gradient(loss, layer.trainable_variables)
optimizer.apply_gradients(zip(gradients, layer.trainable_variables))
