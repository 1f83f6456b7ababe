# expect: none
# tensorflow: ok
# shape: loss written with tensorflow.experimental.numpy (tnp.mean/tnp.square/tnp.log) — TF ops, differentiable, despite the numpy look
import numpy as np
import tensorflow as tf
import tensorflow.experimental.numpy as tnp

model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(8, activation="tanh"), tf.keras.layers.Dense(1, activation="sigmoid")])
optimizer = tf.keras.optimizers.Adam(0.01)

features = np.random.normal(size=(8, 3)).astype(np.float32)
labels = (np.random.rand(8, 1) > 0.5).astype(np.float32)

with tf.GradientTape() as tape:
    p = model(features)
    p = tnp.clip(p, 1e-6, 1 - 1e-6)
    bce = -tnp.mean(labels * tnp.log(p) + (1 - labels) * tnp.log(1 - p))
    l2 = tnp.sum(tnp.square(model.trainable_variables[0]))
    loss = bce + 1e-4 * l2
grads = tape.gradient(loss, model.trainable_variables)
optimizer.apply_gradients(zip(grads, model.trainable_variables))
print("bce", float(bce))
