# expect: none
# tensorflow: ok
# shape: a helper class defined inside a method of a plain class; its method reads the outer method's `self` through an alias (`outer = self`, then `outer.w`), and the loss computed through it inside the tape reaches `self.w`. A plain class's `self` was a value holding nothing, so `outer.w` depended on nothing and "the loss never uses `self.w`" was a false GG302
# family: 6
import tensorflow as tf


class Trainer:
    def __init__(self):
        self.w = tf.Variable(2.0)
        self.optimizer = tf.keras.optimizers.SGD(0.1)

    def step(self, x):
        outer = self

        class Head:
            def apply(self, x):
                return x * outer.w

        head = Head()
        with tf.GradientTape() as tape:
            loss = tf.square(head.apply(x) - 1.0)
        grads = tape.gradient(loss, [self.w])
        self.optimizer.apply_gradients(zip(grads, [self.w]))


Trainer().step(tf.constant(3.0))
