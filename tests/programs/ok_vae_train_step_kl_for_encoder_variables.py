# expect: none
# tensorflow: ok
# shape: a subclassed VAE's own `train_step` takes the KL term's gradient for `self.encoder.trainable_variables` only and the reconstruction's for every variable: asking a sub-model for its own variables is not asking for the decoder's
# family: 6
import numpy as np
import tensorflow as tf
from tensorflow import keras


class VAE(keras.Model):
    def __init__(self):
        super().__init__()
        self.encoder = keras.Sequential([keras.Input((6,)), keras.layers.Dense(4)])
        self.decoder = keras.Sequential([keras.Input((2,)), keras.layers.Dense(6)])
        self.kl_optimizer = keras.optimizers.SGD(0.01)

    def call(self, x):
        h = self.encoder(x)
        z_mean, z_log_var = h[:, :2], h[:, 2:]
        return self.decoder(z_mean), z_mean, z_log_var

    def train_step(self, x):
        with tf.GradientTape(persistent=True) as tape:
            decoded, z_mean, z_log_var = self(x)
            kl = -0.5 * tf.reduce_mean(1 + z_log_var - tf.square(z_mean) - tf.exp(z_log_var))
            reconstruction = tf.reduce_mean(tf.square(x - decoded))
        kl_grads = tape.gradient(kl, self.encoder.trainable_variables)
        grads = tape.gradient(reconstruction, self.trainable_variables)
        self.kl_optimizer.apply_gradients(zip(kl_grads, self.encoder.trainable_variables))
        self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
        return {"kl": kl}


vae = VAE()
vae.compile(optimizer="adam")
vae.fit(np.random.rand(8, 6).astype("float32"), epochs=1, batch_size=4, verbose=0)
