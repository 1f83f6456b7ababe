# expect: none
# tensorflow: ok
# shape: a method builds and returns an object of a class defined in it (`def make_head(self): trainer = self; class Head: ...; return Head()`), whose method reads `trainer.w`; the loss computed through that object inside the tape reaches `self.w`. The object a followed method returned was a value holding nothing, so its method call depended on nothing: a false GG302
# family: 6
import tensorflow as tf


class Trainer:
    def __init__(self):
        self.w = tf.Variable(2.0)
        self.optimizer = tf.keras.optimizers.SGD(0.1)

    def make_head(self):
        trainer = self

        class Head:
            def apply(self, x):
                return x * trainer.w

        return Head()

    def step(self, x):
        head = self.make_head()
        with tf.GradientTape() as tape:
            loss = tf.square(head.apply(x) - 1.0)
        grads = tape.gradient(loss, [self.w])
        self.optimizer.apply_gradients(zip(grads, [self.w]))


Trainer().step(tf.constant(3.0))
