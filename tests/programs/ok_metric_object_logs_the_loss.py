# expect: none
# tensorflow: ok
# shape: the usual use of metric objects in a custom training loop: `train_loss(loss)` and `train_accuracy(labels, predictions)` after the gradient is taken; a metric called on the prediction is fine when its result never reaches the loss
import numpy as np
import tensorflow as tf
import keras

model = keras.Sequential([keras.Input((6,)), keras.layers.Dense(8, activation="relu"), keras.layers.Dense(3)])
optimizer = keras.optimizers.Adam(1e-3)
loss_object = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
train_loss = keras.metrics.Mean(name="train_loss")
train_accuracy = keras.metrics.SparseCategoricalAccuracy(name="train_accuracy")
images = np.random.rand(8, 6).astype("float32")
labels = np.random.randint(0, 3, size=8)

with tf.GradientTape() as tape:
    predictions = model(images, training=True)
    loss = loss_object(labels, predictions)
    train_accuracy(labels, predictions)
gradients = tape.gradient(loss, model.trainable_variables)
optimizer.apply_gradients(zip(gradients, model.trainable_variables))
train_loss(loss)
print(float(train_loss.result()), float(train_accuracy.result()))
