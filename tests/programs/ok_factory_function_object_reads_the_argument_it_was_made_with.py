# expect: none
# tensorflow: ok
# shape: a factory function defines a class whose method returns the factory's argument (`def make_reader(value): class Reader: def read(self): return value; return Reader()`), and the loss inside the tape is computed from `make_reader(h).read()` and from a reader bound to a name, `h` computed from the variable `w`. The object a followed function returned held nothing of the call's argument, so "the loss never uses `w`" was a false GG302
# family: 6
import tensorflow as tf

w = tf.Variable(1.5)
optimizer = tf.keras.optimizers.SGD(0.1)


def make_reader(value):
    class Reader:
        def read(self):
            return value

    return Reader()


with tf.GradientTape() as tape:
    h = w * 2.0
    reader = make_reader(h)
    loss = tf.square(make_reader(h).read() - 1.0) + tf.square(reader.read() - 1.0)
grads = tape.gradient(loss, [w])
optimizer.apply_gradients(zip(grads, [w]))
