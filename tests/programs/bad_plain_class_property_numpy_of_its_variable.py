# expect: GG101@14
# tensorflow: none
# fixed: ok
# shape: a plain class whose property leaves TensorFlow (`tf.exp(self.log_std.numpy())`), read as `g.std` in the loss inside the tape: no gradient for `g.log_std`
# family: 2
# gap: gradguard is silent: a property or method of a plain-class object that reads `self` is not followed (what it reads of the object is an opaque dependence, so it proves no break); following it needs the class's `self.X` mapped onto the object's fields, with every attribute another method rebinds taken as unknown. Before the property was an opaque read, the finding was "never uses `g.log_std`", right by chance
import tensorflow as tf

class Gauss:
    def __init__(self):
        self.log_std = tf.Variable(0.0)

    @property
    def std(self):
        return tf.exp(self.log_std.numpy())

g = Gauss()
x = tf.constant(3.0)
with tf.GradientTape() as tape:
    loss = (x / g.std) ** 2
grads = tape.gradient(loss, [g.log_std])
