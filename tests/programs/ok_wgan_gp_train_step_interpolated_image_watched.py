# expect: none
# tensorflow: ok
# shape: the WGAN-GP train_step of the unwatched program with `gp_tape.watch(interpolated_image)` as the first line of the inner tape: the penalty's gradient exists, and the critic's and generator's variables all get gradients
# source: https://github.com/tensorflow/tensorflow/issues/36436
# family: 2
# heldout: 2
import numpy as np
import tensorflow as tf
import keras

latent_dim, data_dim = 4, 6


def build_generator():
    return keras.Sequential([keras.Input(shape=(latent_dim,)), keras.layers.Dense(16, activation="relu"), keras.layers.Dense(data_dim)])


def build_critic():
    return keras.Sequential([keras.Input(shape=(data_dim,)), keras.layers.Dense(16, activation="relu"), keras.layers.Dense(1)])


class WGANGP(keras.Model):
    def __init__(self, generator, critic, gp_weight=10.0, **kwargs):
        super().__init__(**kwargs)
        self.generator = generator
        self.critic = critic
        self.gp_weight = gp_weight

    def compile(self, d_optimizer, g_optimizer):
        super().compile()
        self.d_optimizer = d_optimizer
        self.g_optimizer = g_optimizer

    def gradient_penalty(self, real_samples, fake_samples):
        alpha = tf.random.uniform([tf.shape(real_samples)[0], 1])
        interpolated_image = real_samples + alpha * (fake_samples - real_samples)
        with tf.GradientTape() as gp_tape:
            gp_tape.watch(interpolated_image)
            validity_interpolated = self.critic(interpolated_image, training=True)
        gradients = gp_tape.gradient(validity_interpolated, interpolated_image)
        gradients_norm = tf.sqrt(tf.reduce_sum(tf.square(gradients), axis=1))
        return tf.reduce_mean((gradients_norm - 1.0) ** 2)

    def train_step(self, real_samples):
        batch_size = tf.shape(real_samples)[0]
        noise = tf.random.normal([batch_size, latent_dim])
        with tf.GradientTape() as tape:
            fake_samples = self.generator(noise, training=True)
            d_loss = (tf.reduce_mean(self.critic(fake_samples, training=True))
                      - tf.reduce_mean(self.critic(real_samples, training=True))
                      + self.gp_weight * self.gradient_penalty(real_samples, fake_samples))
        d_grads = tape.gradient(d_loss, self.critic.trainable_variables)
        self.d_optimizer.apply_gradients(zip(d_grads, self.critic.trainable_variables))

        with tf.GradientTape() as tape:
            g_loss = -tf.reduce_mean(self.critic(self.generator(noise, training=True), training=True))
        g_grads = tape.gradient(g_loss, self.generator.trainable_variables)
        self.g_optimizer.apply_gradients(zip(g_grads, self.generator.trainable_variables))
        return {"d_loss": d_loss, "g_loss": g_loss}


wgan = WGANGP(build_generator(), build_critic())
wgan.compile(d_optimizer=keras.optimizers.Adam(1e-4, beta_1=0.5, beta_2=0.9), g_optimizer=keras.optimizers.Adam(1e-4, beta_1=0.5, beta_2=0.9))
wgan.fit(np.random.randn(16, data_dim).astype(np.float32), batch_size=8, epochs=1, verbose=0)
