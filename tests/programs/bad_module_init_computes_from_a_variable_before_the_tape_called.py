# expect: GG301@12
# tensorflow: none
# fixed: nofix
# shape: the module of bad_module_init_computes_from_a_variable_before_the_tape.py called as `module(x)` (its `__call__`): the tensor its `__init__` computed before the tape is unrecorded, whichever way the instance is called
import tensorflow as tf


class Scaled(tf.Module):
    def __init__(self, log_scale):
        super().__init__()
        self.log_scale = log_scale
        self.scale = tf.exp(log_scale)

    def __call__(self, x):
        return tf.reduce_sum(self.scale * x)


log_scale = tf.Variable(tf.zeros(3))
module = Scaled(log_scale)
with tf.GradientTape() as tape:
    loss = module(tf.ones(3))
grad = tape.gradient(loss, log_scale)
