# expect: none
# tensorflow: ok
# shape: the poster's train_step read tf.math.add_n(model.losses) and failed with "inputs must be a list of at least one Tensor" because the model declared no regularizer; guarded as tf.math.add_n(model.losses) if model.losses else tf.constant(0.0), the regularization term is a constant for this model, but the prediction loss carries every gradient, so nothing is None (a constant term on one branch that is harmless)
# source: https://github.com/tensorflow/tensorflow/issues/33556
# heldout: 5
import numpy as np
import tensorflow as tf
import keras

model = keras.Sequential([
    keras.Input(shape=(28, 28)),
    keras.layers.Flatten(),
    keras.layers.Dense(16, activation="relu"),
    keras.layers.Dense(10),
])
loss_object = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
optimizer = keras.optimizers.Adam()

images = np.random.rand(4, 28, 28).astype(np.float32)
labels = np.random.randint(0, 10, size=(4,))


def train_step(images, labels):
    with tf.GradientTape() as tape:
        predictions = model(images, training=True)
        pred_loss = loss_object(labels, predictions)
        regularization_loss = tf.math.add_n(model.losses) if model.losses else tf.constant(0.0)
        total_loss = pred_loss + regularization_loss
    gradients = tape.gradient(total_loss, model.trainable_variables)
    optimizer.apply_gradients(zip(gradients, model.trainable_variables))


train_step(images, labels)
