# expect: none
# tensorflow: ok
# shape: two separately built Sequential networks `gModel` and `pModel` feed one loss (pModel's output scales gModel's); the thread's resolution works: one tape, asked for `pModel.trainable_variables + gModel.trainable_variables`, gives every variable of both models a gradient, and apply_gradients takes the same concatenated list
# source: https://github.com/tensorflow/tensorflow/issues/37079
# family: 1
import numpy as np
import tensorflow as tf
from tensorflow.keras import layers

X = tf.ones([16, 1])
Y = tf.ones([16, 1])

gModel = tf.keras.Sequential([layers.Dense(2, input_shape=(1,), use_bias=False), layers.Dense(1, use_bias=False)])
pModel = tf.keras.Sequential([layers.Dense(2, input_shape=(1,), use_bias=False), layers.Dense(1, use_bias=False)])
opt = tf.keras.optimizers.Adam(0.01)


def Loss_function(gModel, pModel, x, y):
    return tf.reduce_mean(tf.square(gModel(x) * pModel(x) - y))


with tf.GradientTape() as tape:
    loss = Loss_function(gModel, pModel, X, Y)
sources = pModel.trainable_variables + gModel.trainable_variables
grads = tape.gradient(loss, sources)
opt.apply_gradients(zip(grads, sources))
