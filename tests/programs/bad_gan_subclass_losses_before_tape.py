# expect: GG301@44 GG301@45
# tensorflow: none
# fixed: nofix
# shape: a GAN of two subclassed models, `Generator` and `Discriminator`, each wrapping a `keras.models.Sequential` in `self.model` and forwarding `call` to it; the training step computes the fake images, both discriminator outputs and both losses first and opens the two tapes afterwards around the gradient calls only, so no forward pass is recorded ("No gradients provided for any variable"; the answer: "you are using the GradientTape wrong", run the model and the loss inside the tape)
# source: https://github.com/tensorflow/tensorflow/issues/31265
# family: 2
import numpy as np
import tensorflow as tf
from tensorflow import keras


class Generator(keras.Model):
    def __init__(self, n_f=8):
        super().__init__()
        self.model = keras.models.Sequential([
            keras.layers.Input((4,)),
            keras.layers.Dense(3 * 3 * n_f, activation=tf.nn.leaky_relu),
            keras.layers.Dense(16, activation="tanh"),
        ])

    def call(self, inputs, training=None):
        return self.model(inputs, training=training)


class Discriminator(keras.Model):
    def __init__(self, n_f=8):
        super().__init__()
        self.model = keras.models.Sequential([
            keras.layers.Input((16,)),
            keras.layers.Dense(n_f, activation=tf.nn.leaky_relu),
            keras.layers.Dense(1),
        ])

    def call(self, inputs, training=None):
        return self.model(inputs, training=training)


generator, discriminator = Generator(), Discriminator()
g_optimizer, d_optimizer = keras.optimizers.Adam(1e-4), keras.optimizers.Adam(1e-4)
cross_entropy = keras.losses.BinaryCrossentropy(from_logits=True)
images = np.random.rand(8, 16).astype("float32")
noise = tf.random.normal([8, 4])

generated_images = generator(noise, training=True)
real_output = discriminator(images, training=True)
fake_output = discriminator(generated_images, training=True)
gen_loss = cross_entropy(tf.ones_like(fake_output), fake_output)
disc_loss = cross_entropy(tf.ones_like(real_output), real_output) + cross_entropy(tf.zeros_like(fake_output), fake_output)
with tf.GradientTape() as gen_tape, tf.GradientTape() as disc_tape:
    gradients_of_generator = gen_tape.gradient(gen_loss, generator.trainable_variables)
    gradients_of_discriminator = disc_tape.gradient(disc_loss, discriminator.trainable_variables)
g_optimizer.apply_gradients(zip(gradients_of_generator, generator.trainable_variables))
d_optimizer.apply_gradients(zip(gradients_of_discriminator, discriminator.trainable_variables))
