# expect: none
# tensorflow: ok
# shape: a Keras layer whose `__init__` makes a local weight and stores a lambda that captures it (`w = self.add_weight(...)`; `self.fn = lambda x: x * w`), called by `call`: a false GG303, as for `self.w`
# family: 3
import tensorflow as tf

class Scale(tf.keras.layers.Layer):
    def __init__(self):
        super().__init__()
        w = self.add_weight(shape=(), initializer="ones")
        self.fn = lambda x: x * w

    def call(self, x):
        return self.fn(x)

layer = Scale()
opt = tf.keras.optimizers.SGD(0.1)
x = tf.constant(3.0)
with tf.GradientTape() as tape:
    loss = layer(x) ** 2
grads = tape.gradient(loss, layer.trainable_variables)
