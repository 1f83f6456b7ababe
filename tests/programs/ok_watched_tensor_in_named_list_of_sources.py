# expect: none
# tensorflow: ok
# shape: the sources a list bound to a name before the tape (`params = [w]`), `w` a tensor watched inside it: a list of sources whose elements may be watched, not an unwatched plain tensor (generator family, shrunk from bench/oracle.py seed 7 program 271)
import tensorflow as tf

w = tf.random.normal((3, 1))
x = tf.ones((4, 3))
params = [w]
with tf.GradientTape() as tape:
    tape.watch(w)
    loss = tf.reduce_mean(tf.matmul(x, w))
grads = tape.gradient(loss, params)
