# expect: none
# tensorflow: ok
# shape: a straight-through estimator written with @tf.custom_gradient: the forward pass rounds, the custom grad passes dy through, so the rounding cuts nothing (the custom gradient replaces what the body recorded; GG401 was claimed here before)
import numpy as np
import tensorflow as tf
import keras


@tf.custom_gradient
def round_straight_through(x):
    def grad(dy):
        return dy

    return tf.round(x), grad


model = keras.Sequential([keras.Input(shape=(3,)), keras.layers.Dense(2)])
x = np.random.rand(8, 3).astype("float32")
y = np.round(np.random.rand(8, 2)).astype("float32")
with tf.GradientTape() as tape:
    codes = round_straight_through(model(x) * 4.0) / 4.0
    loss = tf.reduce_mean(tf.square(y - codes))
grads = tape.gradient(loss, model.trainable_variables)
keras.optimizers.SGD(0.1).apply_gradients(zip(grads, model.trainable_variables))
