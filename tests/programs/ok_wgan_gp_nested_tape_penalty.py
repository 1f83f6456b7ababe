# expect: none
# tensorflow: ok
# shape: WGAN-GP: an inner tape watches the interpolated samples, its gradient w.r.t. the input feeds the critic loss (double backprop); separate generator tape (after the Keras WGAN-GP example)
import numpy as np
import tensorflow as tf
from tensorflow import keras

latent_dim, data_dim, batch_size = 3, 5, 8
gp_weight = 10.0
generator = keras.Sequential([keras.Input((latent_dim,)), keras.layers.Dense(8, activation="relu"), keras.layers.Dense(data_dim)])
critic = keras.Sequential([keras.Input((data_dim,)), keras.layers.Dense(8, activation="tanh"), keras.layers.Dense(1)])
d_optimizer = keras.optimizers.Adam(learning_rate=2e-4, beta_1=0.5, beta_2=0.9)
g_optimizer = keras.optimizers.Adam(learning_rate=2e-4, beta_1=0.5, beta_2=0.9)


def gradient_penalty(real_images, fake_images):
    alpha = tf.random.uniform([batch_size, 1], 0.0, 1.0)
    interpolated = real_images + alpha * (fake_images - real_images)
    with tf.GradientTape() as gp_tape:
        gp_tape.watch(interpolated)
        pred = critic(interpolated, training=True)
    grads = gp_tape.gradient(pred, [interpolated])[0]
    norm = tf.sqrt(tf.reduce_sum(tf.square(grads), axis=[1]) + 1e-12)
    return tf.reduce_mean((norm - 1.0) ** 2)


real_images = tf.constant(np.random.randn(batch_size, data_dim).astype("float32"))

random_latent_vectors = tf.random.normal(shape=(batch_size, latent_dim))
with tf.GradientTape() as tape:
    fake_images = generator(random_latent_vectors, training=True)
    fake_logits = critic(fake_images, training=True)
    real_logits = critic(real_images, training=True)
    d_cost = tf.reduce_mean(fake_logits) - tf.reduce_mean(real_logits)
    gp = gradient_penalty(real_images, fake_images)
    d_loss = d_cost + gp * gp_weight
d_gradient = tape.gradient(d_loss, critic.trainable_variables)
d_optimizer.apply_gradients(zip(d_gradient, critic.trainable_variables))

random_latent_vectors = tf.random.normal(shape=(batch_size, latent_dim))
with tf.GradientTape() as tape:
    generated_images = generator(random_latent_vectors, training=True)
    g_loss = -tf.reduce_mean(critic(generated_images, training=True))
gen_gradient = tape.gradient(g_loss, generator.trainable_variables)
g_optimizer.apply_gradients(zip(gen_gradient, generator.trainable_variables))
print("d_loss", d_loss.numpy(), "g_loss", g_loss.numpy())
