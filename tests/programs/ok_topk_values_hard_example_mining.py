# expect: none
# tensorflow: ok
# shape: online hard-example mining: tf.math.top_k(per_example_loss).values (differentiable; only .indices are not) and tf.sort for a logged median (after an OHEM Q&A)
import numpy as np
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.Input((7,)), tf.keras.layers.Dense(8, activation="relu"), tf.keras.layers.Dense(4)])
optimizer = tf.keras.optimizers.Adam(1e-3)
loss_obj = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True, reduction="none")

x = np.random.rand(8, 7).astype(np.float32)
y = np.random.randint(0, 4, size=8)
k = 4

with tf.GradientTape() as tape:
    per_example = loss_obj(y, model(x, training=True))
    hardest = tf.math.top_k(per_example, k=k)
    loss = tf.reduce_mean(hardest.values)
    median = tf.sort(per_example)[len(y) // 2]
grads = tape.gradient(loss, model.trainable_variables)
optimizer.apply_gradients(zip(grads, model.trainable_variables))
print("hard idx", hardest.indices.numpy(), "loss", loss.numpy(), "median", median.numpy())
