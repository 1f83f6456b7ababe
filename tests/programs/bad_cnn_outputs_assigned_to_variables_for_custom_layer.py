# expect: GG305@31 GG305@32
# tensorflow: none
# fixed: nofix
# shape: a CNN feeds a custom layer whose inputs must be variables (the poster wanted `tf.Variable`s to attach hand-written gradients to later): the CNN's two outputs are stored into the variables `F` ("FXT") and `B` ("BXT") with `assign`, and the custom layer computes from `F`, `B` and a trainable `lambda_tf`; assign has no gradient, so every CNN variable gets None (the thread asked for a gradient for tf.assign; the answer: pass the tensors themselves)
# source: https://github.com/tensorflow/tensorflow/issues/17735
# family: 3
# heldout: 2
import numpy as np
import tensorflow as tf
import keras

batch, n = 4, 8
cnn = keras.Sequential([
    keras.Input(shape=(16, 16, 1)),
    keras.layers.Conv2D(4, 3, activation="relu"),
    keras.layers.Flatten(),
    keras.layers.Dense(2 * n),
])
F = tf.Variable(tf.zeros([batch, n]), name="FXT")
B = tf.Variable(tf.zeros([batch, n]), name="BXT")
lambda_tf = tf.Variable([100.0], name="lamda_tf")


def custom_layer(F, B):
    return lambda_tf * tf.reduce_mean(tf.square(F - B)) + tf.reduce_mean(tf.square(F))


images = np.random.rand(batch, 16, 16, 1).astype(np.float32)
with tf.GradientTape() as tape:
    Fx, Bx = tf.split(cnn(images), 2, axis=-1)
    F.assign(Fx)
    B.assign(Bx)
    op = custom_layer(F, B)
grads = tape.gradient(op, cnn.trainable_variables)
keras.optimizers.SGD(1e-3).apply_gradients(zip(grads, cnn.trainable_variables))
