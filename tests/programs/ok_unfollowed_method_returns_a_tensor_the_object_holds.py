# expect: none
# tensorflow: ok
# shape: an object holds a tensor computed from the variable `w` (`Box(h)`, `self.value = value`), and a method that is not followed (it reads `self`) returns another object whose method returns that tensor (`Box(h).wrap().read()`); the loss inside the tape reaches `w`. An unfollowed method was taken to use the models and variables its object holds, not its tensors: a false GG302
# family: 6
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
    loss = tf.square(Box(h).wrap().read() - 1.0)
grads = tape.gradient(loss, [w])
optimizer.apply_gradients(zip(grads, [w]))
