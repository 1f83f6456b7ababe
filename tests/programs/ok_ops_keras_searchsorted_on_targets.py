# expect: none
# tensorflow: ok
# shape: the same ordinal regression; keras.ops.searchsorted bins the raw target values (data), and the loss compares the predicted score with the bin centre
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
centres = ops.convert_to_tensor([0.125, 0.375, 0.625, 0.875])
features = np.random.rand(16, 5).astype("float32")
raw_targets = np.random.rand(16).astype("float32")
target_centres = ops.take(centres, ops.searchsorted(edges, raw_targets))

for step in range(2):
    with tf.GradientTape() as tape:
        scores = ops.squeeze(model(features, training=True), axis=-1)
        loss = ops.mean(ops.square(scores - target_centres))
    grads = tape.gradient(loss, model.trainable_weights)
    optimizer.apply_gradients(zip(grads, model.trainable_weights))
