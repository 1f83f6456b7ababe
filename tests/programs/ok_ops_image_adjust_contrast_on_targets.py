# expect: none
# tensorflow: ok
# shape: the same generator; tf.image.adjust_contrast is applied to the target images (data, before the tape) and the generated images get the same contrast stretch written with differentiable ops
# family: 4
import numpy as np
import tensorflow as tf
import keras

generator = keras.Sequential([
    keras.Input(shape=(8, 8, 3)),
    keras.layers.Conv2D(8, 3, padding="same", activation="relu"),
    keras.layers.Conv2D(3, 3, padding="same", activation="sigmoid"),
])
optimizer = keras.optimizers.Adam(1e-3)

images = np.random.rand(4, 8, 8, 3).astype(np.float32)
targets = tf.image.adjust_contrast(np.random.rand(4, 8, 8, 3).astype(np.float32), 1.5)


def contrast(x, factor):
    mean = tf.reduce_mean(x, axis=[1, 2], keepdims=True)
    return (x - mean) * factor + mean


@tf.function
def train_step(x, y):
    with tf.GradientTape() as tape:
        generated = generator(x, training=True)
        enhanced = contrast(generated, 1.5)
        loss = tf.reduce_mean(tf.abs(enhanced - y))
    grads = tape.gradient(loss, generator.trainable_variables)
    optimizer.apply_gradients(zip(grads, generator.trainable_variables))
    return loss


train_step(images, targets)
