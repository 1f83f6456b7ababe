# expect: GG101@28
# tensorflow: none
# fixed: ok
# shape: an object holds a tensor made from `h.numpy()` (`Box(tf.constant(h.numpy()))`, `h` computed from the variable `w` in the tape), and a method that is not followed returns another object whose method returns it (`.wrap().read()`): the loss gets no gradient for `w`. What the object holds reached the unfollowed method's result without its cut, and the finding was "the loss never uses `w`" instead of the `.numpy()`
# family: 2
import tensorflow as tf

w = tf.Variable(1.5)
optimizer = tf.keras.optimizers.SGD(0.1)


class Box:
    def __init__(self, value):
        self.value = value

    def wrap(self):
        outer = self

        class Reader:
            def read(self):
                return outer.value

        return Reader()


with tf.GradientTape() as tape:
    h = w * 2.0
    loss = tf.square(Box(tf.constant(h.numpy())).wrap().read() - 1.0)
grads = tape.gradient(loss, [w])
optimizer.apply_gradients(zip(grads, [w]))
