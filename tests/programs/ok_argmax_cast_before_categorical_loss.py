# expect: none
# tensorflow: ok
# source: https://xue-jishu.com/tensorflow-zi-ding-yi-xun-lian-bu-zhou-shi-yong-bu-tong-de-sun-shi-han-shu
# shape: custom training step passing the model's class probabilities and one-hot labels straight to categorical_crossentropy
# heldout: 6
import tensorflow as tf
from tensorflow import keras

num_classes = 4
model = keras.Sequential([
    keras.Input(shape=(3, 1)),
    keras.layers.Flatten(),
    keras.layers.Dense(num_classes, activation="softmax"),
])
optimizer = keras.optimizers.Adam(1e-3)

# dummy batch, labels one-hot encoded as categorical_crossentropy expects
x_batch_train = tf.zeros([32, 3, 1], dtype="float32")
y_batch_train = tf.one_hot(tf.zeros([32], dtype=tf.int32), num_classes)

loss_fn = keras.losses.get("categorical_crossentropy")
with tf.GradientTape() as tape:
    probabilities = model(x_batch_train, training=True)
    loss_value = tf.reduce_mean(loss_fn(y_batch_train, probabilities))
grads = tape.gradient(loss_value, model.trainable_weights)
