# expect: GG401@20
# tensorflow: none
# fixed: ok
# shape: a Sequential regressor whose last layer is `Lambda(lambda t: keras.ops.round(t))`, to predict whole counts
# family: 3
import tensorflow as tf
import keras

model = keras.Sequential([
    keras.Input(shape=(6,)),
    keras.layers.Dense(12, activation="relu"),
    keras.layers.Dense(1, activation="softplus"),
    keras.layers.Lambda(lambda t: keras.ops.round(t)),
])
optimizer = keras.optimizers.Adam(1e-2)
x = tf.random.normal((16, 6))
counts = tf.constant([[float(i % 4)] for i in range(16)])

with tf.GradientTape() as tape:
    predicted = model(x, training=True)
    loss = tf.reduce_mean(tf.abs(counts - predicted))
gradients = tape.gradient(loss, model.trainable_variables)
optimizer.apply_gradients(zip(gradients, model.trainable_variables))
