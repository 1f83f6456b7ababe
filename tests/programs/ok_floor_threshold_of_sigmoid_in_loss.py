# expect: none
# tensorflow: ok
# source: https://github.com/tensorflow/tensorflow/issues/8625
# shape: absolute-error loss on the sigmoid probabilities themselves, without the tf.floor threshold (the thread's working variant)
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
    loss_op = tf.reduce_mean(tf.abs(y_true - y_prob))
grads = tape.gradient(loss_op, model.trainable_variables)
