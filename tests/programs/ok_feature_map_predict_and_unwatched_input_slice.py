# expect: none
# tensorflow: ok
# source: https://isolution.pro/q/so69914111/tensorflow-2-wa-kobai-o-keisanshimasen
# shape: feature-map visualisation that watches the input image, calls the sub-model directly and takes the gradient w.r.t. the image
# heldout: 6
import numpy as np
import tensorflow as tf
from tensorflow import keras

base = keras.Sequential([
    keras.Input(shape=(16, 16, 3)),
    keras.layers.Conv2D(8, 3, padding="same", activation="relu"),
    keras.layers.Conv2D(8, 3, padding="same", activation="relu"),
    keras.layers.GlobalAveragePooling2D(),
    keras.layers.Dense(5),
])
layer, feature_map = 1, 2

pic = np.random.uniform(size=(1, 16, 16, 3)).astype(np.float32)
pic = tf.convert_to_tensor(pic)
model = keras.Model(inputs=base.inputs, outputs=base.layers[layer].output)
with tf.GradientTape() as tape:
    tape.watch(pic)
    # output of the chosen feature map only
    predictions = model(pic)[0][:, :, feature_map]
    loss = tf.reduce_mean(predictions)
gradients = tape.gradient(loss, pic)
