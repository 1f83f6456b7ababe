# expect: none
# tensorflow: ok
# shape: fake-quantization layer with the straight-through estimator x + tf.stop_gradient(tf.round(x) - x) (after a quantization-aware-training Q&A)
import numpy as np
import tensorflow as tf


class FakeQuant(tf.keras.layers.Layer):
    def __init__(self, levels=15, **kwargs):
        super().__init__(**kwargs)
        self.levels = float(levels)

    def call(self, x):
        x = tf.clip_by_value(x, 0.0, 1.0)
        scaled = x * self.levels
        rounded = scaled + tf.stop_gradient(tf.round(scaled) - scaled)
        return rounded / self.levels


inputs = tf.keras.Input(shape=(6,))
h = tf.keras.layers.Dense(8, activation="sigmoid")(inputs)
h = FakeQuant()(h)
outputs = tf.keras.layers.Dense(1)(h)
model = tf.keras.Model(inputs, outputs)

x = np.random.rand(8, 6).astype("float32")
y = np.random.rand(8, 1).astype("float32")
opt = tf.keras.optimizers.SGD(0.1)
with tf.GradientTape() as tape:
    pred = model(x, training=True)
    binary_code = tf.round(pred)  # only logged, never part of the loss
    loss = tf.reduce_mean(tf.square(pred - y))
grads = tape.gradient(loss, model.trainable_variables)
opt.apply_gradients(zip(grads, model.trainable_variables))
print(loss.numpy(), binary_code.numpy().ravel())
