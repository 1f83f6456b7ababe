# expect: none
# tensorflow: ok
# shape: `if not grads: raise` after `tape.gradient(..., unconnected_gradients=tf.UnconnectedGradients.ZERO)`: no gradient can be None, so the guard only tests that some variable was asked for (after tensorflow/privacy's fast gradient clipping)
import tensorflow as tf

dense = tf.keras.layers.Dense(2)
unused = tf.Variable(3.0)
x = tf.random.normal([4, 3])

with tf.GradientTape() as tape:
    loss = tf.reduce_sum(dense(x))
layer_vars = {"dense": dense.trainable_variables, "unused": [unused]}
grads = tape.gradient(loss, layer_vars, unconnected_gradients=tf.UnconnectedGradients.ZERO)
if not grads:
    raise ValueError("The gradient list cannot be empty.")
