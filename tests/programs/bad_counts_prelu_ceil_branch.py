# expect: GG401@16
# tensorflow: none
# fixed: ok
# shape: count regressor with a PReLU branch rounded up with keras.ops.ceil (tf.math.ceil in the thread) and concatenated with the Dense features it came from; only the PReLU's alpha lies behind the ceil, and fit warns that p_re_lu/alpha has no gradient
# source: https://github.com/keras-team/keras/issues/15716
# family: 4
import numpy as np
import tensorflow as tf
import keras
from keras import ops

inputs = keras.Input(shape=(6,))
features = keras.layers.Dense(8)(inputs)
activated = keras.layers.PReLU()(features)
# whole units only
units = ops.ceil(activated)
merged = keras.layers.Concatenate()([features, units])
outputs = keras.layers.Dense(1, activation="softplus")(merged)
model = keras.Model(inputs, outputs)
model.compile(optimizer="adam", loss="poisson", run_eagerly=True)

x_train = np.random.rand(8, 6).astype(np.float32)
y_train = np.random.randint(0, 5, size=(8, 1)).astype(np.float32)
model.fit(x_train, y_train, batch_size=8, epochs=1, verbose=0)
