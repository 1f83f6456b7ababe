# expect: GG303@19 GG303@20
# tensorflow: none
# fixed: nofix
# shape: a weight-normalised Conv2D layer creates its raw kernel and a trainable gain wn_g in build() and right there replaces the kernel once by kernel * (rsqrt(sum(kernel**2)) * wn_g); call() convolves with that one-time tensor, so under eager TF2 both the raw kernel and wn_g get None (the thread asks how the kernel "gets normalized after each update" with no call() override: in its TF1 estimator graph it was; the thread's layer subclasses Conv2D and assigns self.kernel, which Keras 3 refuses with AttributeError "property 'kernel' ... has no setter", so the rebuild is a plain Layer)
# source: https://github.com/ychfan/tf_estimator_barebone/issues/15
# heldout: 4
import numpy as np
import tensorflow as tf
import keras


class Conv2DWeightNorm(keras.layers.Layer):
    def __init__(self, filters, kernel_size):
        super().__init__()
        self.filters = filters
        self.kernel_size = kernel_size

    def build(self, input_shape):
        kernel = self.add_weight(name="kernel", shape=(self.kernel_size, self.kernel_size, input_shape[-1], self.filters))
        self.wn_g = self.add_weight(name="wn_g", shape=(self.filters,), initializer="ones", trainable=True)
        self.bias = self.add_weight(name="bias", shape=(self.filters,), initializer="zeros")
        square_sum = tf.reduce_sum(tf.square(kernel), [0, 1, 2], keepdims=False)
        inv_norm = tf.math.rsqrt(square_sum)
        self.kernel = kernel * (inv_norm * self.wn_g)

    def call(self, inputs):
        return tf.nn.conv2d(inputs, self.kernel, strides=1, padding="SAME") + self.bias


model = keras.Sequential([keras.Input(shape=(6, 6, 3)), Conv2DWeightNorm(4, 3)])
optimizer = keras.optimizers.Adam(1e-3)
lr_images = np.random.rand(2, 6, 6, 3).astype(np.float32)
hr_images = np.random.rand(2, 6, 6, 4).astype(np.float32)

with tf.GradientTape() as tape:
    loss = tf.reduce_mean(tf.abs(model(lr_images, training=True) - hr_images))
grads = tape.gradient(loss, model.trainable_variables)
optimizer.apply_gradients(zip(grads, model.trainable_variables))
