# expect: GG301@12
# tensorflow: raises ValueError
# fixed: nofix
# shape: a variable `v`, a tensor `v_add_1 = v + 1.` computed once at module level, and a loss closure `loss()` returning `2. * v_add_1`, handed to the optimizer to differentiate (the thread's `tfe.implicit_value_and_gradients(loss)` of TF 1 eager; here `tf_keras`' `optimizer.minimize(loss, var_list=[v])`, which calls the closure under its own tape); the closure only reads a tensor computed before any tape existed, so no variable is accessed and minimize raises "No gradients provided for any variable" (the fix: compute `v + 1.` inside the closure)
# source: https://github.com/tensorflow/tensorflow/issues/15682
# family: 7
# heldout: 2
import tensorflow as tf
import tf_keras

v = tf.Variable(1.0, name="v", trainable=True)
v_add_1 = v + 1.0  # this causes the problem


def loss():
    return 2.0 * v_add_1


optimizer = tf_keras.optimizers.SGD(0.1)
optimizer.minimize(loss, var_list=[v])
