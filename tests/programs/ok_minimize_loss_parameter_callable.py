# expect: none
# tensorflow: ok
# shape: a helper's `loss` parameter handed to `optimizer.minimize` is a callable at the call site: nothing says it is a tensor (after tensorflow/agents tf_agents/utils/eager_utils_test.py `def minimize_loss(loss, optimizer): return optimizer.minimize(loss)`)
import tensorflow as tf

w = tf.Variable([1.0, -2.0])
optimizer = tf.compat.v1.train.GradientDescentOptimizer(0.1)  # takes a callable loss in eager mode


def minimize_loss(loss, optimizer, var_list):
    return optimizer.minimize(loss, var_list=var_list)


def loss_fn():
    return tf.reduce_sum(tf.square(w))


minimize_loss(loss_fn, optimizer, [w])
with tf.GradientTape() as tape:
    loss = loss_fn()
grads = tape.gradient(loss, [w])
