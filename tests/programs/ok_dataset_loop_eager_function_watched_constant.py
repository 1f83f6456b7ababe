# expect: none
# tensorflow: ok
# shape: the thread's working half: the same `fun` looping `for data in dataset:` called eagerly under the tape that watches `a` (no tf.function): each multiplication is recorded and d/da = 6
# source: https://github.com/tensorflow/tensorflow/issues/38453
# family: 7
import tensorflow as tf

dataset = tf.data.Dataset.from_tensor_slices([2.0, 3.0])


def fun(x):
    for data in dataset:
        x = x * data
    return x


a = tf.constant(1.0)
with tf.GradientTape() as tape:
    tape.watch(a)
    b = fun(a)
print("eager:", tape.gradient(b, a))  # 6.0
