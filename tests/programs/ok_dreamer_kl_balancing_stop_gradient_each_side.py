# expect: none
# tensorflow: ok
# shape: DreamerV2's KL balancing between the world model's posterior and prior heads: the loss is the weighted average of the KL with a stopped posterior (trains the prior) and the KL with a stopped prior (trains the posterior), so each stop_gradient cuts one side of one term while the other term keeps it alive; the reversed `value` KL is computed for logging only and is not in the loss (the maintainer: "The value you found in the code is only used for logging. It is not what the gradient is computed of")
# source: https://github.com/danijar/dreamerv2/issues/4
# family: 5
import numpy as np
import tensorflow as tf
from tensorflow import keras


def gaussian_kl(mean_a, std_a, mean_b, std_b):
    return tf.reduce_sum(tf.math.log(std_b / std_a) + (tf.square(std_a) + tf.square(mean_a - mean_b)) / (2 * tf.square(std_b)) - 0.5, axis=-1)


def dist(stats):
    mean, raw_std = tf.split(stats, 2, axis=-1)
    return mean, tf.nn.softplus(raw_std) + 0.1


posterior_net = keras.Sequential([keras.Input((6,)), keras.layers.Dense(8, activation="elu"), keras.layers.Dense(4)])
prior_net = keras.Sequential([keras.Input((3,)), keras.layers.Dense(8, activation="elu"), keras.layers.Dense(4)])
optimizer = keras.optimizers.Adam(1e-3)
embed = np.random.rand(8, 6).astype("float32")
deter = np.random.rand(8, 3).astype("float32")
balance = 0.8

with tf.GradientTape() as tape:
    post = posterior_net(embed)
    prior = prior_net(deter)
    sg = tf.stop_gradient
    value = gaussian_kl(*dist(prior), *dist(sg(post)))
    loss_lhs = gaussian_kl(*dist(sg(post)), *dist(prior))
    loss_rhs = gaussian_kl(*dist(post), *dist(sg(prior)))
    kl_loss = tf.reduce_mean(balance * loss_lhs + (1 - balance) * loss_rhs)
variables = posterior_net.trainable_variables + prior_net.trainable_variables
grads = tape.gradient(kl_loss, variables)
optimizer.apply_gradients(zip(grads, variables))
print("kl value (logged):", float(tf.reduce_mean(value)))
