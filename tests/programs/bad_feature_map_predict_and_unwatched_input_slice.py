# expect: GG105@26 GG306@28
# tensorflow: none
# fixed: ok
# source: https://isolution.pro/q/so69914111/tensorflow-2-wa-kobai-o-keisanshimasen
# shape: feature-map visualisation that takes a sub-model's model.predict output inside the tape and asks for the gradient w.r.t. a slice of the input image
# gap: the unwatched source `pic[0]` (GG306) hides the `.predict()` inside the tape, which gradguard reports (GG105) once the source is watched; both lose the gradient
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
    # output of the chosen feature map only
    predictions = model.predict(pic, steps=1, verbose=0)[0][:, :, feature_map]
    loss = tf.reduce_mean(predictions)
gradients = tape.gradient(loss, pic[0])
