# expect: GG302@31
# tensorflow: none
# fixed: nofix
# shape: physics-informed net taking dT/dx inside the model with a Lambda over [Txy, x] calling tf.gradients(Txy, x, unconnected_gradients='zero'), fed to a second network; the derivative does not depend on the biases of lay2 and Txy (affine layers after the last tanh), so fit gets None for exactly those two
# source: https://github.com/keras-team/keras/issues/13050
# family: 6
# gap: gradguard cannot see that a derivative taken inside the model (tf.gradients in a Lambda) drops the biases of the affine layers after the last nonlinearity, so fit asks for two gradients that cannot exist
import numpy as np
import tensorflow as tf
import keras


def custom_gradient(y, x):
    return tf.gradients(y, x, unconnected_gradients="zero")[0]


x = keras.Input(shape=(1,), name="x")
y = keras.Input(shape=(1,), name="y")
lay = keras.layers.Dense(16, name="lay1")(keras.layers.concatenate([x, y]))
lay = keras.layers.Activation("tanh", name="tanh1")(lay)
lay = keras.layers.Dense(16, name="lay2")(lay)
Txy = keras.layers.Dense(1, name="Txy")(lay)
dT_dx = keras.layers.Lambda(lambda F: custom_gradient(F[0], F[1]), output_shape=(1,))([Txy, x])
lay = keras.layers.Dense(16, activation="tanh", name="lay3")(dT_dx)
out = keras.layers.Dense(1, name="out")(lay)
model = keras.Model([x, y], out)
model.compile(optimizer="adam", loss="mse")

xs = np.random.rand(8, 1).astype(np.float32)
ys = np.random.rand(8, 1).astype(np.float32)
model.fit([xs, ys], np.zeros((8, 1), dtype=np.float32), batch_size=8, epochs=1, verbose=0)
