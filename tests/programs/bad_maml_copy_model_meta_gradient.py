# expect: GG302@47
# tensorflow: none
# fixed: ok
# shape: MAML with a subclassed `MetaModel` whose forward pass is a method `forward` (not `call`); `copy_model` builds a second MetaModel and copies the weights in with set_weights, the inner step trains the copy, and the outer tape asks for the meta-model's variables although every loss was computed with the copy, another object: None for all of them ("It seems that the graphs are unconnected")
# source: https://github.com/tensorflow/tensorflow/issues/34335
# family: 1
import numpy as np
import tensorflow as tf
from tensorflow import keras


class MetaModel(keras.Model):
    def __init__(self):
        super().__init__()
        self.hidden1 = keras.layers.Dense(5)
        self.out = keras.layers.Dense(1)

    def forward(self, x):
        x = keras.activations.relu(self.hidden1(x))
        return self.out(x)


def copy_model(model, x):
    copied_model = MetaModel()
    copied_model.forward(x)
    copied_model.set_weights(model.get_weights())
    return copied_model


def loss_function(pred_y, y):
    return keras.losses.MeanSquaredError()(y, pred_y)


meta_model = MetaModel()
x = np.random.rand(10, 1).astype("float32")
y = np.sin(x)
meta_model.forward(x)
optimizer = keras.optimizers.SGD(0.01)

with tf.GradientTape() as test_tape:
    model_copy = copy_model(meta_model, x)
    with tf.GradientTape() as train_tape:
        train_loss = loss_function(model_copy.forward(x), y)
    gradients = train_tape.gradient(train_loss, model_copy.trainable_variables)
    optimizer.apply_gradients(zip(gradients, model_copy.trainable_variables))
    test_loss = loss_function(model_copy.forward(x), y)
meta_gradients = test_tape.gradient(test_loss, meta_model.trainable_variables)
