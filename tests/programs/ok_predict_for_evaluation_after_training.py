# expect: none
# tensorflow: ok
# shape: model.predict / predict_on_batch and np.argmax/np.mean used to evaluate after the tape-based training step, never in the loss
import numpy as np
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(8, activation="relu"), tf.keras.layers.Dense(2, activation="softmax")])
optimizer = tf.keras.optimizers.Adam(1e-2)
loss_fn = tf.keras.losses.SparseCategoricalCrossentropy()

x_train = np.random.rand(8, 4).astype(np.float32)
y_train = np.random.randint(0, 2, 8)
x_val = np.random.rand(8, 4).astype(np.float32)
y_val = np.random.randint(0, 2, 8)

baseline = model.predict_on_batch(x_val)
for epoch in range(2):
    with tf.GradientTape() as tape:
        probs = model(x_train, training=True)
        loss = loss_fn(y_train, probs)
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))

val_probs = model.predict(x_val, verbose=0)
val_acc = np.mean(np.argmax(val_probs, axis=1) == y_val)
print("val acc", val_acc, "moved", float(np.abs(val_probs - baseline).max()))
