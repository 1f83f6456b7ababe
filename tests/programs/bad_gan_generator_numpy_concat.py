# expect: GG102@29
# tensorflow: none
# fixed: ok
# shape: GAN generator step, real and fake batches joined with np.concatenate before the discriminator
import numpy as np
import tensorflow as tf
from tensorflow import keras

latent_dim, data_dim, batch_size = 4, 6, 8

generator = keras.Sequential([
    keras.Input(shape=(latent_dim,)),
    keras.layers.Dense(16, activation="relu"),
    keras.layers.Dense(data_dim, activation="tanh"),
])
discriminator = keras.Sequential([
    keras.Input(shape=(data_dim,)),
    keras.layers.Dense(16, activation="relu"),
    keras.layers.Dense(1),
])
bce = keras.losses.BinaryCrossentropy(from_logits=True)
g_optimizer = keras.optimizers.Adam(1e-4)

real_images = np.random.rand(batch_size, data_dim).astype(np.float32)
noise = tf.random.normal((batch_size, latent_dim))

with tf.GradientTape() as gen_tape:
    generated = generator(noise, training=True)
    combined = np.concatenate([generated, real_images], axis=0)
    logits = discriminator(combined, training=False)
    # the generator wants the discriminator to call everything real
    g_loss = bce(tf.ones_like(logits), logits)
gen_grads = gen_tape.gradient(g_loss, generator.trainable_variables)
g_optimizer.apply_gradients(zip(gen_grads, generator.trainable_variables))
