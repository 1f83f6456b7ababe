# expect: none
# tensorflow: ok
# shape: the thread's fix of the NoisyNet layer: the noise is drawn in build() but kernel = weight_mu + weight_sigma * weights_eps is computed in call(), so every weight gets a gradient
# source: https://github.com/tensorflow/tensorflow/issues/32729
# family: 3
import numpy as np
import tensorflow as tf
import keras


class NoisyDense(keras.layers.Layer):
    def __init__(self, units, std_init=0.5):
        super().__init__()
        self.units = units
        self.std_init = std_init

    def build(self, input_shape):
        in_dim = input_shape[-1]
        mu_range = 1 / np.sqrt(in_dim)
        mu_init = keras.initializers.RandomUniform(-mu_range, mu_range)
        sigma_init = keras.initializers.Constant(self.std_init / np.sqrt(self.units))
        self.weight_mu = self.add_weight(shape=(in_dim, self.units), initializer=mu_init, name="weight_mu")
        self.weight_sigma = self.add_weight(shape=(in_dim, self.units), initializer=sigma_init, name="weight_sigma")
        self.bias_mu = self.add_weight(shape=(self.units,), initializer=mu_init, name="bias_mu")
        self.bias_sigma = self.add_weight(shape=(self.units,), initializer=sigma_init, name="bias_sigma")
        self.weights_eps = tf.random.normal((in_dim, self.units))
        self.bias_eps = tf.random.normal((self.units,))

    def call(self, inputs):
        kernel = self.weight_mu + self.weight_sigma * self.weights_eps
        bias = self.bias_mu + self.bias_sigma * self.bias_eps
        return tf.matmul(inputs, kernel) + bias


model = keras.Sequential([
    keras.Input(shape=(4,)),
    keras.layers.Dense(16, activation="relu"),
    NoisyDense(3),
], name="basic_nstepTD")
optimizer = keras.optimizers.Adam(1e-3)
states = np.random.rand(8, 4).astype(np.float32)
targets = np.random.rand(8, 3).astype(np.float32)

with tf.GradientTape() as tape:
    q_values = model(states)
    loss = tf.reduce_mean(tf.square(targets - q_values))
grads = tape.gradient(loss, model.trainable_variables)
optimizer.apply_gradients(zip(grads, model.trainable_variables))
