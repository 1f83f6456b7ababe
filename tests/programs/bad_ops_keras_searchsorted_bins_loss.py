# expect: GG402@25
# tensorflow: none
# fixed: nofix
# shape: ordinal regression written with Keras 3 ops: the predicted score is binned with keras.ops.searchsorted and the bin index is compared to the target bin
# family: 4
import numpy as np
import keras
from keras import ops
import tensorflow as tf

model = keras.Sequential([
    keras.Input(shape=(5,)),
    keras.layers.Dense(16, activation="relu"),
    keras.layers.Dense(1, activation="sigmoid"),
])
optimizer = keras.optimizers.SGD(0.01)

edges = ops.convert_to_tensor([0.25, 0.5, 0.75])
features = np.random.rand(16, 5).astype("float32")
target_bins = np.random.randint(0, 4, size=(16,)).astype("float32")

for step in range(2):
    with tf.GradientTape() as tape:
        scores = ops.squeeze(model(features, training=True), axis=-1)
        bins = ops.cast(ops.searchsorted(edges, scores), "float32")
        loss = ops.mean(ops.square(bins - target_bins))
    grads = tape.gradient(loss, model.trainable_weights)
    optimizer.apply_gradients(zip(grads, model.trainable_weights))
