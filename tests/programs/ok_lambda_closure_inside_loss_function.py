# expect: none
# tensorflow: ok
# shape: a lambda inside a loss function that closes over the function's local (`(lambda: h * h)()` in `compute_loss`): it reads the model output of that frame, not of the module (generator family, shrunk from bench/oracle.py seed 20261202 program 20)
import tensorflow as tf
import keras

model = keras.layers.Dense(1)
x = tf.ones((4, 3))


def compute_loss(inputs):
    h = model(inputs)
    squared = (lambda: h * h)()
    return tf.reduce_mean(squared)


with tf.GradientTape() as tape:
    loss = compute_loss(x)
grads = tape.gradient(loss, model.trainable_variables)
