# expect: GG102
# tensorflow: none
# shape: np.asarray inside a helper re-exported through the package __init__
import tensorflow as tf
from tensorflow import keras

import rlkit

model = keras.Sequential([keras.Input(shape=(4,)), keras.layers.Dense(1)])
x = tf.random.normal((8, 4))
y = tf.random.normal((8, 1))

with tf.GradientTape() as tape:
    prediction = rlkit.as_array(model(x))
    loss = tf.reduce_mean(tf.square(y - prediction))
grads = tape.gradient(loss, model.trainable_variables)
