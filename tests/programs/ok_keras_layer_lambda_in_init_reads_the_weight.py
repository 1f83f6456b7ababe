# expect: none
# tensorflow: ok
# shape: a Keras layer whose `__init__` stores a lambda reading its weight (`self.fn = lambda x: x * self.w`) and whose `call` calls it. GG303 took the read inside the lambda for `__init__` reading the weight once: a false "only `__init__` reads it"
# family: 3
import tensorflow as tf

class Scale(tf.keras.layers.Layer):
    def __init__(self):
        super().__init__()
        self.w = self.add_weight(shape=(), initializer="ones")
        self.fn = lambda x: x * self.w

    def call(self, x):
        return self.fn(x)

layer = Scale()
opt = tf.keras.optimizers.SGD(0.1)
x = tf.constant(3.0)
with tf.GradientTape() as tape:
    loss = layer(x) ** 2
grads = tape.gradient(loss, layer.trainable_variables)
