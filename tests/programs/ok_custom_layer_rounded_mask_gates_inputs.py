# expect: none
# tensorflow: ok
# shape: custom layer that rounds a sigmoid gate to a hard 0/1 mask and multiplies its input by it: the mask has no gradient, the product still carries the input's and the kernel's
# family: 3
import tensorflow as tf
import keras


class HardGate(keras.layers.Layer):
    def build(self, input_shape):
        self.kernel = self.add_weight(shape=(input_shape[-1], input_shape[-1]), initializer="glorot_uniform")

    def call(self, inputs):
        projected = tf.matmul(inputs, self.kernel)
        mask = tf.round(tf.sigmoid(projected))
        return projected * mask + inputs


model = keras.Sequential([keras.Input(shape=(4,)), keras.layers.Dense(4), HardGate(), keras.layers.Dense(1)])
optimizer = keras.optimizers.SGD(0.05)
x = tf.random.normal((8, 4))
y = tf.random.normal((8, 1))

with tf.GradientTape() as tape:
    loss = tf.reduce_mean(tf.square(y - model(x, training=True)))
gradients = tape.gradient(loss, model.trainable_variables)
optimizer.apply_gradients(zip(gradients, model.trainable_variables))
