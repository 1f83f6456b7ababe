# expect: none
# tensorflow: ok
# shape: the fix of the ImagePaste GAN program: the layer no longer paints a `tf.Variable` canvas at integer corners but builds the square as a soft mask, a product of sigmoids of the pixel coordinates' distance to the four corners (`sharpness` sets how hard the edges are), so the canvas is a differentiable function of the generator's corners and `train_on_batch` trains every generator variable (the discriminator is frozen)
# source: https://github.com/tensorflow/tensorflow/issues/42244
# family: 3
# heldout: 3
import numpy as np
import tensorflow as tf
import keras

canvas_size = 8


class ImagePaste(keras.layers.Layer):
    """Turns a (top-left, bottom-right) box into a canvas with that square painted black."""

    def __init__(self, sharpness=20.0, **kwargs):
        super().__init__(**kwargs)
        self.sharpness = sharpness

    def call(self, input_data, t_val=255):
        positions = tf.reshape(input_data, [-1, 2, 2]) * (canvas_size - 1)
        grid = tf.range(canvas_size, dtype=tf.float32)
        x1, y1 = positions[:, 0, 0:1], positions[:, 0, 1:2]
        x2, y2 = positions[:, 1, 0:1], positions[:, 1, 1:2]
        rows = tf.sigmoid(self.sharpness * (grid - x1 + 0.5)) * tf.sigmoid(self.sharpness * (x2 - grid + 0.5))
        cols = tf.sigmoid(self.sharpness * (grid - y1 + 0.5)) * tf.sigmoid(self.sharpness * (y2 - grid + 0.5))
        square = rows[:, :, None] * cols[:, None, :]
        canvas = 1.0 - square
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
