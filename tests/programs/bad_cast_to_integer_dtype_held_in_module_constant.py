# expect: GG403@12
# tensorflow: none
# fixed: nofix
# shape: the integer dtype held in a module constant and a dict of dtypes (`INDEX_DTYPE = tf.int32`, `tf.cast(model(x), INDEX_DTYPE)`): the same cast as `tf.int32` written out, no gradient (generator family, issue 21's table)
import tensorflow as tf
import keras

INDEX_DTYPE = tf.int32
model = keras.Sequential([keras.layers.Dense(1)])
x = tf.ones((4, 3))
with tf.GradientTape() as tape:
    counts = tf.cast(model(x), INDEX_DTYPE)
    loss = tf.reduce_mean(tf.cast(counts, tf.float32))
grads = tape.gradient(loss, model.trainable_variables)
