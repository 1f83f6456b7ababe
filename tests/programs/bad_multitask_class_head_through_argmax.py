# expect: GG402@23
# tensorflow: none
# fixed: nofix
# shape: a two-head multi-task model (a regression head and a classification head on a shared trunk) whose classification term compares `tf.argmax` of the class logits with the labels: the regression term trains the trunk and its head, the classification term adds nothing to any gradient, so the class head gets None (training runs, the head never learns)
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
    predicted_class = tf.cast(tf.argmax(class_logits, axis=1), tf.float32)
    class_loss = tf.reduce_mean(tf.square(predicted_class - tf.cast(labels, tf.float32)))
    loss = regression_loss + class_loss
gradients = tape.gradient(loss, model.trainable_variables)
optimizer.apply_gradients(zip(gradients, model.trainable_variables))
