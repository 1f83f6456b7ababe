# expect: GG301@48
# tensorflow: none
# fixed: nofix
# shape: a subclassed VAE (dense layers where the thread has convolutions) whose `call` returns `(reconstruction, mu, log_var)`; the forward pass `X_recon, mu, log_var = model(X)` runs in a cell before the tape and only `compute_total_loss(...)`, a helper built from `compute_reconstruction_loss` and `compute_kl_divergence_loss`, runs inside it: every gradient is None ("No gradients are computed!")
# source: https://github.com/tensorflow/tensorflow/issues/54341
# family: 2
import numpy as np
import tensorflow as tf
from tensorflow import keras


class VAE(keras.Model):
    def __init__(self, latent_dim=3):
        super().__init__()
        self.encoder = keras.layers.Dense(8, activation="relu")
        self.mu = keras.layers.Dense(latent_dim)
        self.log_var = keras.layers.Dense(latent_dim)
        self.decoder = keras.layers.Dense(16, activation="sigmoid")

    def reparameterize(self, mu, log_var):
        return mu + tf.exp(0.5 * log_var) * tf.random.normal(tf.shape(mu))

    def call(self, x):
        h = self.encoder(x)
        mu, log_var = self.mu(h), self.log_var(h)
        return self.decoder(self.reparameterize(mu, log_var)), mu, log_var


def compute_reconstruction_loss(data, reconstruction):
    return tf.reduce_mean(tf.reduce_sum(keras.losses.binary_crossentropy(data[..., None], reconstruction[..., None]), axis=1))


def compute_kl_divergence_loss(mu, log_var):
    return tf.reduce_mean(-0.5 * tf.reduce_sum(1 + log_var - tf.square(mu) - tf.exp(log_var), axis=1))


def compute_total_loss(data, reconstruction, mu, log_var, alpha=1):
    recon_loss = compute_reconstruction_loss(data=data, reconstruction=reconstruction)
    kl_loss = compute_kl_divergence_loss(mu=mu, log_var=log_var)
    return (recon_loss * alpha) + kl_loss


model = VAE()
optimizer = keras.optimizers.Adam(1e-3)
X = np.random.rand(4, 16).astype("float32")

# Make forward propagation using defined VAE model-
X_recon, mu, log_var = model(X)

with tf.GradientTape() as tape:
    total_loss = compute_total_loss(data=X, reconstruction=X_recon, mu=mu, log_var=log_var, alpha=1)
grads = tape.gradient(total_loss, model.trainable_weights)
optimizer.apply_gradients(zip(grads, model.trainable_weights))
