# expect: GG405@34
# tensorflow: raises LookupError
# fixed: nofix
# shape: augmentation layer with a trainable contrast factor applied through tf.image.adjust_contrast, first layer of a small image classifier; TensorFlow 2.21 registers no gradient for AdjustContrastv2 and tape.gradient raises
# source: https://github.com/tensorflow/tensorflow/issues/126083
# family: 4
import numpy as np
import tensorflow as tf
import keras


class LearnedContrast(keras.layers.Layer):
    def build(self, input_shape):
        self.factor = self.add_weight(shape=(), initializer="ones", name="factor")

    def call(self, images):
        return tf.image.adjust_contrast(images, self.factor)


model = keras.Sequential([
    keras.Input(shape=(8, 8, 3)),
    LearnedContrast(),
    keras.layers.Conv2D(4, 3, activation="relu"),
    keras.layers.GlobalAveragePooling2D(),
    keras.layers.Dense(2),
])
optimizer = keras.optimizers.Adam(1e-3)

images = np.random.rand(4, 8, 8, 3).astype(np.float32)
labels = np.array([0, 1, 0, 1])
loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True)

with tf.GradientTape() as tape:
    loss = loss_fn(labels, model(images, training=True))
grads = tape.gradient(loss, model.trainable_variables)
optimizer.apply_gradients(zip(grads, model.trainable_variables))
