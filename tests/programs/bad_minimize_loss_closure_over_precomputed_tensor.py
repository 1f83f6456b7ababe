# expect: GG301@13
# tensorflow: raises ValueError
# fixed: nofix
# shape: a variable `v`, a tensor `v_add_1 = v + 1.` computed once at module level, and a loss closure `loss()` returning `2. * v_add_1`, handed to the optimizer to differentiate (the thread's `tfe.implicit_value_and_gradients(loss)` of TF 1 eager; here `tf_keras`' `optimizer.minimize(loss, var_list=[v])`, which calls the closure under its own tape); the closure only reads a tensor computed before any tape existed, so no variable is accessed and minimize raises "No gradients provided for any variable" (the fix: compute `v + 1.` inside the closure)
# source: https://github.com/tensorflow/tensorflow/issues/15682
# family: 7
# heldout: 2
# gap: gradguard reports GG308 at the `minimize` call instead ("a Keras 3 optimizer: it has no minimize"), which is false: `tf_keras.optimizers.SGD` is the Keras 2 optimizer of the tf_keras package and has `minimize(loss, var_list)`; its optimizer classification maps every `*.optimizers.SGD` (also `from tf_keras import optimizers`) to Keras 3 instead of resolving the `tf_keras` import, and GG308 then pre-empts the closure analysis: with `tf.compat.v1.train.GradientDescentOptimizer` in its place the same program gets exactly GG301 at `v + 1.0`, for the named closure as for a lambda
import tensorflow as tf
import tf_keras

v = tf.Variable(1.0, name="v", trainable=True)
v_add_1 = v + 1.0  # this causes the problem


def loss():
    return 2.0 * v_add_1


optimizer = tf_keras.optimizers.SGD(0.1)
optimizer.minimize(loss, var_list=[v])
