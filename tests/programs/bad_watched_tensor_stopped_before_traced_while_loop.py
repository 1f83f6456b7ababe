# expect: GG201@15
# tensorflow: none
# fixed: ok
# shape: in a `tf.function`, a watched tensor's path is wrapped in `tf.stop_gradient` *before* it enters `tf.while_loop`: the loop is given a value the tape cannot differentiate, so the gradient is None (a cut inside the loop's body gives zeros instead: ok_cut_inside_traced_while_loop_body_gives_zeros.py) (generator family, shrunk from bench/oracle.py seed 20261202 programs 2171, 6329 and 7346)
import tensorflow as tf

w = tf.random.normal((3, 1))
x = tf.random.normal((4, 3))


@tf.function
def train_step(inputs):
    with tf.GradientTape() as tape:
        tape.watch(w)
        h = tf.stop_gradient(tf.matmul(inputs, w))
        looped = tf.while_loop(lambda i, t: i < 2, lambda i, t: (i + 1, t + 1.0), (tf.constant(0), h))[1]
        loss = tf.reduce_mean(looped)
    return tape.gradient(loss, [w])


grads = train_step(x)
