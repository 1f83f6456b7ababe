# expect: GG401@26
# tensorflow: none
# fixed: ok
# source: https://github.com/tensorflow/tensorflow/issues/18636
# shape: super-resolution loss that rounds the network's output with tf.round to get integer steps before an l2 loss (TF1 graph rebuilt with a GradientTape)
# heldout: 6
import numpy as np
import tensorflow as tf
from tensorflow import keras

net = keras.Sequential([
    keras.Input(shape=(12, 12, 1)),
    keras.layers.Conv2D(8, 5, padding="valid", activation="relu"),
    keras.layers.Conv2D(4, 1, activation="relu"),
    keras.layers.Conv2D(1, 3, padding="valid"),
])
optimizer = keras.optimizers.Adam(1e-4)

train_img_lr = np.random.rand(2, 12, 12, 1).astype(np.float32)
train_img_hr = np.random.rand(2, 6, 6, 1).astype(np.float32)
train_tao = 0.5

with tf.GradientTape() as tape:
    train_output = net(train_img_lr, training=True)
    loss = tf.reduce_mean(tf.nn.l2_loss(
        tf.round(train_output) * train_tao / 2 + train_img_lr[:, 3:9, 3:9, :] - train_img_hr))
grads = tape.gradient(loss, net.trainable_variables)
