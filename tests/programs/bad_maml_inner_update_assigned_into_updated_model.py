# expect: GG305@43
# tensorflow: none
# fixed: nofix
# shape: a meta-learning (MAML) loop with two instances of one model class, the meta-model `model` and a scratch `updated_model`: inside the outer tape, the inner gradient of the support loss is taken for `model`, and the adapted weights `w - alpha * g` are written into `updated_model`'s variables with `assign`; the query loss of `updated_model` is then differentiated for `model.trainable_variables`, which are all None because TensorFlow does not trace an assignment back to the value assigned (the answer: keep the adapted weights as plain tensors and run the forward pass with them)
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
    for updated_var, var, grad in zip(updated_model.trainable_variables, model.trainable_variables, grads):
        updated_var.assign(var - alpha * grad)
    val_loss = tf.reduce_mean(tf.square(updated_model(x_val) - y_val))
meta_grads = outer_tape.gradient(val_loss, model.trainable_variables)
meta_optimizer.apply_gradients(zip(meta_grads, model.trainable_variables))
