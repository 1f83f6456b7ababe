# expect: none
# tensorflow: ok
# shape: `Child(Base)` inherits `predict` from `Base`, which reads the module-level variable `w`; the loss computed by `child.predict(x)` inside the tape reaches `w`. The method was looked for in `Child`'s own body only, and "the loss never uses `w`" was a false GG302
# family: 2
import tensorflow as tf

w = tf.Variable(1.0)
optimizer = tf.keras.optimizers.SGD(0.1)


class Base:
    def predict(self, x):
        return x * w


class Child(Base):
    pass


child = Child()
with tf.GradientTape() as tape:
    loss = tf.square(child.predict(tf.constant(2.0)) - 1.0)
grads = tape.gradient(loss, [w])
optimizer.apply_gradients(zip(grads, [w]))
