# expect: GG101@18
# tensorflow: ok
# fixed: differs
# shape: custom train_step: the prediction goes through `.numpy()`, so only the L2 weight penalty still trains the model: every gradient exists, training is silently wrong (bench/generate.py's Keras train_step template, after Keras "customizing what happens in fit" guides with a weight penalty)
import numpy as np
import tensorflow as tf
from tensorflow import keras

model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4, activation="relu"), keras.layers.Dense(1)])
optimizer = keras.optimizers.SGD(0.1)
x = np.random.rand(8, 3).astype("float32")
y = np.random.rand(8, 1).astype("float32")
model(x)

with tf.GradientTape() as tape:
    y_pred = model(x)
    penalty = 0.01 * tf.add_n([tf.nn.l2_loss(v) for v in model.trainable_variables])
    residual = y - y_pred.numpy()
    loss = tf.reduce_mean(tf.square(residual)) + penalty
gradients = tape.gradient(loss, model.trainable_variables)
optimizer.apply_gradients(zip(gradients, model.trainable_variables))
