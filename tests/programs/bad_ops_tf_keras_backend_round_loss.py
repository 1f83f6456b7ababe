# expect: GG401@24
# tensorflow: none
# fixed: ok
# shape: Keras 2 (tf_keras) model whose loss rounds the predicted counts with the backend's K.round
# family: 4
import numpy as np
import tensorflow as tf
import tf_keras
from tf_keras import backend as K

model = tf_keras.Sequential([
    tf_keras.layers.Dense(8, activation="relu", input_shape=(4,)),
    tf_keras.layers.Dense(1, activation="softplus"),
])
optimizer = tf_keras.optimizers.Adam(1e-3)

x = np.random.rand(16, 4).astype("float32")
counts = np.random.randint(0, 6, size=(16, 1)).astype("float32")


def train_step(inputs, targets):
    with tf.GradientTape() as tape:
        rate = model(inputs, training=True)
        loss = K.mean(K.square(K.round(rate * 5.0) - targets))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss


train_step(x, counts)
