# expect: GG401@26
# tensorflow: none
# fixed: ok
# source: https://github.com/tensorflow/tensorflow/issues/18636
# shape: the network output is passed through tf.round (to make it integer) before the l2 loss; Round has no gradient, so every conv variable gets None
# heldout: 9
import numpy as np
import tensorflow as tf
import keras
from keras import layers

model = keras.Sequential([
    keras.Input((12, 12, 1)),
    layers.Conv2D(8, 5, padding="same", activation="relu"),
    layers.Conv2D(4, 1, activation="relu"),
    layers.Conv2D(1, 3, padding="same"),
])
optimizer = keras.optimizers.Adam(1e-3)

train_img_lr = np.random.rand(2, 12, 12, 1).astype("float32")
train_img_hr = np.random.rand(2, 12, 12, 1).astype("float32")
train_tao = 2.0

with tf.GradientTape() as tape:
    train_output = model(train_img_lr, training=True)
    loss = tf.reduce_mean(tf.nn.l2_loss(tf.round(train_output) * train_tao / 2 + train_img_lr - train_img_hr))
grads = tape.gradient(loss, model.trainable_variables)
optimizer.apply_gradients(zip(grads, model.trainable_variables))
