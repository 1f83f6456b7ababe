# expect: none
# tensorflow: ok
# shape: `tf.numpy_function` inside the function given to `tf.vectorized_map`, called eagerly: vectorized_map traces its function and, unable to vectorize the numpy op, falls back to a graph `while_loop`, whose gradient is zeros, not None (generator family, shrunk from bench/oracle.py seed 20261202 program 680)
import tensorflow as tf
import keras

model = keras.Sequential([keras.layers.Dense(1)])
x = tf.ones((4, 3))
with tf.GradientTape() as tape:
    out = tf.vectorized_map(lambda t: tf.numpy_function(lambda a: a * 2.0, [t], tf.float32), model(x))
    loss = tf.reduce_mean(out)
grads = tape.gradient(loss, model.trainable_variables)
