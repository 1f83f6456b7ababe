# expect: none
# tensorflow: ok
# shape: a plain Python class of the notebook defines its own `predict` over its weights; `model.predict(inputs)` inside the tape is that method, not Keras's (after tensorflow/docs site/en/guide/tf_numpy.ipynb "class Model(object)")
import numpy as np
import tensorflow as tf
import tensorflow.experimental.numpy as tnp

tnp.experimental_enable_numpy_behavior()  # as the guide does: ndarray methods on tensors


class Model(object):
    """Model with a dense and a linear layer."""

    def __init__(self):
        self.weights = None

    def predict(self, inputs):
        if self.weights is None:
            size = inputs.shape[1]
            stddev = np.sqrt(size).astype(np.float32)
            w1 = tnp.random.randn(size, 8).astype(np.float32) / stddev
            bias = tnp.random.randn(8).astype(np.float32)
            w2 = tnp.random.randn(8, 2).astype(np.float32) / 4
            self.weights = (w1, bias, w2)
        else:
            w1, bias, w2 = self.weights
        y = tnp.matmul(inputs, w1) + bias
        y = tnp.maximum(y, 0)
        return tnp.matmul(y, w2)


def compute_gradients(model, inputs, labels):
    with tf.GradientTape() as tape:
        assert model.weights is not None
        tape.watch(model.weights)
        prediction = model.predict(inputs)
        loss = tnp.sum(tnp.square(prediction - labels))
    return tape.gradient(loss, model.weights)


model = Model()
inputs = tnp.random.randn(4, 32).astype(tnp.float32)
labels = tnp.random.randn(4, 2).astype(tnp.float32)
model.predict(inputs)
compute_gradients(model, inputs, labels)
