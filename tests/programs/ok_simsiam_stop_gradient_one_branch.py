# expect: none
# tensorflow: ok
# shape: SimSiam: tf.stop_gradient on the trained encoder's own projection in one branch; the predictor branch still carries the encoder's gradient (after the Keras SimSiam example)
import numpy as np
import tensorflow as tf
from tensorflow import keras

encoder = keras.Sequential([keras.Input((8,)), keras.layers.Dense(16, activation="relu"), keras.layers.Dense(6)], name="encoder")
predictor = keras.Sequential([keras.Input((6,)), keras.layers.Dense(4, activation="relu"), keras.layers.Dense(6)], name="predictor")
optimizer = keras.optimizers.SGD(learning_rate=0.05, momentum=0.9)


def compute_loss(p, z):
    z = tf.stop_gradient(z)
    p = tf.math.l2_normalize(p, axis=1)
    z = tf.math.l2_normalize(z, axis=1)
    return -tf.reduce_mean(tf.reduce_sum((p * z), axis=1))


images = np.random.rand(8, 8).astype(np.float32)
ds_one = images + np.random.normal(scale=0.1, size=images.shape).astype(np.float32)
ds_two = np.flip(images, axis=1).copy()

with tf.GradientTape() as tape:
    z1, z2 = encoder(ds_one), encoder(ds_two)
    p1, p2 = predictor(z1), predictor(z2)
    loss = compute_loss(p1, z2) / 2 + compute_loss(p2, z1) / 2
learnable_params = encoder.trainable_variables + predictor.trainable_variables
gradients = tape.gradient(loss, learnable_params)
optimizer.apply_gradients(zip(gradients, learnable_params))
print("simsiam loss", loss.numpy())
