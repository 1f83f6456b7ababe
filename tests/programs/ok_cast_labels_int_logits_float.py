# expect: none
# tensorflow: ok
# shape: integer cast on labels, tf.cast(logits, tf.float32) on the prediction, argmax/equal/cast only for an accuracy metric (after a mixed-precision tutorial)
import numpy as np
import tensorflow as tf
from tensorflow import keras

model = keras.Sequential([
    keras.Input((12,)),
    keras.layers.Dense(16, activation="relu"),
    keras.layers.Dense(5),
])
optimizer = keras.optimizers.Adam()
train_acc = keras.metrics.Mean()

x = np.random.rand(8, 12).astype("float32")
y = np.random.randint(0, 5, size=(8, 1)).astype("float32")  # labels arrive as floats from a CSV

with tf.GradientTape() as tape:
    logits = model(x, training=True)
    logits = tf.cast(logits, tf.float32)
    labels = tf.cast(tf.squeeze(y, axis=-1), tf.int32)
    loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits))
    correct = tf.equal(tf.argmax(logits, axis=1, output_type=tf.int32), labels)
    train_acc.update_state(tf.cast(correct, tf.float32))
grads = tape.gradient(loss, model.trainable_variables)
optimizer.apply_gradients(zip(grads, model.trainable_variables))
print("loss", loss.numpy(), "acc", train_acc.result().numpy())
