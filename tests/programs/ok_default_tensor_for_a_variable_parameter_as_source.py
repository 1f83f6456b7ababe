# expect: none
# tensorflow: ok
# shape: a parameter that defaults to a tensor made in the function (`if temperature is None: temperature = tf.constant(1.0)`) is given a tf.Variable by its caller and differentiated: it may be the variable, so it is no plain tensor to watch (after tensorflow/privacy's DP optimizer, whose `var_list` is filled the same way)
import tensorflow as tf

w = tf.Variable([0.5, -0.3])
temperature = tf.Variable(2.0)
logits = tf.constant([[1.0, 2.0], [3.0, 4.0]])


def temperature_gradient(logits, temperature=None):
    if temperature is None:
        temperature = tf.constant(1.0)
    with tf.GradientTape() as tape:
        probabilities = tf.nn.softmax(logits * w / temperature)
        loss = -tf.reduce_sum(probabilities[:, 0])
    return tape.gradient(loss, temperature)


grad = temperature_gradient(logits, temperature)
