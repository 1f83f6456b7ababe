# expect: none
# tensorflow: ok
# shape: SAC's temperature update in TF-Agents: `alpha_variable = [self._log_alpha]` (the variable made by a helper), a tape with `watch_accessed_variables=False` that watches that list, and the loss computed by a method (after tensorflow/agents tf_agents/agents/sac/sac_agent.py)
import numpy as np
import tensorflow as tf


def create_variable(name, initial_value=0, dtype=tf.float32, trainable=False):
    initial_value = tf.convert_to_tensor(initial_value, dtype=dtype)
    return tf.Variable(initial_value, trainable=trainable, dtype=dtype, name=name)


class SacAgent:
    def __init__(self, target_entropy=-1.0):
        self._log_alpha = create_variable("initial_log_alpha", initial_value=0.0, trainable=True)
        self._target_entropy = target_entropy

    def alpha_loss(self, log_pi):
        entropy_diff = tf.stop_gradient(-log_pi - self._target_entropy)
        return tf.reduce_mean(self._log_alpha * entropy_diff)

    def train_alpha(self, log_pi):
        alpha_variable = [self._log_alpha]
        with tf.GradientTape(watch_accessed_variables=False) as tape:
            assert alpha_variable, "No alpha variable to optimize."
            tape.watch(alpha_variable)
            alpha_loss = 1.0 * self.alpha_loss(log_pi)
        return tape.gradient(alpha_loss, alpha_variable)


SacAgent().train_alpha(tf.constant(np.random.rand(8).astype("float32")))
