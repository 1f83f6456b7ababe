# expect: GG311@27
# tensorflow: ok
# fixed: differs
# shape: the same layer built with `regularizer="l2"`: its weight's penalty is in `model.losses`, which the hand-written loss never adds (the near miss of ok_layer_regularizer_parameter_not_given.py)
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


model = tf.keras.Sequential([VariableInput((3,), regularizer="l2"), tf.keras.layers.Dense(1)])
optimizer = tf.keras.optimizers.SGD(0.1)
x = tf.ones((4, 3))
with tf.GradientTape() as tape:
    loss = tf.reduce_sum(model(x))
grads = tape.gradient(loss, model.trainable_variables)
optimizer.apply_gradients(zip(grads, model.trainable_variables))
