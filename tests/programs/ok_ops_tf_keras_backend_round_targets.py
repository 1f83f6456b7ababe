# expect: none
# tensorflow: ok
# shape: the same Keras 2 (tf_keras) count model; K.round rounds the noisy target counts (data) and the loss uses the unrounded prediction
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
noisy_counts = (np.random.rand(16, 1) * 5.0).astype("float32")


def train_step(inputs, targets):
    counts = K.round(targets)
    with tf.GradientTape() as tape:
        rate = model(inputs, training=True)
        loss = K.mean(K.square(rate * 5.0 - counts))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss


train_step(x, noisy_counts)
