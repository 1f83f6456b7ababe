# expect: GG401@21
# tensorflow: none
# fixed: ok
# shape: a Sequential with `Lambda(tf.round)` between two Dense layers: the last layer trains, the first never gets a gradient
# family: 3
import tensorflow as tf
import keras

model = keras.Sequential([
    keras.Input(shape=(5,)),
    keras.layers.Dense(8, activation="relu"),
    keras.layers.Lambda(lambda t: tf.round(t * 4.0) / 4.0),
    keras.layers.Dense(1),
])
optimizer = keras.optimizers.Adam(1e-2)
x = tf.random.normal((16, 5))
y = tf.random.normal((16, 1))
model(x)

with tf.GradientTape() as tape:
    loss = tf.reduce_mean(tf.square(y - model(x, training=True)))
gradients = tape.gradient(loss, model.trainable_variables)
optimizer.apply_gradients(zip(gradients, model.trainable_variables))
