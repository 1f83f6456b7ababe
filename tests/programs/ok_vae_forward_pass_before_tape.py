# expect: none
# tensorflow: ok
# source: https://github.com/tensorflow/tensorflow/issues/54341
# shape: subclassed VAE called inside the tape together with the compute_total_loss helper, so encoder and decoder get gradients
# heldout: 7
import tensorflow as tf
from tensorflow import keras


class VAE(keras.Model):
    def __init__(self, latent_dim=3):
        super().__init__()
        self.enc = keras.layers.Dense(16, activation="relu")
        self.mu_head = keras.layers.Dense(latent_dim)
        self.log_var_head = keras.layers.Dense(latent_dim)
        self.dec_hidden = keras.layers.Dense(16, activation="relu")
        self.dec_out = keras.layers.Dense(8, activation="sigmoid")

    def call(self, x):
        h = self.enc(x)
        mu = self.mu_head(h)
        log_var = self.log_var_head(h)
        eps = tf.random.normal(tf.shape(mu))
        z = mu + tf.exp(0.5 * log_var) * eps
        return self.dec_out(self.dec_hidden(z)), mu, log_var


def compute_reconstruction_loss(data, reconstruction):
    return tf.reduce_mean(tf.reduce_sum(tf.square(data - reconstruction), axis=1))


def compute_kl_divergence_loss(mu, log_var):
    return tf.reduce_mean(-0.5 * tf.reduce_sum(1 + log_var - tf.square(mu) - tf.exp(log_var), axis=1))


def compute_total_loss(data, reconstruction, mu, log_var, alpha=1.0):
    recon_loss = compute_reconstruction_loss(data, reconstruction)
    kl_loss = compute_kl_divergence_loss(mu, log_var)
    return recon_loss * alpha + kl_loss


model = VAE()
optimizer = keras.optimizers.Adam(1e-3)
X = tf.random.uniform([4, 8])

with tf.GradientTape() as tape:
    X_recon, mu, log_var = model(X)
    total_loss = compute_total_loss(data=X, reconstruction=X_recon, mu=mu, log_var=log_var, alpha=1)

grads = tape.gradient(total_loss, model.trainable_weights)
optimizer.apply_gradients(zip(grads, model.trainable_weights))
