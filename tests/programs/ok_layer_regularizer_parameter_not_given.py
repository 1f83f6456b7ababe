# expect: none
# tensorflow: ok
# shape: a layer's `add_weight` declares `regularizer=self.regularizer`, which `__init__` sets from its `regularizer=None` parameter; the model builds it without one, so `model.losses` is empty and a hand-written loss leaves nothing out. The declaration was taken for a penalty whatever the construction gave: a false GG311 (google/uncertainty-baselines' `VariableInputLayer`, never run before)
# family: 3
import tensorflow as tf


class VariableInput(tf.keras.layers.Layer):
    def __init__(self, shape, regularizer=None):
        super().__init__()
        self.shape_ = shape
        self.regularizer = tf.keras.regularizers.get(regularizer)

    def build(self, input_shape):
        self.variable = self.add_weight(shape=self.shape_, initializer="ones", regularizer=self.regularizer)

    def call(self, inputs):
        return inputs * self.variable


model = tf.keras.Sequential([VariableInput((3,)), tf.keras.layers.Dense(1)])
optimizer = tf.keras.optimizers.SGD(0.1)
x = tf.ones((4, 3))
with tf.GradientTape() as tape:
    loss = tf.reduce_sum(model(x))
grads = tape.gradient(loss, model.trainable_variables)
optimizer.apply_gradients(zip(grads, model.trainable_variables))
