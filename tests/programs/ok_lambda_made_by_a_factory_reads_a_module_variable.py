# expect: none
# tensorflow: ok
# shape: a factory returns a lambda that reads its argument `k` and a module variable `w`, called at once inside the tape (`scaled(2.0)(x)`). The function a helper returns lost its node on the way back, so the call carried nothing: a false GG302 ("never uses `w`")
# family: 1
import tensorflow as tf

w = tf.Variable(2.0)


def scaled(k):
    return lambda t: t * k * w


x = tf.Variable(3.0)
with tf.GradientTape() as tape:
    y = scaled(2.0)(x)
grads = tape.gradient(y, [x, w])
