# expect: none
# tensorflow: ok
# shape: the model called through `weakref.proxy(model)`, a function of a library gradguard has no table for: what it returns may be the model itself, so the loss may use the model (the opacity invariant's first example, issue 36: an unknown call once read as "carries nothing", a false "never uses")
import weakref

import numpy as np
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.Input(shape=(4,)), tf.keras.layers.Dense(1)])
optimizer = tf.keras.optimizers.SGD(0.1)
x = np.random.rand(3, 4).astype("float32")
y = np.zeros((3, 1), dtype="float32")

with tf.GradientTape() as tape:
    pred = weakref.proxy(model)(x, training=True)
    loss = tf.reduce_mean(tf.square(pred - y))
grads = tape.gradient(loss, model.trainable_variables)
optimizer.apply_gradients(zip(grads, model.trainable_variables))
