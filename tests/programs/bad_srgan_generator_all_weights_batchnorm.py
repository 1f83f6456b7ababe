# expect: GG302@36
# tensorflow: none
# fixed: nofix
# shape: SRGAN generator pre-training (MSE step): the generator is a residual block stack with BatchNormalization and the tape is asked for `G.weights`, every weight including the batch-norm moving_mean/moving_var, which the loss never touches ("Gradients do not exist for variables ['batchnorm_1/moving_mean:0', ...]"; the reporter: "we need to tell them only trainable variables instead of all variables")
# source: https://github.com/tensorlayer/SRGAN/issues/143
# family: 6
import numpy as np
import tensorflow as tf
from tensorflow import keras


def get_G(input_shape):
    lr_image = keras.Input(input_shape)
    n = keras.layers.Conv2D(8, 3, padding="same", activation="relu")(lr_image)
    temp = n
    nn = keras.layers.Conv2D(8, 3, padding="same")(n)
    nn = keras.layers.BatchNormalization()(nn)
    nn = keras.layers.ReLU()(nn)
    n = keras.layers.Add()([n, nn])
    n = keras.layers.Conv2D(8, 3, padding="same")(n)
    n = keras.layers.BatchNormalization()(n)
    n = keras.layers.Add()([n, temp])
    sr_image = keras.layers.Conv2D(3, 1, activation="tanh")(keras.layers.UpSampling2D(2)(n))
    return keras.Model(lr_image, sr_image)


G = get_G((8, 8, 3))
g_optimizer_init = keras.optimizers.Adam(1e-4)
lr_patchs = np.random.rand(2, 8, 8, 3).astype("float32")
hr_patchs = np.random.rand(2, 16, 16, 3).astype("float32")

with tf.GradientTape() as tape:
    fake_hr_patchs = G(lr_patchs, training=True)
    mse_loss = tf.reduce_mean(tf.square(fake_hr_patchs - hr_patchs))
g_vars = G.weights
grad = tape.gradient(mse_loss, g_vars)
