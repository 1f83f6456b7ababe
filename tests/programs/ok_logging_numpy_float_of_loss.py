# expect: none
# tensorflow: ok
# shape: loss.numpy() printed inside the tape, loss_history.append(float(loss)) and np.mean of the history after it (after the TF "custom training loop" guide)
import numpy as np
import tensorflow as tf
from tensorflow import keras

model = keras.Sequential([keras.Input((10,)), keras.layers.Dense(8, activation="relu"), keras.layers.Dense(1)])
loss_fn = keras.losses.MeanSquaredError()
optimizer = keras.optimizers.Adam(learning_rate=1e-3)

x = np.random.rand(16, 10).astype(np.float32)
y = np.random.rand(16, 1).astype(np.float32)
dataset = tf.data.Dataset.from_tensor_slices((x, y)).batch(8)

loss_history = []
for step, (x_batch, y_batch) in enumerate(dataset):
    with tf.GradientTape() as tape:
        logits = model(x_batch, training=True)
        loss_value = loss_fn(y_batch, logits)
        print("step %d: loss %.4f" % (step, loss_value.numpy()))
    grads = tape.gradient(loss_value, model.trainable_weights)
    optimizer.apply_gradients(zip(grads, model.trainable_weights))
    loss_history.append(float(loss_value))

print("mean loss", np.mean(loss_history), "last", loss_history[-1])
