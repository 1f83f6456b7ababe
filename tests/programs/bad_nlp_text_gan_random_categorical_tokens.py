# expect: GG405@33
# tensorflow: none
# fixed: nofix
# shape: text GAN whose generator samples token ids with tf.random.categorical from its logits and embeds them for the discriminator; the sampled integers carry no gradient to the generator
# source: https://github.com/tensorflow/tensorflow/issues/9260
# family: 4
import numpy as np
import tensorflow as tf
import keras

vocab, seq_len, noise_dim = 16, 6, 4

generator = keras.Sequential([
    keras.Input(shape=(noise_dim,)),
    keras.layers.Dense(32, activation="relu"),
    keras.layers.Dense(seq_len * vocab),
    keras.layers.Reshape((seq_len, vocab)),
])
discriminator = keras.Sequential([
    keras.Input(shape=(seq_len,), dtype="int64"),
    keras.layers.Embedding(vocab, 8),
    keras.layers.GlobalAveragePooling1D(),
    keras.layers.Dense(1),
])
g_optimizer = keras.optimizers.Adam(1e-4)
bce = keras.losses.BinaryCrossentropy(from_logits=True)

noise = tf.random.normal((4, noise_dim))

with tf.GradientTape() as tape:
    logits = generator(noise, training=True)
    flat = tf.reshape(logits, (-1, vocab))
    tokens = tf.reshape(tf.random.categorical(flat, num_samples=1), (4, seq_len))
    fake_score = discriminator(tokens, training=False)
    g_loss = bce(tf.ones_like(fake_score), fake_score)
grads = tape.gradient(g_loss, generator.trainable_variables)
g_optimizer.apply_gradients(zip(grads, generator.trainable_variables))
