# expect: none
# tensorflow: ok
# shape: the keras.io DCGAN "overriding train_step" example as migrated to Keras 3 (TensorFlow backend): a `GAN(keras.Model)` keeps `self.discriminator`, `self.generator` and a `keras.random.SeedGenerator` attached to the model, and its `train_step` trains the discriminator in one tape and the generator, through the discriminator, in another; fit runs it and both gradients exist
# source: https://github.com/keras-team/keras-io/pull/1693
# family: 2
import numpy as np
import tensorflow as tf
import keras
from keras import layers, ops

latent_dim = 4
discriminator = keras.Sequential([keras.Input((8,)), layers.Dense(8), layers.LeakyReLU(0.2), layers.Dense(1, activation="sigmoid")])
generator = keras.Sequential([keras.Input((latent_dim,)), layers.Dense(8), layers.LeakyReLU(0.2), layers.Dense(8, activation="sigmoid")])


class GAN(keras.Model):
    def __init__(self, discriminator, generator, latent_dim):
        super().__init__()
        self.discriminator = discriminator
        self.generator = generator
        self.latent_dim = latent_dim
        self.seed_generator = keras.random.SeedGenerator(1337)

    def compile(self, d_optimizer, g_optimizer, loss_fn):
        super().compile()
        self.d_optimizer = d_optimizer
        self.g_optimizer = g_optimizer
        self.loss_fn = loss_fn

    def train_step(self, real_images):
        batch_size = ops.shape(real_images)[0]
        random_latent_vectors = keras.random.normal(shape=(batch_size, self.latent_dim), seed=self.seed_generator)
        generated_images = self.generator(random_latent_vectors)
        combined_images = ops.concatenate([generated_images, real_images], axis=0)
        labels = ops.concatenate([ops.ones((batch_size, 1)), ops.zeros((batch_size, 1))], axis=0)
        with tf.GradientTape() as tape:
            predictions = self.discriminator(combined_images)
            d_loss = self.loss_fn(labels, predictions)
        grads = tape.gradient(d_loss, self.discriminator.trainable_weights)
        self.d_optimizer.apply_gradients(zip(grads, self.discriminator.trainable_weights))

        random_latent_vectors = keras.random.normal(shape=(batch_size, self.latent_dim), seed=self.seed_generator)
        misleading_labels = ops.zeros((batch_size, 1))
        with tf.GradientTape() as tape:
            predictions = self.discriminator(self.generator(random_latent_vectors))
            g_loss = self.loss_fn(misleading_labels, predictions)
        grads = tape.gradient(g_loss, self.generator.trainable_weights)
        self.g_optimizer.apply_gradients(zip(grads, self.generator.trainable_weights))
        return {"d_loss": d_loss, "g_loss": g_loss}


gan = GAN(discriminator=discriminator, generator=generator, latent_dim=latent_dim)
gan.compile(d_optimizer=keras.optimizers.Adam(1e-4), g_optimizer=keras.optimizers.Adam(1e-4),
            loss_fn=keras.losses.BinaryCrossentropy())
gan.fit(np.random.rand(8, 8).astype("float32"), batch_size=8, epochs=1, verbose=0)
