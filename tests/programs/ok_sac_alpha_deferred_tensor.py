# expect: none
# tensorflow: ok
# shape: SAC's temperature: `alpha = DeferredTensor(log_alpha, tf.exp)` set in one branch of __init__ (a float in the other) re-reads `log_alpha` at each use, so the alpha loss trains `log_alpha` (after keiohta/tf2rl tf2rl/algos/sac.py)
import numpy as np
import tensorflow as tf
import tensorflow_probability as tfp


class Sac:
    def __init__(self, auto_alpha=True, alpha=0.2, action_dim=2):
        self.auto_alpha = auto_alpha
        if auto_alpha:
            self.log_alpha = tf.Variable(0.0, dtype=tf.float32)
            self.alpha = tfp.util.DeferredTensor(pretransformed_input=self.log_alpha, transform_fn=tf.exp)
            self.target_alpha = -action_dim
        else:
            self.alpha = alpha

    def train_alpha(self, logp):
        with tf.GradientTape() as tape:
            alpha_loss = -tf.reduce_mean(self.alpha * tf.stop_gradient(logp + self.target_alpha))
        return tape.gradient(alpha_loss, [self.log_alpha])


Sac().train_alpha(tf.constant(np.random.rand(8).astype("float32")))
