# expect: none
# tensorflow: ok
# source: https://github.com/manicman1999/StyleGAN2-Tensorflow-2.0/issues/9
# shape: same GAN step with the generator loss taken on the discriminator output for GENERATED images (D(G(z))), as the answer says
# heldout: 9
import numpy as np
import tensorflow as tf
import keras
from keras import layers, ops

latent_dim = 8
generator = keras.Sequential([keras.Input((latent_dim,)), layers.Dense(16, activation="relu"), layers.Dense(12)])
discriminator = keras.Sequential([keras.Input((12,)), layers.Dense(16, activation="relu"), layers.Dense(1)])
gen_opt = keras.optimizers.Adam(1e-4)
disc_opt = keras.optimizers.Adam(1e-4)


def train_step(images):
    noise = tf.random.normal([images.shape[0], latent_dim])
    with tf.GradientTape() as gen_tape, tf.GradientTape() as disc_tape:
        generated_images = generator(noise, training=True)
        real_output = discriminator(images, training=True)
        fake_output = discriminator(generated_images, training=True)
        gen_loss = ops.mean(fake_output)
        disc_loss = ops.mean(ops.relu(1 + real_output)) + ops.mean(ops.relu(1 - fake_output))
    gradients_of_generator = gen_tape.gradient(gen_loss, generator.trainable_variables)
    gradients_of_discriminator = disc_tape.gradient(disc_loss, discriminator.trainable_variables)
    gen_opt.apply_gradients(zip(gradients_of_generator, generator.trainable_variables))
    disc_opt.apply_gradients(zip(gradients_of_discriminator, discriminator.trainable_variables))
    return gen_loss, disc_loss


train_step(np.random.rand(4, 12).astype("float32"))
