# expect: GG301@14
# tensorflow: none
# fixed: nofix
# shape: the prediction is computed before the tape opens, and the loss inside the tape adds the model's L1 penalties (`sum(model.losses)`): only the regularized kernels get a gradient, from the penalty alone, and the biases get None (found by the oracle, seed 35, program 416)
import tensorflow as tf
import keras

inputs = keras.Input((3,))
hidden = keras.layers.Dense(4, kernel_regularizer=keras.regularizers.L1(0.01))(inputs)
model = keras.Model(inputs, keras.layers.Dense(1, kernel_regularizer=keras.regularizers.L1(0.01))(hidden))
x = tf.random.normal((4, 3))
y = tf.ones((4, 1))

prediction = model(x)
with tf.GradientTape() as tape:
    loss = tf.reduce_mean(tf.square(y - prediction))
    loss += sum(model.losses)
grads = tape.gradient(loss, model.trainable_variables)
