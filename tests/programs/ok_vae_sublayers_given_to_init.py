# expect: none
# tensorflow: ok
# shape: a keras.Model subclass receives its encoder and decoder networks as __init__ parameters and stores them on self; its own compute_loss method (not Keras's) uses them, and `self.trainable_variables` includes theirs (after keiohta/tf2rl tf2rl/tools/vae.py)
import numpy as np
import tensorflow as tf


class VAE(tf.keras.Model):
    def __init__(self, latent_dim, inference_net, generative_net):
        super().__init__()
        self.latent_dim = latent_dim
        self.inference_net = inference_net
        self.generative_net = generative_net

    def encode(self, x):
        mean, logvar = tf.split(self.inference_net(x), num_or_size_splits=2, axis=1)
        return mean, logvar

    def decode(self, z):
        return self.generative_net(z)

    def compute_loss(self, x):
        mean, logvar = self.encode(x)
        z = mean + tf.exp(logvar * 0.5) * tf.random.normal(tf.shape(mean))
        return tf.reduce_mean(tf.square(self.decode(z) - x)) + 1e-3 * tf.reduce_mean(tf.square(mean))

    def compute_apply_gradients(self, x, optimizer):
        with tf.GradientTape() as tape:
            loss = self.compute_loss(x)
        gradients = tape.gradient(loss, self.trainable_variables)
        optimizer.apply_gradients(zip(gradients, self.trainable_variables))
        return gradients


inference_net = tf.keras.Sequential([tf.keras.Input((6,)), tf.keras.layers.Dense(4)])
generative_net = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(6)])
vae = VAE(2, inference_net, generative_net)
vae.compute_apply_gradients(np.random.rand(8, 6).astype("float32"), tf.keras.optimizers.Adam(1e-3))
