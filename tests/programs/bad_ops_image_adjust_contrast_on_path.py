# expect: GG405@25
# tensorflow: raises StagingError
# fixed: nofix
# shape: image-to-image generator whose output goes through tf.image.adjust_contrast before the pixel loss (AdjustContrastv2 has no registered gradient: the tape raises LookupError, which AutoGraph re-raises from the traced train_step as StagingError "in user code: ... LookupError: gradient registry has no entry for: AdjustContrastv2")
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
targets = np.random.rand(4, 8, 8, 3).astype(np.float32)


@tf.function
def train_step(x, y):
    with tf.GradientTape() as tape:
        generated = generator(x, training=True)
        enhanced = tf.image.adjust_contrast(generated, 1.5)
        loss = tf.reduce_mean(tf.abs(enhanced - y))
    grads = tape.gradient(loss, generator.trainable_variables)
    optimizer.apply_gradients(zip(grads, generator.trainable_variables))
    return loss


train_step(images, targets)
