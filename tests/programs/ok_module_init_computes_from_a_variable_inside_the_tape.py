# expect: none
# tensorflow: ok
# shape: the same tf.Module built inside the tape: `__init__`'s `tf.exp(log_scale)` runs under the tape, which records it, so the variable gets its gradient (the false "never uses" of issue 37's list: the constructor's arguments were dropped)
import tensorflow as tf


class Scaled(tf.Module):
    def __init__(self, log_scale):
        super().__init__()
        self.log_scale = log_scale
        self.scale = tf.exp(log_scale)

    def apply(self, x):
        return tf.reduce_sum(self.scale * x)


log_scale = tf.Variable(tf.zeros(3))
with tf.GradientTape() as tape:
    module = Scaled(log_scale)
    loss = module.apply(tf.ones(3))
grad = tape.gradient(loss, log_scale)
