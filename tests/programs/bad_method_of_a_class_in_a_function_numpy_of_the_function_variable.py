# expect: GG101@15
# tensorflow: none
# fixed: ok
# shape: a helper class defined inside the function that trains; its method reads the function's variable `w` through `.numpy()`, so the loss computed through the method inside the tape gets no gradient for `w`. The method's summary did not see `w` (it read the module's names), and the finding was "the loss never uses `w`" instead of the `.numpy()` that cuts it, with no fix
# family: 2
import tensorflow as tf


def main():
    w = tf.Variable(1.0)
    optimizer = tf.keras.optimizers.SGD(0.1)

    class Scaler:
        def scale(self, x):
            return x * w.numpy()

    scaler = Scaler()
    with tf.GradientTape() as tape:
        loss = tf.square(scaler.scale(tf.constant(2.0)) - 1.0)
    grads = tape.gradient(loss, [w])
    optimizer.apply_gradients(zip(grads, [w]))


main()
