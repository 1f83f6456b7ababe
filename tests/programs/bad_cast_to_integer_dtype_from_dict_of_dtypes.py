# expect: GG403@12
# tensorflow: none
# fixed: nofix
# shape: the integer dtype looked up in a dict of dtypes (`DTYPES["index"]`): a cast with no gradient (generator family, shrunk from bench/oracle.py seed 20261202 program 3)
import tensorflow as tf
import keras

DTYPES = {"index": tf.int32, "value": tf.float32}
model = keras.Sequential([keras.layers.Dense(1)])
x = tf.ones((4, 3))
with tf.GradientTape() as tape:
    counts = tf.cast(model(x), DTYPES["index"])
    loss = tf.reduce_mean(tf.cast(counts, DTYPES["value"]))
grads = tape.gradient(loss, model.trainable_variables)
