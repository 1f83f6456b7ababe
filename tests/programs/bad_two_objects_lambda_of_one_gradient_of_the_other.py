# expect: GG302@18
# tensorflow: none
# shape: two objects of a plain class whose `__init__` stores a lambda reading `self.w`; the loss uses `a.act(x)` but asks for `b.w`, which it never uses
# family: 1
import tensorflow as tf

class Head:
    def __init__(self, scale):
        self.w = tf.Variable(scale)
        self.act = lambda x: x * self.w

a = Head(2.0)
b = Head(3.0)
opt = tf.keras.optimizers.SGD(0.1)
x = tf.constant(3.0)
with tf.GradientTape() as tape:
    loss = a.act(x) ** 2
grads = tape.gradient(loss, [b.w])
