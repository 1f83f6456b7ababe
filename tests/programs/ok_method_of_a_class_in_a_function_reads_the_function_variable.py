# expect: none
# tensorflow: ok
# shape: a helper class defined inside the function that trains; its method reads the function's variable `w` (a closure), and the loss computed through the method inside the tape reaches `w`. A method's summary read its free names from the module, where `w` is not bound, and "the loss never uses `w`" was a false GG302
# family: 2
import tensorflow as tf


def main():
    w = tf.Variable(1.0)
    optimizer = tf.keras.optimizers.SGD(0.1)

    class Scaler:
        def scale(self, x):
            return x * w

    scaler = Scaler()
    with tf.GradientTape() as tape:
        loss = tf.square(scaler.scale(tf.constant(2.0)) - 1.0)
    grads = tape.gradient(loss, [w])
    optimizer.apply_gradients(zip(grads, [w]))


main()
