# expect: GG403@26
# tensorflow: none
# fixed: nofix
# shape: a GAN whose generator outputs box corners, turned into an image by a weightless custom layer `ImagePaste` between the generator and a frozen discriminator (`gan = Sequential([generator, ImagePaste(), discriminator])`, `train_on_batch`); the layer creates a `tf.Variable` canvas and paints the square with `assign` at corners cast to int32, so the output does not depend on the generator and `train_on_batch` raises "No gradients provided for any variable" for every generator variable
# source: https://github.com/tensorflow/tensorflow/issues/42244
# family: 3
# gap: gradguard is silent: it follows the layer through `keras.Sequential` and `train_on_batch` (when `call` returns a value computed from `corners` it reports GG403 at this cast), but here the cast value only gives the slice bounds of `canvas[b, x1:x2 + 1, y1:y2 + 1].assign(tf.zeros(...))` on a `tf.Variable` created inside `call` from `tf.ones`, and `call` returns that canvas, which (I think) it treats as a value with no history rather than as the only way the input reaches the output (the same layer called directly under a tape is missed too); it would need to see that a layer whose output is built from a fresh Variable written only through integer indices drops the input's gradient, and point at the cast that turns the input into those indices
# heldout: 3
import numpy as np
import tensorflow as tf
import keras

canvas_size = 8


class ImagePaste(keras.layers.Layer):
    """Turns a (top-left, bottom-right) box into a canvas with that square painted black."""

    def build(self, input_shape):
        self.batch_s = input_shape[0]

    def call(self, input_data, t_val=255):
        positions = tf.convert_to_tensor(input_data)
        positions = tf.reshape(positions, [-1, 2, 2])
        canvas = tf.Variable(tf.ones([self.batch_s, canvas_size, canvas_size]))
        corners = tf.cast(positions * (canvas_size - 1), tf.int32)
        for b in range(self.batch_s):
            x1, y1 = corners[b, 0, 0], corners[b, 0, 1]
            x2, y2 = corners[b, 1, 0], corners[b, 1, 1]
            canvas[b, x1:x2 + 1, y1:y2 + 1].assign(tf.zeros([x2 - x1 + 1, y2 - y1 + 1]))
        return tf.reshape(canvas * t_val / 255.0, [-1, canvas_size * canvas_size])

    def compute_output_shape(self, input_shape):
        return (input_shape[0], canvas_size * canvas_size)


batch_size = 4
generator = keras.Sequential([keras.Input(shape=(6,), batch_size=batch_size), keras.layers.Dense(8, activation="relu"), keras.layers.Dense(4, activation="sigmoid")])
discriminator = keras.Sequential([keras.Input(shape=(canvas_size * canvas_size,)), keras.layers.Dense(8, activation="relu"), keras.layers.Dense(1, activation="sigmoid")])
discriminator.compile(optimizer="adam", loss="binary_crossentropy")
discriminator.trainable = False

gan = keras.Sequential([generator, ImagePaste(), discriminator])
gan.compile(optimizer="adam", loss="binary_crossentropy")
noise = np.random.rand(batch_size, 6).astype(np.float32)
gan.train_on_batch(noise, np.ones((batch_size, 1), dtype=np.float32))
