# expect: none
# tensorflow: ok
# shape: a @tf.custom_gradient function reading a module variable returns a pair from its grad, the input's gradient first and the variable's second: the model before it and the variable both train (the near miss of GG315, whose grad returns None for the input)
import tensorflow as tf
import keras

gain = tf.Variable(2.0)


@tf.custom_gradient
def amplified(t):
    def grad(dy, variables=None):
        return dy * gain, [tf.reduce_sum(dy * t)]

    return t * gain, grad


model = keras.Sequential([keras.layers.Dense(1)])
x = tf.random.normal((4, 3))
with tf.GradientTape() as tape:
    loss = tf.reduce_mean(amplified(model(x)))
grads = tape.gradient(loss, [gain, *model.trainable_variables])
