# expect: GG302@21 GG302@21
# tensorflow: none
# fixed: nofix
# shape: the same notebook with the cells run in another order: `model` is bound again to a Sequential before the hand-written `training_step` runs, so the step's loss reads the Sequential and asks for `[W, b]`, which it never uses
import numpy as np
import tensorflow as tf
from tensorflow import keras

W = tf.Variable(tf.random.uniform(shape=(2, 1)))
b = tf.Variable(tf.zeros(shape=(1,)))


def model(inputs):
    return tf.matmul(inputs, W) + b


def training_step(inputs, targets):
    with tf.GradientTape() as tape:
        predictions = model(inputs)
        loss = tf.reduce_mean(tf.square(targets - predictions))
    grad_loss_wrt_W, grad_loss_wrt_b = tape.gradient(loss, [W, b])
    W.assign_sub(grad_loss_wrt_W * 0.1)
    b.assign_sub(grad_loss_wrt_b * 0.1)
    return loss


inputs = np.random.rand(8, 2).astype("float32")
targets = np.random.rand(8, 1).astype("float32")
model = keras.Sequential([keras.layers.Dense(1)])
model.compile(optimizer="rmsprop", loss="mean_squared_error")
model.fit(inputs, targets, epochs=1, verbose=0)

for step in range(3):
    loss = training_step(inputs, targets)
