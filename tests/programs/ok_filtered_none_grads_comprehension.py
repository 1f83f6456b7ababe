# expect: none
# tensorflow: ok
# shape: gradients filtered with [(g, v) for g, v in zip(grads, vars) if g is not None] and clipped with tf.clip_by_global_norm, all of them present (after a GitHub issue workaround)
import numpy as np
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.Input((6,)), tf.keras.layers.Dense(8, activation="relu"), tf.keras.layers.Dense(2)])
optimizer = tf.keras.optimizers.Adam(learning_rate=3e-4)

x = np.random.rand(8, 6).astype(np.float32)
y = np.random.rand(8, 2).astype(np.float32)

with tf.GradientTape() as tape:
    out = model(x, training=True)
    loss = tf.reduce_mean(tf.keras.losses.mse(y, out))
variables = model.trainable_variables
grads = tape.gradient(loss, variables)
grads, global_norm = tf.clip_by_global_norm(grads, 1.0)
grads_and_vars = [(g, v) for g, v in zip(grads, variables) if g is not None]
if len(grads_and_vars) < len(variables):
    print("warning: some variables got no gradient")
optimizer.apply_gradients(grads_and_vars)
print("loss", loss.numpy(), "norm", global_norm.numpy())
