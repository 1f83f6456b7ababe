# expect: none
# tensorflow: ok
# shape: the TF 2 answer to "how do I add the regularization losses now that tf.losses.get_regularization_losses is gone": a Sequential model whose Dense layers declare kernel_regularizer=l2, and a GradientTape train_step whose total loss is the prediction loss plus tf.math.add_n(model.losses), computed inside the tape after the forward pass, so the penalties are trained
# source: https://github.com/tensorflow/tensorflow/issues/30866
# heldout: 5
import numpy as np
import tensorflow as tf
import keras

model = keras.Sequential([
    keras.Input(shape=(12,)),
    keras.layers.Dense(16, activation="relu", kernel_regularizer=keras.regularizers.l2(0.01)),
    keras.layers.Dense(3, kernel_regularizer=keras.regularizers.l2(0.01)),
])
loss_object = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
optimizer = keras.optimizers.Adam(1e-3)

images = np.random.rand(8, 12).astype(np.float32)
labels = np.random.randint(0, 3, size=(8,))


def train_step(images, labels):
    with tf.GradientTape() as tape:
        predictions = model(images, training=True)
        pred_loss = loss_object(labels, predictions)
        regularization_loss = tf.math.add_n(model.losses)
        total_loss = pred_loss + regularization_loss
    gradients = tape.gradient(total_loss, model.trainable_variables)
    optimizer.apply_gradients(zip(gradients, model.trainable_variables))
    return total_loss


train_step(images, labels)
