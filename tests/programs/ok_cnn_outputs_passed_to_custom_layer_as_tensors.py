# expect: none
# tensorflow: ok
# shape: the CNN and custom layer of the assign program, the CNN's outputs `Fx` and `Bx` now passed to the custom layer as tensors instead of being assigned into the variables `F` and `B`: every CNN variable gets a gradient
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
lambda_tf = tf.Variable([100.0], name="lamda_tf")


def custom_layer(F, B):
    return lambda_tf * tf.reduce_mean(tf.square(F - B)) + tf.reduce_mean(tf.square(F))


images = np.random.rand(batch, 16, 16, 1).astype(np.float32)
with tf.GradientTape() as tape:
    Fx, Bx = tf.split(cnn(images), 2, axis=-1)
    op = custom_layer(Fx, Bx)
grads = tape.gradient(op, cnn.trainable_variables)
keras.optimizers.SGD(1e-3).apply_gradients(zip(grads, cnn.trainable_variables))
