# expect: GG401@26
# tensorflow: none
# fixed: ok
# source: https://github.com/tensorflow/tensorflow/issues/8625
# shape: sigmoid output thresholded with tf.floor before an absolute-error loss (TF1 graph rebuilt with a GradientTape)
# heldout: 6
import numpy as np
import tensorflow as tf
from tensorflow import keras

model = keras.Sequential([
    keras.Input(shape=(6,)),
    keras.layers.Dense(8, activation="relu"),
    keras.layers.Dropout(0.5),
    keras.layers.Dense(1),
])
optimizer = keras.optimizers.SGD(0.005)

x = np.random.rand(16, 6).astype(np.float32)
y_true = np.random.randint(0, 2, size=(16, 1)).astype(np.float32)

with tf.GradientTape() as tape:
    layer_dropped = model(x, training=True)
    y_prob = tf.sigmoid(layer_dropped)
    # threshold the probabilities
    y_pred = tf.floor(y_prob)
    loss_op = tf.reduce_mean(tf.abs(y_true - y_pred))
grads = tape.gradient(loss_op, model.trainable_variables)
