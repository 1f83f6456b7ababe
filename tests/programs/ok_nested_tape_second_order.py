# expect: none
# tensorflow: ok
# shape: second-order gradient: the inner tape's gradient, taken while an outer tape records, is differentiable by the outer one (after tensorflow/docs site/en/guide/advanced_autodiff.ipynb "Higher-order gradients")
import tensorflow as tf

x = tf.Variable(1.0)

with tf.GradientTape() as t2:
    with tf.GradientTape() as t1:
        y = x * x * x
    # Computed inside t2's block: t2 records the gradient computation itself.
    dy_dx = t1.gradient(y, x)
d2y_dx2 = t2.gradient(dy_dx, x)

layer = tf.keras.layers.Dense(3)
inputs = tf.random.normal([4, 2])
with tf.GradientTape() as outer:
    with tf.GradientTape() as inner:
        inner.watch(inputs)
        out = layer(inputs)
    grad_norm = tf.reduce_sum(inner.gradient(out, inputs) ** 2)
# d(out)/d(inputs) is the kernel: the penalty depends on it, not on the bias (whose gradient is None).
penalty_grads = outer.gradient(grad_norm, [layer.kernel])
