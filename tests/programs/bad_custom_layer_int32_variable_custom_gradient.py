# expect: GG306@15
# tensorflow: none
# fixed: nofix
# shape: custom Layer whose add_variable(dtype=tf.int32) weight is used through a tf.custom_gradient op that casts it to float; the custom gradient is computed but an integer variable never receives one ("No gradients provided")
# source: https://github.com/tensorflow/tensorflow/issues/73631
# family: 3
import numpy as np
import tensorflow as tf
import keras


class TestLayer(keras.layers.Layer):
    def build(self, input_shape):
        # dtype is the problem: an integer variable cannot be trained
        self.var = self.add_variable((1,), initializer="zeros", dtype=tf.int32)

    @staticmethod
    @tf.custom_gradient
    def op(input, var):
        def grad(upstream, variables=None):
            return tf.squeeze(upstream * tf.cast(var, tf.float32), axis=[1]), \
                tf.squeeze(upstream * tf.cast(input, tf.float32), axis=[1])

        return tf.cast(input, tf.float32) * tf.cast(var, tf.float32), grad

    def call(self, input):
        return TestLayer.op(input, self.var)


input_layer = keras.Input((1,), name="input_layer", dtype=tf.int32)
test_layer = TestLayer()
output = test_layer(input_layer)
model = keras.Model(inputs=[input_layer], outputs=[output], name="model")
model.compile(optimizer="sgd", loss="mse", run_eagerly=True)

values = np.arange(8).reshape(-1, 1).astype(np.int32)
model.fit(values, 3.0 * values.astype(np.float32), batch_size=8, epochs=1, verbose=0)
