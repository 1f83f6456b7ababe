# expect: GG107@35
# tensorflow: none
# fixed: nofix
# shape: FGSM on a Sequential whose first layer filters the input with a numpy function through tf.numpy_function (tf.py_func in TF1); the gradient of the loss with respect to the watched input is None
# source: https://github.com/cleverhans-lab/cleverhans/issues/432
# family: 3
import numpy as np
import tensorflow as tf
import keras


class MyLayer(keras.layers.Layer):
    def call(self, X):
        def __function(X):
            return np.sinh(X).astype(np.float32)

        return tf.reshape(tf.numpy_function(__function, [X], tf.float32), (-1, *X.shape[1:]))

    def compute_output_shape(self, input_shape):
        return input_shape


kerasmodel = keras.Sequential([
    keras.Input(shape=(4,)),
    MyLayer(),
    keras.layers.Dense(10),
    keras.layers.Activation("softmax"),
])

x = tf.constant(np.random.rand(8, 4).astype(np.float32))
labels = tf.one_hot(np.random.randint(0, 10, size=8), 10)

with tf.GradientTape() as tape:
    tape.watch(x)
    probs = kerasmodel(x)
    loss = keras.losses.categorical_crossentropy(labels, probs)
gradient = tape.gradient(loss, x)
adversarial = x + 0.1 * tf.sign(gradient)
