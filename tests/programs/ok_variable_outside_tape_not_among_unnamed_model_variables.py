# expect: none
# tensorflow: ok
# shape: the sources are the variables of a model nobody can name (`getattr(agent, "policy").trainable_variables`), and a variable of its own (`log_alpha`, trained by another tape) is read outside the tape on purpose. Unnamed sources were taken to include every variable the loss reads, so GG301 claimed the loss gets no gradient for `log_alpha`, which is not asked for. Seen on real code (SAC: `exp(log_alpha)` before the critic's tape, the critic made by a library's class)
# family: 6
import types

import tensorflow as tf
from tensorflow import keras

agent = types.SimpleNamespace(policy=keras.Sequential([keras.layers.Dense(1)]))
log_alpha = tf.Variable(0.0)  # trained by its own tape, elsewhere
opt = keras.optimizers.SGD(0.1)
x = tf.ones((4, 3))

alpha = tf.exp(log_alpha)  # outside the tape on purpose: a constant for this step
with tf.GradientTape() as tape:
    loss = tf.reduce_mean(getattr(agent, "policy")(x)) * alpha
variables = getattr(agent, "policy").trainable_variables
grads = tape.gradient(loss, variables)
opt.apply_gradients(zip(grads, variables))
