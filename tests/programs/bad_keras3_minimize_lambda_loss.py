# expect: GG308@12
# tensorflow: raises AttributeError
# fixed: ok
# shape: TF1-style `optimizer.minimize(lambda: loss, var_list)` on a Keras 3 optimizer; gradguard's fix rewrites it into a tape step whose loss is the lambda's body (the fix used to write `lambda: ...()`, which does not parse)
import tensorflow as tf

w = tf.Variable([1.0, -2.0])
x = tf.constant([0.5, 1.5])
optimizer = tf.keras.optimizers.SGD(0.1)

for step in range(2):
    optimizer.minimize(lambda: tf.reduce_sum((w * x - 1.0) ** 2), var_list=[w])
