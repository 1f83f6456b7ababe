# expect: GG301@27
# tensorflow: none
# fixed: nofix
# shape: GAN with separate generator and discriminator tapes, fake images generated before the tapes open
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
cross_entropy = keras.losses.BinaryCrossentropy(from_logits=True)
generator_optimizer = keras.optimizers.Adam(1e-4)
discriminator_optimizer = keras.optimizers.Adam(1e-4)

real_images = np.random.rand(batch_size, data_dim).astype(np.float32)
noise = tf.random.normal([batch_size, latent_dim])
generated_images = generator(noise, training=True)

with tf.GradientTape() as gen_tape, tf.GradientTape() as disc_tape:
    real_output = discriminator(real_images, training=True)
    fake_output = discriminator(generated_images, training=True)
    gen_loss = cross_entropy(tf.ones_like(fake_output), fake_output)
    disc_loss = (cross_entropy(tf.ones_like(real_output), real_output)
                 + cross_entropy(tf.zeros_like(fake_output), fake_output))

gradients_of_discriminator = disc_tape.gradient(disc_loss, discriminator.trainable_variables)
discriminator_optimizer.apply_gradients(zip(gradients_of_discriminator, discriminator.trainable_variables))
gradients_of_generator = gen_tape.gradient(gen_loss, generator.trainable_variables)
generator_optimizer.apply_gradients(zip(gradients_of_generator, generator.trainable_variables))
