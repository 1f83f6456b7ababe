# expect: none
# tensorflow: ok
# shape: `GradientTape(watch_accessed_variables=False)` that watches the chosen variables (the whole list, and one by one from a nested structure with tf.nest.map_structure), then asks for them or for `tape.watched_variables()` (after tensorflow/agents tf_agents/agents/sac/sac_agent.py `tape.watch(trainable_critic_variables)` and tensorflow/docs site/en/guide/autodiff.ipynb "Controlling what the tape watches")
import numpy as np
import tensorflow as tf

x = tf.constant(np.random.rand(8, 3).astype("float32"))
critic_1 = [tf.Variable(tf.random.normal((3, 1))), tf.Variable(tf.zeros((1,)))]
critic_2 = [tf.Variable(tf.random.normal((3, 1))), tf.Variable(tf.zeros((1,)))]
trainable_critic_variables = critic_1 + critic_2


def critic(variables, inputs):
    kernel, bias = variables
    return tf.matmul(inputs, kernel) + bias


with tf.GradientTape(watch_accessed_variables=False) as tape:
    tape.watch(trainable_critic_variables)
    critic_loss = tf.reduce_mean(critic(critic_1, x) + critic(critic_2, x))
critic_grads = tape.gradient(critic_loss, trainable_critic_variables)

with tf.GradientTape(watch_accessed_variables=False) as tape:
    tf.nest.map_structure(tape.watch, {"first": critic_1})
    loss_1 = tf.reduce_mean(critic(critic_1, x))
grads_1 = tape.gradient(loss_1, tape.watched_variables())
