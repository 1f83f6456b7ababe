# expect: none
# tensorflow: ok
# shape: REINFORCE: actions from tf.random.categorical(...).numpy(), discounted returns with numpy before the tape, log-prob gathered with tf.one_hot(actions) (after a policy-gradient blog post)
import numpy as onp
import tensorflow as tf

n_actions = 3
gamma = 0.97
policy = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(16, activation="relu"), tf.keras.layers.Dense(n_actions)])
optimizer = tf.keras.optimizers.Adam(1e-2)

states, actions, rewards = [], [], []
s = onp.random.randn(4).astype(onp.float32)
for t in range(8):
    logits = policy(s[None])
    a = int(tf.random.categorical(logits, 1).numpy()[0, 0])
    states.append(s)
    actions.append(a)
    rewards.append(float(a == 1))
    s = onp.random.randn(4).astype(onp.float32)

returns = onp.zeros(len(rewards), dtype=onp.float32)
running = 0.0
for t in reversed(range(len(rewards))):
    running = rewards[t] + gamma * running
    returns[t] = running
returns = (returns - returns.mean()) / (returns.std() + 1e-8)

states = onp.vstack(states)
with tf.GradientTape() as tape:
    logits = policy(states, training=True)
    log_probs = tf.nn.log_softmax(logits)
    chosen = tf.reduce_sum(log_probs * tf.one_hot(actions, n_actions), axis=1)
    loss = -tf.reduce_mean(chosen * returns)
grads = tape.gradient(loss, policy.trainable_variables)
optimizer.apply_gradients(zip(grads, policy.trainable_variables))
print("policy loss", loss.numpy())
