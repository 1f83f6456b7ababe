# expect: none
# tensorflow: ok
# shape: VAE with the reparameterization trick in keras.ops, np.prod of a shape as a constant, keras.ops.convert_to_numpy only for logging after the tape (after the Keras VAE example)
import numpy as np
import keras
from keras import layers, ops
import tensorflow as tf

original_shape = (2, 3)
original_dim = int(np.prod(original_shape))
latent_dim = 2

enc_in = keras.Input(shape=(original_dim,))
h = layers.Dense(8, activation="relu")(enc_in)
z_mean = layers.Dense(latent_dim)(h)
z_log_var = layers.Dense(latent_dim)(h)
encoder = keras.Model(enc_in, [z_mean, z_log_var])
decoder = keras.Sequential([keras.Input((latent_dim,)), layers.Dense(8, activation="relu"), layers.Dense(original_dim, activation="sigmoid")])
optimizer = keras.optimizers.Adam(1e-3)
seed_generator = keras.random.SeedGenerator(1337)

data = np.random.rand(8, *original_shape).astype("float32").reshape(8, original_dim)

with tf.GradientTape() as tape:
    z_mean, z_log_var = encoder(data, training=True)
    epsilon = keras.random.normal(shape=ops.shape(z_mean), seed=seed_generator)
    z = z_mean + ops.exp(0.5 * z_log_var) * epsilon
    reconstruction = decoder(z, training=True)
    reconstruction_loss = original_dim * ops.mean(keras.losses.binary_crossentropy(data, reconstruction))
    kl_loss = -0.5 * (1 + z_log_var - ops.square(z_mean) - ops.exp(z_log_var))
    kl_loss = ops.mean(ops.sum(kl_loss, axis=1))
    total_loss = reconstruction_loss + kl_loss
variables = encoder.trainable_weights + decoder.trainable_weights
grads = tape.gradient(total_loss, variables)
optimizer.apply_gradients(zip(grads, variables))
print("total", keras.ops.convert_to_numpy(total_loss), "kl", ops.convert_to_numpy(kl_loss))
