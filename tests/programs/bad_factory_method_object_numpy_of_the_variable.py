# expect: GG101@19
# tensorflow: none
# fixed: ok
# shape: a method builds and returns an object of a class defined in it, whose method reads `trainer.w.numpy()`; the loss computed through that object inside the tape gets no gradient for `self.w`. The returned object held nothing the analysis knew, and the finding was "the loss never uses `self.w`" instead of the `.numpy()` that cuts it
# family: 2
import tensorflow as tf


class Trainer:
    def __init__(self):
        self.w = tf.Variable(2.0)
        self.optimizer = tf.keras.optimizers.SGD(0.1)

    def make_head(self):
        trainer = self

        class Head:
            def apply(self, x):
                return x * trainer.w.numpy()

        return Head()

    def step(self, x):
        head = self.make_head()
        with tf.GradientTape() as tape:
            loss = tf.square(head.apply(x) - 1.0)
        grads = tape.gradient(loss, [self.w])
        self.optimizer.apply_gradients(zip(grads, [self.w]))


Trainer().step(tf.constant(3.0))
