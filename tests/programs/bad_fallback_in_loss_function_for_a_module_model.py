# expect: GG313@20
# tensorflow: none
# fixed: nofix
# shape: a loss function called in the tape falls back to a constant for one of its terms (an if/else whose taken branch is the constant), and that term's model is a module global the function calls itself: the oracle's smallest missed program (its lost paths were stamped with the tape after the function's summary made them)
import tensorflow as tf
import keras

net = keras.Sequential([keras.layers.Dense(1)])
other = keras.layers.Dense(1)
net.build((None, 3))
other.build((None, 3))
x = tf.random.normal((4, 3))


def compute_loss(x):
    out_1 = other(x)
    if tf.reduce_max(tf.abs(x)) > 1e6:
        out_2 = net(x)
    else:
        out_2 = tf.constant(0.0)
    return tf.reduce_mean(out_1) + tf.reduce_mean(out_2)


with tf.GradientTape() as tape:
    loss = compute_loss(x)
grads = tape.gradient(loss, net.trainable_variables + other.trainable_variables)
