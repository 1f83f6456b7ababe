# expect: GG101@41
# tensorflow: none
# fixed: nofix
# shape: the "GANs in 50 lines" toy GAN ported to TF 2: the discriminator D sees four moments (mean, std, skew, kurtosis) of a batch, computed by a numpy helper `get_moments`; the generator step feeds it `g_fake_data.numpy().T` inside the tape, so the generator's gradients are all None
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
    mean = np.mean(d)
    diffs = d - mean
    std = np.sqrt(np.mean(diffs ** 2))
    zscores = diffs / std
    return np.array([mean, std, np.mean(zscores ** 3), np.mean(zscores ** 4) - 3.0])


gen_input = np.random.rand(minibatch_size, g_input_size).astype(np.float32)
with tf.GradientTape() as tape:
    g_fake_data = G(gen_input)
    dg_fake_decision = D(get_moments(g_fake_data.numpy().T).reshape((1, 4)))
    g_error = criterion(tf.ones((1, 1)), dg_fake_decision)
grads = tape.gradient(g_error, G.trainable_variables)
g_optimizer.apply_gradients(zip(grads, G.trainable_variables))
