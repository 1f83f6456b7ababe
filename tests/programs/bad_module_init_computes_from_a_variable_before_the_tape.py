# expect: GG301@12
# tensorflow: none
# fixed: nofix
# shape: a tf.Module whose `__init__` computes a tensor from the variable it is given (`self.scale = tf.exp(log_scale)`), built before the tape: its method returns a product with that tensor, recorded by no tape, so the variable's gradient is None (the family of issue 37's "a tf.Module computing from a variable in __init__")
import tensorflow as tf


class Scaled(tf.Module):
    def __init__(self, log_scale):
        super().__init__()
        self.log_scale = log_scale
        self.scale = tf.exp(log_scale)

    def apply(self, x):
        return tf.reduce_sum(self.scale * x)


log_scale = tf.Variable(tf.zeros(3))
module = Scaled(log_scale)
with tf.GradientTape() as tape:
    loss = module.apply(tf.ones(3))
grad = tape.gradient(loss, log_scale)
