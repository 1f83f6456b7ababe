# expect: GG104@20
# tensorflow: none
# fixed: ok
# shape: regression with a manual tape, predictions read back with K.eval (Keras backend) inside the loss
import numpy as np
import tensorflow as tf
from tensorflow.keras import backend as K

model = tf.keras.Sequential([
    tf.keras.Input(shape=(4,)),
    tf.keras.layers.Dense(8, activation="relu"),
    tf.keras.layers.Dense(1),
])
optimizer = tf.keras.optimizers.RMSprop(1e-3)

features = np.random.rand(8, 4).astype("float32")
targets = np.random.rand(8, 1).astype("float32")

with tf.GradientTape() as tape:
    predictions = K.eval(model(features, training=True))
    loss = tf.reduce_mean(tf.abs(targets - predictions))
grads = tape.gradient(loss, model.trainable_variables)
optimizer.apply_gradients(zip(grads, model.trainable_variables))
