# expect: GG306@12
# tensorflow: none
# fixed: ok
# shape: the sources joined before the tape from a model's variables and a written-out list holding a plain tensor (`params = model.trainable_variables + [w]`), `w` never watched: its gradient is None; the finding points at `w` in that list and the fix watches it in the tape (generator family: break `unwatched` with named sources, shrunk from bench/oracle.py seed 20261202 program 1)
import tensorflow as tf
import keras

model = keras.Sequential([keras.layers.Dense(1)])
model.build((None, 3))
w = tf.random.normal((3, 1))
x = tf.ones((4, 3))
params = model.trainable_variables + [w]
with tf.GradientTape() as tape:
    loss = tf.reduce_mean(model(x)) + tf.reduce_mean(tf.matmul(x, w))
grads = tape.gradient(loss, params)
