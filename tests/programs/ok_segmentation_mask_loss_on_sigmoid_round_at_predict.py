# expect: none
# tensorflow: ok
# shape: the answer to the thresholded-mask loss: train on the continuous sigmoid output (squared difference to the true mask, no threshold inside the loss) and binarise only the predictions, `np.round(model.predict(images))`, after training
# source: http://xiaobeizi.cn/x/6JuuQQjucd
# family: 4
# heldout: 1
import numpy as np
import tensorflow as tf
import keras


def loss(y_true, y_pred):
    sq_diff = tf.square(y_true - y_pred)
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
binary_masks = np.round(model.predict(images, verbose=0))
