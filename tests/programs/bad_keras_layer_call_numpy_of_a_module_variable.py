# expect: GG101@14
# tensorflow: none
# fixed: ok
# shape: a Keras layer whose `call` multiplies by `w.numpy()`, `w` a variable of the module (not a weight of the layer): the loss computed by calling the layer inside the tape gets no gradient for `w`. The layer's output did not carry what `call` reads besides its input and weights, and the finding was "the loss never uses `w`" instead of the `.numpy()` that cuts it
# family: 2
import keras
import tensorflow as tf

w = tf.Variable(1.5)


class Scale(keras.layers.Layer):
    def call(self, x):
        return x * w.numpy()


scale = Scale()
optimizer = keras.optimizers.SGD(0.1)
x = tf.ones((2, 1))
with tf.GradientTape() as tape:
    loss = tf.reduce_sum(tf.square(scale(x) - 1.0))
grads = tape.gradient(loss, [w])
optimizer.apply_gradients(zip(grads, [w]))
