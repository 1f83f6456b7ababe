# expect: none
# tensorflow: ok
# shape: a Keras layer of this file makes `self.w = self.add_weight(...)` in `build`; the loss inside the tape reads `layer.w` directly. An attribute of a layer that the analysis did not know was taken for nothing: a false GG302
# family: 3
import tensorflow as tf

class Scale(tf.keras.layers.Layer):
    def build(self, shape):
        self.w = self.add_weight(shape=(), initializer="ones")

    def call(self, x):
        return x * self.w

layer = Scale()
layer.build(())
opt = tf.keras.optimizers.SGD(0.1)
x = tf.constant(3.0)
with tf.GradientTape() as tape:
    loss = (x * layer.w) ** 2
grads = tape.gradient(loss, layer.trainable_variables)
opt.apply_gradients(zip(grads, layer.trainable_variables))
