# expect: GG302@51
# tensorflow: none
# fixed: nofix
# shape: MAML on sine regression tasks: for each task a `model_copy` is made from the meta-model (`copy_model`: a fresh SineModel whose weights are set from `model.get_weights()`), one inner step trains it with `train_optimizer.apply_gradients`, and the query loss of the adapted copy is differentiated by the outer `test_tape` with respect to `model.trainable_variables`; the copy only holds numpy values of the meta-model's weights, so every meta-gradient is None ("test_tape returns an empty (None) gradient")
# source: https://github.com/tensorflow/tensorflow/issues/61199
# family: 6
import numpy as np
import tensorflow as tf
import keras


class SineModel(keras.Model):
    def __init__(self):
        super().__init__()
        self.hidden1 = keras.layers.Dense(40, activation="relu")
        self.hidden2 = keras.layers.Dense(40, activation="relu")
        self.out = keras.layers.Dense(1)

    def call(self, x):
        return self.out(self.hidden2(self.hidden1(x)))


def sine_task(n=10):
    amplitude, phase = np.random.uniform(0.1, 5.0), np.random.uniform(0, np.pi)
    x = np.random.uniform(-5, 5, size=(n, 1)).astype(np.float32)
    return x, (amplitude * np.sin(x + phase)).astype(np.float32)


def copy_model(model, x):
    copied_model = SineModel()
    copied_model(tf.convert_to_tensor(x))
    copied_model.set_weights(model.get_weights())
    return copied_model


model = SineModel()
model(tf.zeros((1, 1)))
train_optimizer = keras.optimizers.SGD(0.01)
meta_optimizer = keras.optimizers.Adam(0.001)
mse = keras.losses.MeanSquaredError()

x, y = sine_task()
x_test, y_test = sine_task()
with tf.GradientTape() as test_tape:
    model_copy = copy_model(model, x)
    with tf.GradientTape() as train_tape:
        train_loss = mse(y, model_copy(x))
    gradients = train_tape.gradient(train_loss, model_copy.trainable_variables)
    train_optimizer.apply_gradients(zip(gradients, model_copy.trainable_variables))
    test_loss = mse(y_test, model_copy(x_test))
gradients = test_tape.gradient(test_loss, model.trainable_variables)
meta_optimizer.apply_gradients(zip(gradients, model.trainable_variables))
