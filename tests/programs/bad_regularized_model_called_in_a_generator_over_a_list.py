# expect: GG311@14
# tensorflow: ok
# fixed: differs
# shape: a regularized Dense called as `m(x)` for `m in [model]` inside a generator expression: the loop's element is that model, with its regularizer (from the oracle's `construct` dimension, gen_20261202_849)
import tensorflow as tf
import keras

model = keras.layers.Dense(1, kernel_regularizer="l2")
model.build((None, 3))
x = tf.random.normal((4, 3))

with tf.GradientTape() as tape:
    loss = sum(tf.reduce_mean(m(x)) for m in [model])
grads = tape.gradient(loss, model.trainable_variables)
