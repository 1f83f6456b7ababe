# expect: none
# tensorflow: ok
# shape: the same traced `dataset_loss`, looping `for x, y in iter(dataset):`: over an iterator AutoGraph builds a `tf.while_loop` of `get_next` calls in the function's own graph (not a `dataset.reduce`), so the model's reads are recorded by the caller's tape and every gradient is there (TensorFlow 2.21)
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
    for x, y in iter(dataset):
        total += tf.reduce_mean(tf.square(model(x, training=True) - y))
    return total


with tf.GradientTape() as tape:
    loss = dataset_loss(dataset)
grads = tape.gradient(loss, model.trainable_variables)
optimizer.apply_gradients(zip(grads, model.trainable_variables))
