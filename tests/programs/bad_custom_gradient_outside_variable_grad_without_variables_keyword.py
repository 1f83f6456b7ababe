# expect: GG314@20
# tensorflow: raises TypeError
# fixed: nofix
# shape: a @tf.custom_gradient function multiplies its input by a variable created outside it (`outside`), and its grad(dy) takes no `variables` keyword: recorded by a GradientTape, TensorFlow raises "grad_fn must accept keyword argument 'variables', since function uses variables" when the tape asks for the gradients
# source: https://github.com/tensorflow/tensorflow/issues/31945
# heldout: 4
import numpy as np
import tensorflow as tf
import keras

outside = tf.Variable(2.0, name="outside")
dense = keras.layers.Dense(1)
optimizer = keras.optimizers.SGD(0.1)


@tf.custom_gradient
def scaled(x):
    y = x * outside

    def grad(dy):
        return dy * outside

    return y, grad


features = np.random.rand(4, 3).astype(np.float32)
targets = np.random.rand(4, 1).astype(np.float32)
with tf.GradientTape() as tape:
    prediction = scaled(dense(features))
    loss = tf.reduce_mean(tf.square(prediction - targets))
variables = dense.trainable_variables + [outside]
grads = tape.gradient(loss, variables)
optimizer.apply_gradients(zip(grads, variables))
