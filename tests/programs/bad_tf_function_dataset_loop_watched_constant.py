# expect: GG406@24
# tensorflow: none
# fixed: nofix
# shape: `fun` multiplies `x` by each element in `for data in dataset:` (the dataset closed over); called eagerly under a tape watching the constant `a` it gives d/da = 6, but wrapped as `decorated_fun = tf.function(fun)` AutoGraph turns the loop into a `dataset.reduce` whose body runs in the dataset's own graph, so `tape.gradient(c, a)` is None (TensorFlow 2.21 still does this)
# source: https://github.com/tensorflow/tensorflow/issues/38453
# family: 7
import tensorflow as tf

dataset = tf.data.Dataset.from_tensor_slices([2.0, 3.0])


def fun(x):
    for data in dataset:
        x = x * data
    return x


decorated_fun = tf.function(fun)

a = tf.constant(1.0)
with tf.GradientTape(persistent=True) as tape:
    tape.watch(a)
    b = fun(a)
    c = decorated_fun(a)
print("eager:", tape.gradient(b, a))  # 6.0
print("tf.function:", tape.gradient(c, a))  # None
