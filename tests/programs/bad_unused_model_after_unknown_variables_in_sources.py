# expect: GG302@17
# tensorflow: none
# fixed: nofix
# shape: sources joined from a model, the variables of a TF Probability distribution (`list(dist.trainable_variables)`, nothing the model can name) and a model the loss never uses: the unknown part does not hide that `target_net`'s gradients are None (generator family, shrunk from bench/oracle.py seed 7 program 157)
import tensorflow as tf
import tensorflow_probability as tfp
import keras

model = keras.Sequential([keras.layers.Dense(1)])
target_net = keras.Sequential([keras.layers.Dense(1)])
target_net.build((None, 3))
loc = tf.Variable(tf.zeros(3))
dist = tfp.distributions.Normal(loc=loc, scale=1.0)
x = tf.ones((4, 3))
with tf.GradientTape() as tape:
    loss = tf.reduce_mean(model(x)) - tf.reduce_mean(dist.log_prob(x))
grads = tape.gradient(loss, model.trainable_variables + list(dist.trainable_variables) + target_net.trainable_variables)
