# expect: none
# tensorflow: ok
# shape: super-resolution generator fed images blurred by a bicubic down/up resize, then upsampling its own output with tf.image.resize(method='bicubic') inside the tape; TF 1.0 raised LookupError (no gradient for ResizeBicubic), TF 2.21 has one
# source: https://github.com/tensorflow/tensorflow/issues/7641
# family: 4
import numpy as np
import tensorflow as tf
import keras

generator = keras.Sequential([
    keras.Input(shape=(16, 16, 3)),
    keras.layers.Conv2D(8, 3, padding="same", activation="relu"),
    keras.layers.Conv2D(3, 3, padding="same"),
])
optimizer = keras.optimizers.Adam(1e-4)

image_patches = np.random.rand(2, 32, 32, 3).astype(np.float32)
magnification = 2
image_patches_blurred = tf.image.resize(image_patches, [32 // magnification, 32 // magnification], method="bicubic")

with tf.GradientTape() as tape:
    G = generator(image_patches_blurred, training=True)
    G_up = tf.image.resize(G, [32, 32], method=tf.image.ResizeMethod.BICUBIC)
    G_loss = tf.reduce_mean(tf.square(G_up - image_patches))
generator_grads = tape.gradient(G_loss, generator.trainable_variables)
optimizer.apply_gradients(zip(generator_grads, generator.trainable_variables))
