# expect: none
# tensorflow: ok
# shape: the module of ok_module_init_computes_from_a_variable_inside_the_tape.py called as `module(x)` (its `__call__`) rather than by a method: the tensor its `__init__` computed under the tape travels with the instance either way
import tensorflow as tf


class Scaled(tf.Module):
    def __init__(self, log_scale):
        super().__init__()
        self.log_scale = log_scale
        self.scale = tf.exp(log_scale)

    def __call__(self, x):
        return tf.reduce_sum(self.scale * x)


log_scale = tf.Variable(tf.zeros(3))
with tf.GradientTape() as tape:
    module = Scaled(log_scale)
    loss = module(tf.ones(3))
grad = tape.gradient(loss, log_scale)
