# expect: GG402@25
# tensorflow: none
# fixed: nofix
# source: https://xue-jishu.com/tensorflow-zi-ding-yi-xun-lian-bu-zhou-shi-yong-bu-tong-de-sun-shi-han-shu
# shape: custom training step that takes tf.argmax of the logits and casts it before categorical_crossentropy
# heldout: 6
import tensorflow as tf
from tensorflow import keras

num_classes = 4
model = keras.Sequential([
    keras.Input(shape=(3, 1)),
    keras.layers.Flatten(),
    keras.layers.Dense(num_classes),
])
optimizer = keras.optimizers.Adam(1e-3)

# dummy batch
x_batch_train = tf.zeros([32, 3, 1], dtype="float32")
y_batch_train = tf.zeros([32], dtype="float32")

loss_fn = keras.losses.get("categorical_crossentropy")
with tf.GradientTape() as tape:
    logits = model(x_batch_train, training=True)
    prediction = tf.cast(tf.argmax(logits, axis=-1), y_batch_train.dtype)
    loss_value = loss_fn(y_batch_train, prediction)
grads = tape.gradient(loss_value, model.trainable_weights)
