# expect: none
# tensorflow: ok
# shape: the MAML loop of the assign program with the adapted weights kept as tensors, `adapted = [w - alpha * g ...]`, and the query forward pass run with them through Keras 3's `updated_model.stateless_call(adapted, [], x_val)` instead of assigning them into `updated_model`'s variables: the query loss depends on `model.trainable_variables` through the adapted weights (second-order MAML), and every meta-gradient exists
# source: https://github.com/tensorflow/tensorflow/issues/30234
# family: 1
# heldout: 2
import numpy as np
import tensorflow as tf
import keras


class SineModel(keras.Model):
    def __init__(self):
        super().__init__()
        self.hidden = keras.layers.Dense(20, activation="relu")
        self.out = keras.layers.Dense(1)

    def call(self, x):
        return self.out(self.hidden(x))


def sine_task(n=10):
    amplitude, phase = np.random.uniform(0.1, 5.0), np.random.uniform(0, np.pi)
    x = np.random.uniform(-5, 5, size=(n, 1)).astype(np.float32)
    return x, (amplitude * np.sin(x + phase)).astype(np.float32)


model = SineModel()
updated_model = SineModel()
model(tf.zeros((1, 1)))
updated_model(tf.zeros((1, 1)))
meta_optimizer = keras.optimizers.Adam(0.001)
alpha = 0.01

x_train, y_train = sine_task()
x_val, y_val = sine_task()
with tf.GradientTape() as outer_tape:
    with tf.GradientTape() as inner_tape:
        train_loss = tf.reduce_mean(tf.square(model(x_train) - y_train))
    grads = inner_tape.gradient(train_loss, model.trainable_variables)
    adapted = [var - alpha * grad for var, grad in zip(model.trainable_variables, grads)]
    y_pred, _ = updated_model.stateless_call(adapted, [], x_val)
    val_loss = tf.reduce_mean(tf.square(y_pred - y_val))
meta_grads = outer_tape.gradient(val_loss, model.trainable_variables)
meta_optimizer.apply_gradients(zip(meta_grads, model.trainable_variables))
