# expect: none
# tensorflow: ok
# shape: the Keras GAN pattern: `gan = keras.Model(z, discriminator(generator(z)))` (and `keras.Sequential([generator, discriminator])`); the tape runs the combined model and asks for `generator.trainable_variables`, which the combined model holds as its own
import tensorflow as tf
import keras

latent = 4
generator = keras.Sequential([keras.Input((latent,)), keras.layers.Dense(8, activation="relu"), keras.layers.Dense(6)])
discriminator = keras.Sequential([keras.Input((6,)), keras.layers.Dense(8, activation="relu"), keras.layers.Dense(1)])
z = keras.Input((latent,))
gan = keras.Model(z, discriminator(generator(z)))
stacked = keras.Sequential([generator, discriminator])
optimizer = keras.optimizers.Adam(1e-3)
noise = tf.random.normal((8, latent))
bce = keras.losses.BinaryCrossentropy(from_logits=True)

with tf.GradientTape() as tape:
    verdict = gan(noise, training=True)
    loss = bce(tf.ones_like(verdict), verdict)
gradients = tape.gradient(loss, generator.trainable_variables)
optimizer.apply_gradients(zip(gradients, generator.trainable_variables))

with tf.GradientTape() as tape:
    verdict = stacked(noise, training=True)
    loss = bce(tf.ones_like(verdict), verdict)
gradients = tape.gradient(loss, generator.trainable_variables)
optimizer.apply_gradients(zip(gradients, generator.trainable_variables))
