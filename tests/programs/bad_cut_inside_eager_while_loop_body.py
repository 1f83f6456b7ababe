# expect: GG201@10
# tensorflow: none
# fixed: ok
# shape: the eager twin of ok_cut_inside_traced_while_loop_body_gives_zeros: without `tf.function` the loop runs in Python, and `tf.stop_gradient` in its body leaves `w` with no gradient (generator family)
import tensorflow as tf

w = tf.Variable(tf.ones((3, 1)) * 0.5)
x = tf.ones((4, 3))
with tf.GradientTape() as tape:
    looped = tf.while_loop(lambda i, t: i < 2, lambda i, t: (i + 1, tf.stop_gradient(t)), (tf.constant(0), x @ w))[1]
    loss = tf.reduce_mean(looped)
grads = tape.gradient(loss, w)
