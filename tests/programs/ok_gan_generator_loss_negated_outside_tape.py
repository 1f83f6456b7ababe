# expect: none
# tensorflow: ok
# source: https://github.com/tensorflow/tensorflow/issues/45604
# shape: fixed twin: the loss is negated inside the tape, so the generator gradients are recorded
# heldout: 8
import tensorflow as tf
from tensorflow import keras

latent_dim = 4
generator = keras.Sequential([keras.Input((latent_dim,)), keras.layers.Dense(8, activation="relu"), keras.layers.Dense(2)])
discriminator = keras.Sequential([keras.Input((2,)), keras.layers.Dense(8, activation="relu"), keras.layers.Dense(1)])
gen_optimizer = keras.optimizers.Adam(1e-3)
disc_optimizer = keras.optimizers.Adam(1e-3)


def train_step(real):
    noise = tf.random.normal([real.shape[0], latent_dim])
    with tf.GradientTape() as disc_tape:
        fake = generator(noise, training=True)
        disc_loss = tf.reduce_mean(discriminator(fake, training=True)) - tf.reduce_mean(discriminator(real, training=True))
    disc_grads = disc_tape.gradient(disc_loss, discriminator.trainable_variables)
    disc_optimizer.apply_gradients(zip(disc_grads, discriminator.trainable_variables))

    with tf.GradientTape() as gen_tape:
        z = discriminator(generator(noise, training=True), training=True)
        gen_loss = -tf.reduce_mean(z)
    # the generator maximises the critic score
    gen_grads = gen_tape.gradient(gen_loss, generator.trainable_variables)
    gen_optimizer.apply_gradients(zip(gen_grads, generator.trainable_variables))
    return disc_loss, gen_loss


real_batch = tf.random.normal([8, 2])
print(train_step(real_batch))
