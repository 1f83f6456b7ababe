# expect: GG308@23
# tensorflow: raises AttributeError
# fixed: nofix
# shape: TF1-style training with optimizer.minimize(loss, var_list) on a Keras 3 optimizer
import numpy as np
import tensorflow as tf

model = tf.keras.Sequential([
    tf.keras.Input(shape=(3,)),
    tf.keras.layers.Dense(8, activation="relu"),
    tf.keras.layers.Dense(1),
])
optimizer = tf.keras.optimizers.Adam(learning_rate=1e-3)

x_batch = np.random.rand(8, 3).astype(np.float32)
y_batch = np.random.rand(8, 1).astype(np.float32)


def compute_loss():
    return tf.reduce_mean(tf.square(y_batch - model(x_batch, training=True)))


optimizer.minimize(compute_loss, model.trainable_variables)
