# expect: GG302@21
# tensorflow: none
# fixed: nofix
# shape: a helper class defined inside a method, whose own method names its receiver `head` and computes with a constant instead of the outer `self.w`: the loss computed through it never uses `self.w`, and its gradient is None (the counterpart of ok_class_in_a_method_reads_the_outer_self.py)
# family: 6
import tensorflow as tf


class Trainer:
    def __init__(self):
        self.w = tf.Variable(2.0)
        self.optimizer = tf.keras.optimizers.SGD(0.1)

    def step(self, x):
        class Head:
            def apply(head, x):
                return x * 2.0

        with tf.GradientTape() as tape:
            loss = tf.square(Head().apply(x) - 1.0)
        grads = tape.gradient(loss, [self.w])
        self.optimizer.apply_gradients(zip(grads, [self.w]))


Trainer().step(tf.constant(3.0))
