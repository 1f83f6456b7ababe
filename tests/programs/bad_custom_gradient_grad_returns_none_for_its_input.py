# expect: GG315@23
# tensorflow: none
# fixed: nofix
# shape: a @tf.custom_gradient function whose grad returns None (for its one input) sits on the first model's path, after the model's output went through a list and an index; the critic beside it still trains, the model's variables get None (shrunk from the oracle's gen_20261202_121, the `construct` dimension)
import tensorflow as tf
import keras


@tf.custom_gradient
def scaled(t):
    y = t * 2.0

    def grad(dy):
        return None

    return y, grad


model = keras.Sequential([keras.layers.Dense(4, activation="tanh"), keras.layers.Dense(1)])
critic = keras.Sequential([keras.layers.Dense(1)])
x = tf.random.normal((4, 3))
with tf.GradientTape() as tape:
    out_1 = scaled((model(x),)[0])
    loss = tf.reduce_mean(out_1) + tf.reduce_mean(critic(x))
grads = tape.gradient(loss, [*model.trainable_variables, *critic.trainable_variables])
