# expect: none
# tensorflow: ok
# shape: tf.constant(t) and tf.convert_to_tensor(t) of a model output inside the tape — in eager TF 2.21 both pass the tensor through and keep its gradient
import numpy as np
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(8, activation="relu"), tf.keras.layers.Dense(3)])
opt = tf.keras.optimizers.Adam(1e-3)
x = tf.constant(np.random.rand(8, 4), dtype=tf.float32)
y = tf.constant(np.random.randint(0, 3, size=8))

with tf.GradientTape() as tape:
    logits = tf.constant(model(x))
    logits = tf.convert_to_tensor(logits, dtype=tf.float32)
    loss = tf.reduce_mean(tf.keras.losses.sparse_categorical_crossentropy(y, logits, from_logits=True))
grads = tape.gradient(loss, model.trainable_variables)
opt.apply_gradients(zip(grads, model.trainable_variables))
print(loss.numpy())
