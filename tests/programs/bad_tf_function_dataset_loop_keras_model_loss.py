# expect: GG406@20
# tensorflow: none
# fixed: nofix
# shape: a `@tf.function` `dataset_loss(dataset)` sums a Keras model's mean squared error over `for x, y in dataset:` and is called inside the tape of the training step; AutoGraph runs the loop as `dataset.reduce`, the model's variable reads happen in the dataset's graph, every gradient is None and `optimizer.apply_gradients` raises "No gradients provided for any variable." (TensorFlow 2.21, Keras 3)
# family: 7
import numpy as np
import tensorflow as tf
import keras

model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4, activation="relu"), keras.layers.Dense(1)])
optimizer = keras.optimizers.SGD(0.01)
features = np.random.rand(8, 3).astype("float32")
targets = np.random.rand(8, 1).astype("float32")
dataset = tf.data.Dataset.from_tensor_slices((features, targets)).batch(4)


@tf.function
def dataset_loss(dataset):
    total = tf.constant(0.0)
    for x, y in dataset:
        total += tf.reduce_mean(tf.square(model(x, training=True) - y))
    return total


with tf.GradientTape() as tape:
    loss = dataset_loss(dataset)
grads = tape.gradient(loss, model.trainable_variables)
optimizer.apply_gradients(zip(grads, model.trainable_variables))
