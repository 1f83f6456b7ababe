# expect: GG103@19
# tensorflow: none
# fixed: ok
# shape: a helper class defined inside a method of a plain class; its method reads the outer method's `self.w` through an alias (`outer = self`) and converts it with `float()`, so the loss computed through the method inside the tape gets no gradient for `self.w`. The alias held nothing the analysis knew, and the finding was "the loss never uses `self.w`" instead of the `float()` that cuts it
# family: 2
import tensorflow as tf


class Trainer:
    def __init__(self):
        self.w = tf.Variable(2.0)
        self.optimizer = tf.keras.optimizers.SGD(0.1)

    def step(self, x):
        outer = self

        class Head:
            def apply(self, x):
                return x * float(outer.w)

        head = Head()
        with tf.GradientTape() as tape:
            loss = tf.square(head.apply(x) - 1.0)
        grads = tape.gradient(loss, [self.w])
        self.optimizer.apply_gradients(zip(grads, [self.w]))


Trainer().step(tf.constant(3.0))
