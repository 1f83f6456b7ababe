# expect: none
# tensorflow: ok
# shape: the same multi-task model with a differentiable classification term (sparse categorical cross-entropy on the logits): both heads and the trunk get their gradients
# family: 5
import numpy as np
import tensorflow as tf
import keras

inputs = keras.Input((6,))
trunk = keras.layers.Dense(16, activation="relu")(inputs)
value = keras.layers.Dense(1)(trunk)
logits = keras.layers.Dense(3)(trunk)
model = keras.Model(inputs, [value, logits])
optimizer = keras.optimizers.Adam(1e-3)
x = np.random.rand(8, 6).astype("float32")
targets = np.random.rand(8, 1).astype("float32")
labels = np.random.randint(0, 3, size=8)

with tf.GradientTape() as tape:
    predicted_value, class_logits = model(x, training=True)
    regression_loss = tf.reduce_mean(tf.square(targets - predicted_value))
    class_loss = tf.reduce_mean(keras.losses.sparse_categorical_crossentropy(labels, class_logits, from_logits=True))
    loss = regression_loss + class_loss
gradients = tape.gradient(loss, model.trainable_variables)
optimizer.apply_gradients(zip(gradients, model.trainable_variables))
