# expect: none
# tensorflow: ok
# shape: a concrete-dropout port to TF2: a `keras.layers.Wrapper` subclass (`LossIgnored`) adds its own `p_logit` with `self.add_weight` in `build`, scales the wrapped Dense's inputs by the keep probability and adds a regulariser on it with `add_loss`; on TF 2.1 `fit` warned "Gradients do not exist for variables ['loss_ignored_3/p_logit:0', ...]"; it no longer reproduces: under TF 2.21 / Keras 3 the Wrapper tracks `p_logit` and every gradient is present, so a good tool stays silent
# source: https://github.com/tensorflow/tensorflow/issues/38607
# family: 3
# heldout: 3
import numpy as np
import tensorflow as tf
import keras


class LossIgnored(keras.layers.Wrapper):
    """A concrete-dropout style wrapper: the wrapped layer sees inputs scaled by a learned keep
    probability, and a regulariser on that probability is added with add_loss."""

    def __init__(self, layer, weight_regularizer=1e-4, **kwargs):
        super().__init__(layer, **kwargs)
        self.weight_regularizer = weight_regularizer

    def build(self, input_shape):
        if not self.layer.built:
            self.layer.build(input_shape)
        self.p_logit = self.add_weight(name="p_logit", shape=(1,), initializer="zeros", trainable=True)
        super().build(input_shape)

    def call(self, inputs):
        p = tf.nn.sigmoid(self.p_logit)
        self.add_loss(self.weight_regularizer * tf.reduce_sum(p * tf.math.log(p + 1e-7)))
        return self.layer(inputs * (1.0 - p))

    def compute_output_shape(self, input_shape):
        return self.layer.compute_output_shape(input_shape)


model = keras.Sequential([
    keras.Input(shape=(4,)),
    LossIgnored(keras.layers.Dense(8, activation="relu")),
    LossIgnored(keras.layers.Dense(1)),
])
model.compile(optimizer="adam", loss="mse")
model.fit(np.random.rand(16, 4).astype(np.float32), np.random.rand(16, 1).astype(np.float32), batch_size=8, epochs=1, verbose=0)
