# expect: none
# tensorflow: ok
# shape: gradient accumulation over micro-batches: non-trainable tf.Variable accumulators, acc.assign_add(g) on the gradients (not on the loss), averaged then applied (after a GitHub "gradient accumulation in TF2" thread)
import numpy as np
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.Input((5,)), tf.keras.layers.Dense(8, activation="relu"), tf.keras.layers.Dense(1)])
optimizer = tf.keras.optimizers.Adam(1e-3)
accum_steps = 2
accumulators = [tf.Variable(tf.zeros_like(v), trainable=False) for v in model.trainable_variables]

x = np.random.rand(16, 5).astype(np.float32)
y = np.random.rand(16, 1).astype(np.float32)

for step, (xb, yb) in enumerate(zip(np.split(x, accum_steps), np.split(y, accum_steps))):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model(xb, training=True) - yb)) / accum_steps
    grads = tape.gradient(loss, model.trainable_variables)
    for acc, g in zip(accumulators, grads):
        acc.assign_add(g)
optimizer.apply_gradients([(acc / accum_steps, v) for acc, v in zip(accumulators, model.trainable_variables)])
for acc in accumulators:
    acc.assign(tf.zeros_like(acc))
print("last micro-batch loss", float(loss))
