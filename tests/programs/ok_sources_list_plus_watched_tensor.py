# expect: none
# tensorflow: ok
# shape: a model's variables joined with a list holding a watched tensor (`model.trainable_variables + [w]`): a list of sources, not arithmetic, and `w` is watched in the tape (generator family, shrunk from bench/oracle.py seed 20261202 program 52)
import tensorflow as tf
import keras

model = keras.Sequential([keras.layers.Dense(1)])
model.build((None, 3))
w = tf.random.normal((3, 1))
x = tf.ones((4, 3))
params = model.trainable_variables + [w]
with tf.GradientTape() as tape:
    tape.watch(w)
    loss = tf.reduce_mean(model(x)) + tf.reduce_mean(tf.matmul(x, w))
grads = tape.gradient(loss, params)
