# expect: none
# tensorflow: ok
# shape: a cut inside the body of `tf.while_loop` (and `tf.map_fn`'s function) in a `tf.function`: the traced loop's gradient is defined for every input, so TensorFlow returns zeros, not None; gradguard claims no missing gradient there (the zeros are a silent bug it does not report yet) (generator family, shrunk from bench/oracle.py seed 20261202 programs 3081 and 1418)
import tensorflow as tf

w = tf.Variable(tf.ones((3, 1)) * 0.5)
x = tf.ones((4, 3))


@tf.function
def train_step(inputs):
    with tf.GradientTape() as tape:
        h = inputs @ w
        looped = tf.while_loop(lambda i, t: i < 2, lambda i, t: (i + 1, tf.stop_gradient(t)), (tf.constant(0), h))[1]
        mapped = tf.map_fn(lambda t: tf.cast(tf.cast(t, tf.int32), tf.float32), h)
        loss = tf.reduce_mean(looped) + tf.reduce_mean(mapped)
    return tape.gradient(loss, w)


grads = train_step(x)
