# expect: none
# tensorflow: ok
# shape: `float(t)` inside a `tf.function`: AutoGraph converts the builtin into a cast to float32, so the gradient goes through (eagerly it would be a Python float) (generator family, shrunk from bench/oracle.py seed 7 program 155)
import tensorflow as tf
import keras

model = keras.layers.Dense(1)
x = tf.ones((4, 3))


@tf.function
def train_step(inputs):
    with tf.GradientTape() as tape:
        loss = float(tf.reduce_mean(model(inputs))) * 2.0
    return tape.gradient(loss, model.trainable_variables)


grads = train_step(x)
