# expect: GG302@43
# tensorflow: none
# fixed: nofix
# shape: the Keras VAE example with its loss cut down to the KL term alone (`vae_loss = K.mean(kl_loss)` instead of `K.mean(reconstruction_loss + kl_loss)`): the KL term depends on the encoder only, so every decoder variable of `vae.trainable_variables` gets None ("An operation has `None` for gradient")
# source: https://github.com/keras-team/keras/issues/10819
# family: 6
import numpy as np
import tensorflow as tf
from tensorflow import keras

original_dim, intermediate_dim, latent_dim = 12, 8, 2

inputs = keras.Input((original_dim,))
h = keras.layers.Dense(intermediate_dim, activation="relu")(inputs)
z_mean = keras.layers.Dense(latent_dim)(h)
z_log_var = keras.layers.Dense(latent_dim)(h)
encoder = keras.Model(inputs, [z_mean, z_log_var], name="encoder")

latent_inputs = keras.Input((latent_dim,))
x_decoded = keras.layers.Dense(intermediate_dim, activation="relu")(latent_inputs)
outputs = keras.layers.Dense(original_dim, activation="sigmoid")(x_decoded)
decoder = keras.Model(latent_inputs, outputs, name="decoder")


class VAE(keras.Model):
    def __init__(self, encoder, decoder):
        super().__init__()
        self.encoder, self.decoder = encoder, decoder

    def call(self, x):
        z_mean, z_log_var = self.encoder(x)
        z = z_mean + tf.exp(0.5 * z_log_var) * tf.random.normal(tf.shape(z_mean))
        return self.decoder(z), z_mean, z_log_var


vae = VAE(encoder, decoder)
x_train = np.random.rand(8, original_dim).astype("float32")
with tf.GradientTape() as tape:
    x_decoded_mean, z_mean, z_log_var = vae(x_train)
    reconstruction_loss = original_dim * keras.losses.binary_crossentropy(x_train, x_decoded_mean)
    kl_loss = -0.5 * tf.reduce_sum(1 + z_log_var - tf.square(z_mean) - tf.exp(z_log_var), axis=-1)
    vae_loss = tf.reduce_mean(kl_loss)
grads = tape.gradient(vae_loss, vae.trainable_variables)
