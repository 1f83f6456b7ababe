# expect: GG302@14
# tensorflow: none
# fixed: nofix
# shape: the sources a list bound to a name before the tape (`params = [w, target_net]`), `w` a watched tensor the loss uses and `target_net` a variable it never uses: the gradient for `target_net` is None (generator family, shrunk from bench/oracle.py seed 7 program 98)
import tensorflow as tf

w = tf.random.normal((3, 1))
target_net = tf.Variable(tf.random.normal((3, 1)), name="target_net")
x = tf.ones((4, 3))
params = [w, target_net]
with tf.GradientTape() as tape:
    tape.watch(w)
    loss = tf.reduce_mean(tf.matmul(x, w))
grads = tape.gradient(loss, params)
