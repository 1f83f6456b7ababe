# expect: GG404@14
# tensorflow: none
# fixed: nofix
# shape: an image-segmentation net meant to output a 0/1 mask; mse left the mask values well below 1, so a custom loss thresholds the prediction first, `tf.where(y_pred >= 0.5, 1.0, 0.0)`, and takes the squared difference to the true mask; compile + fit raises "No gradients provided for any variable" (the answer: the thresholded values have no gradient, keep the loss on the continuous sigmoid output and round only when predicting)
# source: http://xiaobeizi.cn/x/6JuuQQjucd
# family: 4
# heldout: 1
import numpy as np
import tensorflow as tf
import keras


def loss(y_true, y_pred):
    tresholded_pred = tf.where(y_pred >= 0.5, 1.0, 0.0)
    sq_diff = tf.square(y_true - tresholded_pred)
    return tf.reduce_mean(sq_diff, axis=-1)


model = keras.Sequential([
    keras.Input(shape=(16, 16, 3)),
    keras.layers.Conv2D(8, 3, padding="same", activation="relu"),
    keras.layers.Conv2D(1, 1, activation="sigmoid"),
])
model.compile(optimizer="adam", loss=loss)

images = np.random.rand(4, 16, 16, 3).astype(np.float32)
masks = np.random.randint(0, 2, size=(4, 16, 16, 1)).astype(np.float32)
model.fit(images, masks, batch_size=4, epochs=1, verbose=0)
