# expect: none
# tensorflow: ok
# shape: a `tf.Module` with a property computed from its variable (`g.std`, `tf.exp(self.log_std)`), read in the loss inside the tape: a false GG302 ("never uses `g`")
# family: 3
import tensorflow as tf

class Gauss(tf.Module):
    def __init__(self):
        super().__init__()
        self.log_std = tf.Variable(0.0)

    @property
    def std(self):
        return tf.exp(self.log_std)

g = Gauss()
x = tf.constant(3.0)
with tf.GradientTape() as tape:
    loss = (x / g.std) ** 2
grads = tape.gradient(loss, g.trainable_variables)
