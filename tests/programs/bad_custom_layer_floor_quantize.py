# expect: GG401@36
# tensorflow: none
# fixed: ok
# shape: custom quantizing Layer (add_weight kernel) that floors its outputs to 4 levels, last layer of the model
import numpy as np
import tensorflow as tf
import keras


class QuantizedDense(keras.layers.Layer):
    def __init__(self, units, levels=4, **kwargs):
        super().__init__(**kwargs)
        self.units = units
        self.levels = levels

    def build(self, input_shape):
        self.w = self.add_weight(shape=(input_shape[-1], self.units), initializer="random_normal", trainable=True)
        self.b = self.add_weight(shape=(self.units,), initializer="zeros", trainable=True)

    def call(self, inputs):
        outputs = tf.sigmoid(tf.matmul(inputs, self.w) + self.b)
        return tf.floor(outputs * self.levels) / self.levels


model = keras.Sequential([
    keras.Input(shape=(5,)),
    keras.layers.Dense(8, activation="relu"),
    QuantizedDense(2),
])
optimizer = keras.optimizers.SGD(0.1)

x = np.random.rand(8, 5).astype(np.float32)
y = np.random.rand(8, 2).astype(np.float32)

with tf.GradientTape() as tape:
    loss = tf.reduce_mean(tf.square(y - model(x, training=True)))
grads = tape.gradient(loss, model.trainable_variables)
optimizer.apply_gradients(zip(grads, model.trainable_variables))
