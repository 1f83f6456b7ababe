# expect: GG311@15
# tensorflow: ok
# fixed: differs
# shape: a Sequential whose Dense layers declare kernel_regularizer, trained through tape.gradient(..., unconnected_gradients="zero"): zeros for None change nothing about the penalties, which the hand-written loss never adds (from the oracle's `construct` dimension: GG311 read only the gradient calls without ZERO)
import tensorflow as tf
import keras

model = keras.Sequential([keras.layers.Dense(4, kernel_regularizer=keras.regularizers.L2(0.01), activation="tanh"),
                          keras.layers.Dense(1, kernel_regularizer=keras.regularizers.L2(0.01))])
model.build((None, 3))
x = tf.random.normal((4, 3))
y = tf.ones((4, 1))
with tf.GradientTape() as tape:
    loss = tf.reduce_mean(tf.square(y - model(x)))
grads = tape.gradient(loss, model.trainable_variables, unconnected_gradients="zero")
