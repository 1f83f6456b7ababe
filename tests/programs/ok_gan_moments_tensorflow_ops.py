# expect: none
# tensorflow: ok
# shape: the fix for the "GANs in 50 lines" port: `get_moments` written with TensorFlow ops (tf.reduce_mean, tf.sqrt) on the generator's output tensor, so the four moments D sees stay on the tape and the generator gets gradients
# source: https://github.com/tensorflow/tensorflow/issues/31919
# family: 4
# heldout: 1
import numpy as np
import tensorflow as tf
import keras

g_input_size, g_hidden_size, g_output_size = 1, 8, 1
d_input_size, d_hidden_size = 4, 8
minibatch_size = 16

G = keras.Sequential([
    keras.Input(shape=(g_input_size,)),
    keras.layers.Dense(g_hidden_size, activation="elu"),
    keras.layers.Dense(g_output_size),
])
D = keras.Sequential([
    keras.Input(shape=(d_input_size,)),
    keras.layers.Dense(d_hidden_size, activation="elu"),
    keras.layers.Dense(1, activation="sigmoid"),
])
criterion = keras.losses.BinaryCrossentropy()
g_optimizer = keras.optimizers.SGD(1e-3)


def get_moments(d):
    mean = tf.reduce_mean(d)
    diffs = d - mean
    std = tf.sqrt(tf.reduce_mean(diffs ** 2))
    zscores = diffs / std
    return tf.stack([mean, std, tf.reduce_mean(zscores ** 3), tf.reduce_mean(zscores ** 4) - 3.0])


gen_input = np.random.rand(minibatch_size, g_input_size).astype(np.float32)
with tf.GradientTape() as tape:
    g_fake_data = G(gen_input)
    dg_fake_decision = D(tf.reshape(get_moments(tf.transpose(g_fake_data)), (1, 4)))
    g_error = criterion(tf.ones((1, 1)), dg_fake_decision)
grads = tape.gradient(g_error, G.trainable_variables)
g_optimizer.apply_gradients(zip(grads, G.trainable_variables))
