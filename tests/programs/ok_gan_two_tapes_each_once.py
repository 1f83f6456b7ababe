# expect: none
# tensorflow: ok
# shape: DCGAN-tutorial train_step with gen_tape and disc_tape in one with-statement, each asked once, under @tf.function
import numpy as np
import tensorflow as tf
from tensorflow.keras import layers

noise_dim = 4
BATCH_SIZE = 8

generator = tf.keras.Sequential([layers.Input((noise_dim,)), layers.Dense(8, activation="relu"), layers.Dense(6, activation="tanh")])
discriminator = tf.keras.Sequential([layers.Input((6,)), layers.Dense(8), layers.LeakyReLU(), layers.Dense(1)])
cross_entropy = tf.keras.losses.BinaryCrossentropy(from_logits=True)
generator_optimizer = tf.keras.optimizers.Adam(1e-4)
discriminator_optimizer = tf.keras.optimizers.Adam(1e-4)


def discriminator_loss(real_output, fake_output):
    real_loss = cross_entropy(tf.ones_like(real_output), real_output)
    fake_loss = cross_entropy(tf.zeros_like(fake_output), fake_output)
    return real_loss + fake_loss


def generator_loss(fake_output):
    return cross_entropy(tf.ones_like(fake_output), fake_output)


@tf.function
def train_step(images):
    noise = tf.random.normal([BATCH_SIZE, noise_dim])
    with tf.GradientTape() as gen_tape, tf.GradientTape() as disc_tape:
        generated_images = generator(noise, training=True)
        real_output = discriminator(images, training=True)
        fake_output = discriminator(generated_images, training=True)
        gen_loss = generator_loss(fake_output)
        disc_loss = discriminator_loss(real_output, fake_output)
    gradients_of_generator = gen_tape.gradient(gen_loss, generator.trainable_variables)
    gradients_of_discriminator = disc_tape.gradient(disc_loss, discriminator.trainable_variables)
    generator_optimizer.apply_gradients(zip(gradients_of_generator, generator.trainable_variables))
    discriminator_optimizer.apply_gradients(zip(gradients_of_discriminator, discriminator.trainable_variables))
    return gen_loss, disc_loss


real = np.random.uniform(-1, 1, size=(BATCH_SIZE, 6)).astype("float32")
g, d = train_step(real)
print("gen", g.numpy(), "disc", d.numpy())
