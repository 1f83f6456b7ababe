# expect: GG201@12
# tensorflow: none
# fixed: ok
# shape: the sources a list bound before the tape (`params = [w]`), `w` a tensor watched inside it whose only path to the loss is wrapped in `tf.stop_gradient`: the name still holds that tensor, so the list's element is the watched `w` and the cut is reported (generator family, shrunk from bench/oracle.py seed 20261202 program 778)
import tensorflow as tf

w = tf.random.normal((3, 1))
x = tf.ones((4, 3))
params = [w]
with tf.GradientTape() as tape:
    tape.watch(w)
    h = tf.stop_gradient(tf.matmul(x, w))
    loss = tf.reduce_mean(h * 2.0)
grads = tape.gradient(loss, params)
