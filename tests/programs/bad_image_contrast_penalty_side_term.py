# expect: GG405@25
# tensorflow: raises LookupError
# fixed: nofix
# shape: an image-to-image model whose loss adds a small penalty on the contrast-adjusted output: the reconstruction term has a gradient, but AdjustContrastv2 has none registered, so the whole tape.gradient call raises
# family: 4
import tensorflow as tf
import keras

model = keras.Sequential([
    keras.Input(shape=(8, 8, 3)),
    keras.layers.Conv2D(8, 3, padding="same", activation="relu"),
    keras.layers.Conv2D(3, 1, activation="sigmoid"),
])
optimizer = keras.optimizers.Adam(1e-3)
images = tf.random.uniform((2, 8, 8, 3))


def reconstruction(target, output):
    return tf.reduce_mean(tf.square(target - output))


with tf.GradientTape() as tape:
    output = model(images, training=True)
    loss = reconstruction(images, output)
    loss += 0.1 * tf.reduce_mean(tf.image.adjust_contrast(output, 2.0))
gradients = tape.gradient(loss, model.trainable_variables)
optimizer.apply_gradients(zip(gradients, model.trainable_variables))
