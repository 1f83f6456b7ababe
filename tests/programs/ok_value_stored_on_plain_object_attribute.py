# expect: none
# tensorflow: ok
# shape: a model output stored on a plain object's attribute and read back (`store.value = model(x)`; `store.value`): the attribute holds what was assigned (generator family, shrunk from bench/oracle.py seed 20261202 program 13)
import types

import tensorflow as tf
import keras

model = keras.Sequential([keras.layers.Dense(1)])
x = tf.ones((4, 3))
with tf.GradientTape() as tape:
    store = types.SimpleNamespace()
    store.value = model(x)
    loss = tf.reduce_mean(store.value)
grads = tape.gradient(loss, model.trainable_variables)
