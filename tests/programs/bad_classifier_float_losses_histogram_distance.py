# expect: GG103@46
# tensorflow: none
# fixed: nofix
# shape: the Iris custom-training walkthrough with a research loss: per-example cross-entropies collected as Python floats (`losses.append(float(loss))`), a numpy helper measures the distance between their histogram and a normal density, and `tf.convert_to_tensor(dis)` is returned as the loss; every gradient is None (the poster's extra `tape.watch(model.trainable_variables)` inside the tape is left out: under Keras 3 it raises ValueError before any gradient, Keras variables not being tf.Variables)
# source: https://github.com/tensorflow/tensorflow/issues/30190
# family: 4
# heldout: 1
import numpy as np
import tensorflow as tf
import keras

model = keras.Sequential([
    keras.Input(shape=(4,)),
    keras.layers.Dense(10, activation="relu"),
    keras.layers.Dense(10, activation="relu"),
    keras.layers.Dense(3),
])
loss_object = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
optimizer = keras.optimizers.SGD(learning_rate=0.01)

features = np.random.rand(12, 4).astype(np.float32)
labels = np.random.randint(0, 3, size=(12,))


def get_distance_between_samples_and_distribution(losses, if_plot=0):
    samples = np.asarray(losses)
    hist, edges = np.histogram(samples, bins=4, density=True)
    centers = (edges[:-1] + edges[1:]) / 2
    mu, sigma = samples.mean(), samples.std() + 1e-6
    normal = np.exp(-0.5 * ((centers - mu) / sigma) ** 2) / (sigma * np.sqrt(2 * np.pi))
    return np.sum((hist - normal) ** 2)


def loss(model, x, y):
    y_ = model(x)
    losses = []
    for i in range(y.shape[0]):
        loss = loss_object(y_true=y[i:i + 1], y_pred=y_[i:i + 1])
        losses.append(float(loss))
    dis = get_distance_between_samples_and_distribution(losses, if_plot=0)
    return tf.convert_to_tensor(dis, dtype=np.float32)


def grad(model, inputs, targets):
    with tf.GradientTape() as tape:
        loss_value = loss(model, inputs, targets)
    return loss_value, tape.gradient(loss_value, model.trainable_variables)


loss_value, grads = grad(model, features, labels)
optimizer.apply_gradients(zip(grads, model.trainable_variables))
