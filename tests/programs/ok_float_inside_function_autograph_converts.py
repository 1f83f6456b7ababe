# expect: none
# tensorflow: ok
# shape: `float(t)` where AutoGraph converts it into a cast to float32: in the function given to `tf.map_fn` (even eagerly), and in a helper that a `tf.function` calls (AutoGraph converts callees too); the gradient goes through both (generator family, shrunk from bench/oracle.py seed 20261202 programs 9636 and 3443)
import tensorflow as tf
import keras

model = keras.layers.Dense(1)
x = tf.ones((4, 3))


def scaled(t, factor=2.0):
    return factor * float(tf.reduce_mean(t))


@tf.function
def traced_loss(inputs):
    return scaled(model(inputs))


with tf.GradientTape(persistent=True) as tape:
    mapped = tf.reduce_mean(tf.map_fn(lambda t: float(tf.reduce_mean(t)) * tf.ones((2,)), model(x)))
    helped = traced_loss(x)
grads = tape.gradient(mapped, model.trainable_variables)
grads_helped = tape.gradient(helped, model.trainable_variables)
del tape
