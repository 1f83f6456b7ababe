# expect: none
# tensorflow: ok
# shape: `tf.py_function(lambda *a, **k: log_cosh(*a, **k), [y - pred], tf.float32)`: the forwarding lambda gives its `*args` to the function of the file, which computes with TensorFlow ops the tape records (issue 36's refactoring example: `*args` once bound to nothing, a false "never uses")
import numpy as np
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.Input(shape=(4,)), tf.keras.layers.Dense(1)])
optimizer = tf.keras.optimizers.SGD(0.1)
x = np.random.rand(3, 4).astype("float32")
y = np.zeros((3, 1), dtype="float32")


def log_cosh(t):
    return tf.reduce_mean(tf.math.log(tf.math.cosh(t)))


with tf.GradientTape() as tape:
    pred = model(x)
    loss = tf.py_function(lambda *a, **k: log_cosh(*a, **k), [y - pred], tf.float32)
grads = tape.gradient(loss, model.trainable_variables)
optimizer.apply_gradients(zip(grads, model.trainable_variables))
