# expect: none
# tensorflow: ok
# shape: variables read only inside the functions given to `tf.map_fn`, `tf.while_loop`, `tf.scan` and builtin `map`: the library calls them, every gradient present (issue 22, point 4; generator family)
import tensorflow as tf

w = tf.Variable(2.0)
b = tf.Variable(0.5)
s = tf.Variable(1.5)
u = tf.Variable(3.0)
x = tf.ones((4, 2))
with tf.GradientTape() as tape:
    rows = tf.map_fn(lambda r: r * w, x)
    _, grown = tf.while_loop(lambda i, t: i < 2, lambda i, t: (i + 1, t + b), (tf.constant(0), x))
    running = tf.scan(lambda acc, r: acc + r * s, x)
    mapped = list(map(lambda t: t * u, [x]))[0]
    loss = tf.reduce_sum(rows) + tf.reduce_sum(grown) + tf.reduce_sum(running) + tf.reduce_sum(mapped)
grads = tape.gradient(loss, [w, b, s, u])
