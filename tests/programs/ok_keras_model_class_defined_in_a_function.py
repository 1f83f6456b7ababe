# expect: none
# tensorflow: ok
# shape: a VAE whose `keras.Model` subclass is defined inside the function that trains it (a script's `main`); `train_step` reaches `self.encoder` through `self(x)`, so the KL term's gradient for the encoder's variables is present. The methods were analysed once with their class and again as the function's nested functions, without `self`, where "the loss never uses `self.encoder`" was a false GG302
# family: 2
import numpy as np
import tensorflow as tf
from tensorflow import keras


def main():
    class VAE(keras.Model):
        def __init__(self):
            super().__init__()
            self.encoder = keras.Sequential([keras.Input((6,)), keras.layers.Dense(4)])
            self.decoder = keras.Sequential([keras.Input((2,)), keras.layers.Dense(6)])
            self.kl_optimizer = keras.optimizers.SGD(0.01)

        def call(self, x):
            h = self.encoder(x)
            return self.decoder(h[:, :2]), h[:, :2], h[:, 2:]

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


main()
