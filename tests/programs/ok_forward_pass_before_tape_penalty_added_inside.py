# expect: none
# tensorflow: ok
# shape: the prediction computed inside the tape that adds the model's L1 penalties: every variable gets its gradient
import tensorflow as tf
import keras

inputs = keras.Input((3,))
hidden = keras.layers.Dense(4, kernel_regularizer=keras.regularizers.L1(0.01))(inputs)
model = keras.Model(inputs, keras.layers.Dense(1, kernel_regularizer=keras.regularizers.L1(0.01))(hidden))
x = tf.random.normal((4, 3))
y = tf.ones((4, 1))

with tf.GradientTape() as tape:
    prediction = model(x)
    loss = tf.reduce_mean(tf.square(y - prediction))
    loss += sum(model.losses)
grads = tape.gradient(loss, model.trainable_variables)
