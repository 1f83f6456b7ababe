# expect: GG306@27
# tensorflow: none
# fixed: ok
# shape: WGAN-GP gradient penalty, interpolated images (plain tensors) differentiated without gp_tape.watch
import numpy as np
import tensorflow as tf
from tensorflow import keras

data_dim, batch_size = 6, 8

critic = keras.Sequential([
    keras.Input(shape=(data_dim,)),
    keras.layers.Dense(16, activation="relu"),
    keras.layers.Dense(1),
])
critic_optimizer = keras.optimizers.Adam(1e-4, beta_1=0.5, beta_2=0.9)
gp_weight = 10.0

real_images = tf.constant(np.random.rand(batch_size, data_dim), dtype=tf.float32)
fake_images = tf.random.normal((batch_size, data_dim))

with tf.GradientTape() as tape:
    alpha = tf.random.uniform((batch_size, 1), 0.0, 1.0)
    interpolated = real_images + alpha * (fake_images - real_images)
    with tf.GradientTape() as gp_tape:
        pred = critic(interpolated, training=True)
    grads = gp_tape.gradient(pred, interpolated)
    norm = tf.sqrt(tf.reduce_sum(tf.square(grads), axis=1))
    gradient_penalty = tf.reduce_mean((norm - 1.0) ** 2)
    critic_loss = (tf.reduce_mean(critic(fake_images, training=True))
                   - tf.reduce_mean(critic(real_images, training=True))
                   + gp_weight * gradient_penalty)
critic_grads = tape.gradient(critic_loss, critic.trainable_variables)
critic_optimizer.apply_gradients(zip(critic_grads, critic.trainable_variables))
