# expect: none
# tensorflow: ok
# shape: persistent=True tape asked twice (encoder and decoder updated with different losses), then del tape (after an autoencoder Q&A)
import numpy as np
import tensorflow as tf

encoder = tf.keras.Sequential([tf.keras.Input((10,)), tf.keras.layers.Dense(4, activation="relu")])
decoder = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(10)])
enc_opt = tf.keras.optimizers.Adam(1e-3)
dec_opt = tf.keras.optimizers.Adam(1e-3)

x = np.random.rand(8, 10).astype(np.float32)

with tf.GradientTape(persistent=True) as tape:
    z = encoder(x, training=True)
    x_hat = decoder(z, training=True)
    recon = tf.reduce_mean(tf.square(x - x_hat))
    sparsity = tf.reduce_mean(tf.abs(z))
    enc_loss = recon + 1e-3 * sparsity

enc_grads = tape.gradient(enc_loss, encoder.trainable_variables)
dec_grads = tape.gradient(recon, decoder.trainable_variables)
del tape
enc_opt.apply_gradients(zip(enc_grads, encoder.trainable_variables))
dec_opt.apply_gradients(zip(dec_grads, decoder.trainable_variables))
print("recon", recon.numpy())
