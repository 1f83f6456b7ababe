# expect: none
# tensorflow: ok
# source: https://github.com/tensorflow/tensorflow/issues/20630
# shape: subclassed Keras model called directly, model(x), inside the tape (the fix from the thread)
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
    error = model(x) - y
    loss_value = tf.reduce_mean(tf.square(error))
grads = tape.gradient(loss_value, model.trainable_variables)
