# expect: GG404@15
# tensorflow: none
# fixed: nofix
# shape: segmentation net trained with a Dice loss whose threshold became a hyperparameter: y_pred > threshold, cast to float, before the overlap; compile(loss=dice_loss(threshold)) + fit
# source: https://github.com/j-c-carr/lightcones/issues/21
# family: 4
import numpy as np
import tensorflow as tf
import keras


def dice_loss(threshold=0.5, smooth=1.0):
    def loss(y_true, y_pred):
        # binarise the prediction before measuring the overlap
        y_bin = tf.cast(y_pred > threshold, tf.float32)
        intersection = tf.reduce_sum(y_true * y_bin)
        union = tf.reduce_sum(y_true) + tf.reduce_sum(y_bin)
        return 1.0 - (2.0 * intersection + smooth) / (union + smooth)
    return loss


model = keras.Sequential([
    keras.Input(shape=(8, 8, 8, 1)),
    keras.layers.Conv3D(4, 3, padding="same", activation="relu"),
    keras.layers.Conv3D(1, 1, activation="sigmoid"),
])
model.compile(optimizer="adam", loss=dice_loss(threshold=0.4), run_eagerly=True)

volumes = np.random.rand(2, 8, 8, 8, 1).astype(np.float32)
masks = np.random.randint(0, 2, size=(2, 8, 8, 8, 1)).astype(np.float32)
model.fit(volumes, masks, batch_size=2, epochs=1, verbose=0)
