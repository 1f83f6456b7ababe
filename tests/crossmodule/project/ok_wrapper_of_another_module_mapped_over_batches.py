# expect: none
# tensorflow: ok
# shape: a helper of another module wraps the loss function in a function it defines and returns (`logged(loss_fn)`), and the wrapper is handed to `map`. The returned function is a node of the other module's file: taken for one of this file, its analysis crashed gradguard (IndexError; seen in cleverhans, `attack_server(cleverhans_attack_wrapper(attack))`)
import tensorflow as tf

from rlkit.predict import logged

net = tf.keras.Sequential([tf.keras.layers.Dense(2)])
states = tf.random.normal((8, 4))
targets = tf.random.normal((8, 2))


def loss_fn(s, t):
    return tf.reduce_mean(tf.square(t - net(s)))


with tf.GradientTape() as tape:
    loss = tf.add_n(list(map(logged(loss_fn), [states], [targets])))
grads = tape.gradient(loss, net.trainable_variables)
