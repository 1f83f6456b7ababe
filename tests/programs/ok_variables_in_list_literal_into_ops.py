# expect: none
# tensorflow: ok
# shape: variables written in a list given to TF ops and builtins (`tf.stack([v1, v2])`, `tf.add_n`, `sum`, `tf.reduce_sum([...])`): each reads both, every gradient present (generator family, issue 21's table; shrunk from bench/oracle.py programs)
import tensorflow as tf

v1 = tf.Variable(1.0)
v2 = tf.Variable(2.0)
with tf.GradientTape(persistent=True) as tape:
    stacked = tf.reduce_sum(tf.stack([v1, v2]))
    added = tf.add_n([v1, v2])
    summed = sum([v1, v2])
    reduced = tf.reduce_sum([v1, v2])
for loss in (stacked, added, summed, reduced):
    grads = tape.gradient(loss, [v1, v2])
del tape
