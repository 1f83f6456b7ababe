# expect: none
# tensorflow: ok
# shape: discrete SAC: log_alpha tf.Variable created outside the tapes, alpha = float(tf.exp(log_alpha)) detached for the policy loss, stop_gradient on the entropy term for the alpha loss, critic target built outside the tape (three tapes)
import numpy as np
import tensorflow as tf
from tensorflow import keras

n_actions, gamma = 3, 0.99
target_entropy = -0.98 * np.log(1.0 / n_actions)


def mlp(out, act=None):
    return keras.Sequential([keras.Input((4,)), keras.layers.Dense(16, activation="relu"), keras.layers.Dense(out, activation=act)])


policy, q_net, q_target = mlp(n_actions, "softmax"), mlp(n_actions), mlp(n_actions)
q_target.set_weights(q_net.get_weights())
log_alpha = tf.Variable(0.0, dtype=tf.float32)
pi_opt, q_opt, a_opt = keras.optimizers.Adam(3e-4), keras.optimizers.Adam(3e-4), keras.optimizers.Adam(3e-4)

s = np.random.randn(8, 4).astype(np.float32)
a = np.random.randint(0, n_actions, 8)
r = np.random.randn(8).astype(np.float32)
s2 = np.random.randn(8, 4).astype(np.float32)
d = np.zeros(8, dtype=np.float32)

alpha = float(tf.exp(log_alpha))
next_probs = policy(s2)
next_logp = tf.math.log(next_probs + 1e-8)
next_v = tf.reduce_sum(next_probs * (q_target(s2) - alpha * next_logp), axis=1)
q_backup = r + gamma * (1.0 - d) * next_v

with tf.GradientTape() as tape:
    q_sa = tf.reduce_sum(q_net(s) * tf.one_hot(a, n_actions), axis=1)
    q_loss = 0.5 * tf.reduce_mean(tf.square(q_sa - q_backup))
q_opt.apply_gradients(zip(tape.gradient(q_loss, q_net.trainable_variables), q_net.trainable_variables))

with tf.GradientTape() as tape:
    probs = policy(s)
    logp = tf.math.log(probs + 1e-8)
    pi_loss = tf.reduce_mean(tf.reduce_sum(probs * (alpha * logp - q_net(s)), axis=1))
pi_grads = tape.gradient(pi_loss, policy.trainable_variables)
pi_opt.apply_gradients(zip(pi_grads, policy.trainable_variables))

entropy = -tf.reduce_sum(probs * logp, axis=1)
with tf.GradientTape() as tape:
    alpha_loss = tf.reduce_mean(log_alpha * tf.stop_gradient(entropy - target_entropy))
alpha_grad = tape.gradient(alpha_loss, [log_alpha])
a_opt.apply_gradients(zip(alpha_grad, [log_alpha]))
print("q", q_loss.numpy(), "pi", pi_loss.numpy(), "alpha", float(tf.exp(log_alpha)))
