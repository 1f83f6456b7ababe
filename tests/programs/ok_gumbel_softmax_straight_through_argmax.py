# expect: none
# tensorflow: ok
# shape: straight-through Gumbel-softmax: tf.one_hot(tf.argmax(y)) on the path, but as stop_gradient(y_hard - y) + y so the soft sample carries the gradient
import numpy as np
import tensorflow as tf

n_cat, temperature = 4, 0.5
encoder = tf.keras.Sequential([tf.keras.Input((6,)), tf.keras.layers.Dense(8, activation="relu"), tf.keras.layers.Dense(n_cat)])
decoder = tf.keras.Sequential([tf.keras.Input((n_cat,)), tf.keras.layers.Dense(6)])
optimizer = tf.keras.optimizers.Adam(1e-3)


def gumbel_softmax(logits, tau, hard=True):
    u = tf.random.uniform(tf.shape(logits), minval=1e-9, maxval=1.0)
    g = -tf.math.log(-tf.math.log(u))
    y = tf.nn.softmax((logits + g) / tau)
    if hard:
        y_hard = tf.one_hot(tf.argmax(y, axis=-1), n_cat, dtype=y.dtype)
        y = tf.stop_gradient(y_hard - y) + y
    return y


x = np.random.rand(8, 6).astype(np.float32)
with tf.GradientTape() as tape:
    code = gumbel_softmax(encoder(x, training=True), temperature)
    x_rec = decoder(code, training=True)
    loss = tf.reduce_mean(tf.square(x - x_rec))
params = encoder.trainable_variables + decoder.trainable_variables
grads = tape.gradient(loss, params)
optimizer.apply_gradients(zip(grads, params))
print(loss.numpy(), np.argmax(code.numpy(), axis=-1))
