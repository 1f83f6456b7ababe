# expect: GG105@26
# tensorflow: none
# fixed: ok
# shape: GAN generator step producing the fake batch with generator.predict inside the generator tape
import numpy as np
import tensorflow as tf
import keras

latent_dim, data_dim, batch_size = 4, 6, 8

generator = keras.Sequential([
    keras.Input(shape=(latent_dim,)),
    keras.layers.Dense(16, activation="relu"),
    keras.layers.Dense(data_dim, activation="tanh"),
])
discriminator = keras.Sequential([
    keras.Input(shape=(data_dim,)),
    keras.layers.Dense(16, activation="relu"),
    keras.layers.Dense(1, activation="sigmoid"),
])
generator_optimizer = keras.optimizers.Adam(2e-4, beta_1=0.5)

noise = np.random.normal(size=(batch_size, latent_dim)).astype(np.float32)

with tf.GradientTape() as gen_tape:
    fake_images = generator.predict(noise, verbose=0)
    fake_output = discriminator(fake_images, training=False)
    gen_loss = tf.reduce_mean(keras.losses.binary_crossentropy(tf.ones_like(fake_output), fake_output))
gen_grads = gen_tape.gradient(gen_loss, generator.trainable_variables)
generator_optimizer.apply_gradients(zip(gen_grads, generator.trainable_variables))
