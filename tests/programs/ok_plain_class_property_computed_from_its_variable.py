# expect: none
# tensorflow: ok
# shape: a plain class with a property computed from its variable (`@property def std(self): return tf.exp(self.log_std)`), read as `g.std` in the loss inside the tape. An attribute of an object that its `__init__` did not set was taken for nothing: a false GG302
# family: 2
import tensorflow as tf

class Gauss:
    def __init__(self):
        self.log_std = tf.Variable(0.0)

    @property
    def std(self):
        return tf.exp(self.log_std)

g = Gauss()
x = tf.constant(3.0)
with tf.GradientTape() as tape:
    loss = (x / g.std) ** 2
grads = tape.gradient(loss, [g.log_std])
