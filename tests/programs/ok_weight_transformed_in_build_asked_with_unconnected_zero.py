# expect: none
# tensorflow: raises AttributeError
# shape: a Layer normalises its weight once in build() and call uses the result, the GG303 bug, but the only gradient call asks unconnected_gradients=ZERO: no gradient is None there, so "its gradient is always None" would be false. TensorFlow 2.21 then fails making the zeros for a Keras 3 variable (`'str' object has no attribute '_type_enum'`: its dtype is a string), which no rule claims; the oracle's worker fills the zeros itself (from the oracle's `layer_flaw` dimension, gen_20261202_1460)
import tensorflow as tf
import keras


class UnitLinear(keras.layers.Layer):
    def build(self, input_shape):
        self.w = self.add_weight(shape=(input_shape[-1], 1), initializer="random_normal")
        self.kernel = tf.nn.l2_normalize(self.w, axis=0)

    def call(self, inputs):
        return tf.matmul(inputs, self.kernel)


layer = UnitLinear()
layer.build((None, 3))
x = tf.random.normal((4, 3))
with tf.GradientTape() as tape:
    loss = tf.reduce_mean(layer(x))
grads = tape.gradient(loss, layer.trainable_variables, unconnected_gradients="zero")
