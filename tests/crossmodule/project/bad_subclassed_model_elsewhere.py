# expect: GG101
# tensorflow: none
# shape: a keras.Model subclass from the package, called inside the tape, leaves through .numpy()
import tensorflow as tf

from rlkit import QNetwork

scorer = QNetwork()
states = tf.random.normal((8, 4))
scorer(states)  # build the weights
targets = tf.random.normal((8, 2))

with tf.GradientTape() as tape:
    q = scorer(states).numpy()
    loss = tf.reduce_mean(tf.square(targets - q))
grads = tape.gradient(loss, scorer.trainable_variables)
