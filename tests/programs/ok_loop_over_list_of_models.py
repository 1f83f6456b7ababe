# expect: none
# tensorflow: ok
# shape: models taken one by one from a list, in a generator expression and a for loop (`sum(m(x) for m in [m1, m2])`): each is called, both get gradients (generator family, issue 21's table)
import tensorflow as tf
import keras

m1 = keras.Sequential([keras.layers.Dense(1)])
m2 = keras.Sequential([keras.layers.Dense(1)])
x = tf.ones((2, 3))
with tf.GradientTape(persistent=True) as tape:
    loss = tf.reduce_sum(sum(m(x) for m in [m1, m2]))
    total = 0.0
    for model in (m1, m2):
        total += tf.reduce_mean(model(x))
grads = tape.gradient(loss, m1.trainable_variables + m2.trainable_variables)
grads_of_total = tape.gradient(total, [w for m in (m1, m2) for w in m.trainable_variables])
del tape
