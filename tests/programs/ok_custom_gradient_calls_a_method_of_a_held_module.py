# expect: none
# tensorflow: ok
# shape: a @tf.custom_gradient function inside a layer's call reads a tf.Module held by the layer only through one of its methods (a queue's dequeue, whose table is not trainable), and its grad takes no `variables`: TensorFlow hands grad only the trainable variables the forward pass reads, here none, so there is no TypeError (tensorflow/recommenders' TPU embedding "gradient trap"); the attribute's name ends in "embedding", which must not make it a model read
# source: https://github.com/tensorflow/recommenders/blob/main/tensorflow_recommenders/layers/embedding/tpu_embedding_layer.py
import tensorflow as tf
import keras


class Queue(tf.Module):
    def __init__(self):
        super().__init__()
        self.table = tf.Variable(tf.zeros([4, 2]), trainable=False)

    def dequeue(self):
        return tf.ones([2, 2]) + tf.reduce_sum(self.table)


class TrapLayer(keras.layers.Layer):
    def __init__(self):
        super().__init__()
        self._tpu_embedding = Queue()

    def build(self, input_shape):
        self.dummy = self.add_weight(shape=(1,), initializer="zeros")

    def call(self, inputs):
        @tf.custom_gradient
        def gradient_trap(dummy):
            activations = self._tpu_embedding.dequeue()

            def grad(upstream):
                return tf.zeros_like(dummy)

            return activations, grad

        return gradient_trap(self.dummy) + inputs


layer = TrapLayer()
x = tf.ones([2, 2])
with tf.GradientTape() as tape:
    loss = tf.reduce_sum(layer(x))
grads = tape.gradient(loss, layer.trainable_variables)
