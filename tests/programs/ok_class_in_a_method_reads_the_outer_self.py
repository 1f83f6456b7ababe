# expect: none
# tensorflow: ok
# shape: a helper class defined inside a method, whose own method names its receiver `head` and reads the outer method's `self.w` (a closure); the loss computed through it inside the tape reaches `self.w`. `self.w` there was looked up on the helper class, and the unfollowed call read nothing of the outer `self`: a false GG302
# family: 6
import tensorflow as tf


class Trainer:
    def __init__(self):
        self.w = tf.Variable(2.0)
        self.optimizer = tf.keras.optimizers.SGD(0.1)

    def step(self, x):
        class Head:
            def apply(head, x):
                return x * self.w

        with tf.GradientTape() as tape:
            loss = tf.square(Head().apply(x) - 1.0)
        grads = tape.gradient(loss, [self.w])
        self.optimizer.apply_gradients(zip(grads, [self.w]))


Trainer().step(tf.constant(3.0))
