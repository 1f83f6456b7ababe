# expect: GG403@13
# tensorflow: ok
# fixed: nofix
# shape: the prediction goes through an integer cast, so the data loss gives the model nothing, but the loss adds model.losses and the Dense layers declare activity_regularizer: the penalties of their outputs still give every variable a gradient, so TensorFlow returns no None and training follows the penalty alone (from the oracle's `construct` dimension, gen_20261202_9464: "no gradient" was claimed there)
import tensorflow as tf
import keras

model = keras.Sequential([keras.layers.Dense(4, activity_regularizer=keras.regularizers.L1(0.01), activation="tanh"),
                          keras.layers.Dense(1, activity_regularizer=keras.regularizers.L1(0.01))])
model.build((None, 3))
x = tf.random.normal((4, 3))
with tf.GradientTape() as tape:
    levels = tf.cast(tf.cast(model(x), tf.int32), tf.float32)
    loss = tf.reduce_mean(levels) + tf.add_n(model.losses)
grads = tape.gradient(loss, model.trainable_variables)
