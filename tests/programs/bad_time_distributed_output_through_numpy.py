# expect: GG102@13
# tensorflow: none
# fixed: ok
# shape: the output of `TimeDistributed(dense)` goes through `np.square` inside the tape: the wrapped layer's variables get no gradient (before, said as "the loss never uses `dense`", GG302, no fix)
# family: 3
import numpy as np
import tensorflow as tf

dense = tf.keras.layers.Dense(2)
per_step = tf.keras.layers.TimeDistributed(dense)
x = tf.ones((4, 3, 5))
with tf.GradientTape() as tape:
    loss = tf.reduce_mean(np.square(per_step(x)))
grads = tape.gradient(loss, dense.trainable_variables)
