# expect: none
# tensorflow: ok
# shape: tensors watched one by one in a loop over a list, then differentiated as the list (after keras-team/keras keras/src/layers/core/dense_test.py, which watches and differentiates layer variables and inputs)
import tensorflow as tf

layer = tf.keras.layers.Dense(2)
inputs = [tf.constant([[1.0, 2.0]]), tf.constant([[3.0, 4.0]])]
layer(inputs[0])

with tf.GradientTape() as tape:
    for tensor in inputs:
        tape.watch(tensor)
    total = tf.reduce_sum(layer(inputs[0]) + layer(inputs[1]))
input_grads = tape.gradient(total, inputs)

a, b = tf.constant(1.0), tf.constant(2.0)
with tf.GradientTape() as tape:
    tape.watch([a, b])
    product = a * b
ab_grads = tape.gradient(product, [a, b])
