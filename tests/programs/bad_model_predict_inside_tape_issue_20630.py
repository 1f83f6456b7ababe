# expect: GG105@30
# tensorflow: none
# fixed: ok
# source: https://github.com/tensorflow/tensorflow/issues/20630
# shape: subclassed Keras model whose loss is built from model.predict(x) (a NumPy array) inside the tape
# heldout: 6
import tensorflow as tf
from tensorflow import keras

n = 10
x = tf.random.normal([n, 2])
noise = tf.random.normal([n, 2])
y = x * 3 + 2 + noise


class Model(keras.Model):
    def __init__(self):
        super().__init__()
        self.dense1 = keras.layers.Dense(units=1, activation="relu")

    def call(self, inputs):
        return self.dense1(inputs)


optimizer = keras.optimizers.SGD(learning_rate=0.01)
model = Model()
model(x)  # create the weights

with tf.GradientTape() as tape:
    error = model.predict(x, verbose=0) - y
    loss_value = tf.reduce_mean(tf.square(error))
grads = tape.gradient(loss_value, model.trainable_variables)
