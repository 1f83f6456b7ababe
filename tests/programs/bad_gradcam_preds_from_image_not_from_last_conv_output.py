# expect: GG301@28 GG302@28
# tensorflow: none
# fixed: nofix
# shape: Grad-CAM on a small functional CNN: inside the tape `last_conv_output` comes from a second model cut at `last_conv` and is watched, but `preds` is computed by the full model from the image again, so `tape.gradient(preds[:, top_class_index], last_conv_output)` has no path and returns None (and the target is sliced in the `tape.gradient` call, outside the tape, a second break: either alone leaves the gradient None), and `tf.reduce_mean(grads, ...)` fails on it (the maintainers: the two arguments are not connected; the keras.io recipe builds one model returning both the conv output and the predictions)
# source: https://github.com/tensorflow/tensorflow/issues/62797
# family: 6
# gap: gradguard reports GG302 only: it reports GG301 for a target sliced in the `tape.gradient` call when the source is reachable (a draft of the fixed twin, one model returning both outputs but the slice still in the `tape.gradient` call, got GG301 at that call), but here, I think, once the source `last_conv_output` is found unused by the loss it does not also report the slice taken outside the tape; a good tool reports both, since fixing either alone still gives None
# heldout: 3
import numpy as np
import tensorflow as tf
import keras

inputs = keras.Input(shape=(16, 16, 3))
h = keras.layers.Conv2D(8, 3, activation="relu")(inputs)
h = keras.layers.Conv2D(8, 3, activation="relu", name="last_conv")(h)
h = keras.layers.GlobalAveragePooling2D()(h)
outputs = keras.layers.Dense(5, activation="softmax")(h)
model = keras.Model(inputs, outputs)

last_conv_layer_model = keras.Model(model.inputs, model.get_layer("last_conv").output)
img = np.random.rand(1, 16, 16, 3).astype(np.float32)

with tf.GradientTape() as tape:
    last_conv_output = last_conv_layer_model(img)
    tape.watch(last_conv_output)
    preds = model(img)
    top_class_index = tf.argmax(preds[0])
grads = tape.gradient(preds[:, top_class_index], last_conv_output)
pooled_grads = tf.reduce_mean(grads, axis=(0, 1, 2))
heatmap = tf.reduce_sum(last_conv_output[0] * pooled_grads, axis=-1)
