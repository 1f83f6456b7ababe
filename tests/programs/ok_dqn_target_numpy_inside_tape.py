# expect: none
# tensorflow: ok
# shape: next-state Q values taken through .numpy() INSIDE the tape (acts like stop_gradient); current Q(s, a) stays in TF (after a Stack Overflow question about DQN in TF2)
import numpy as onp
import tensorflow as tf

n_actions = 2
discount = 0.99
q_net = tf.keras.Sequential([
    tf.keras.Input(shape=(4,)),
    tf.keras.layers.Dense(32, activation="relu"),
    tf.keras.layers.Dense(n_actions),
])
optimizer = tf.keras.optimizers.Adam(1e-3)

obs = onp.random.normal(size=(8, 4)).astype(onp.float32)
next_obs = onp.random.normal(size=(8, 4)).astype(onp.float32)
act = onp.random.randint(0, n_actions, size=(8,))
rew = onp.random.uniform(size=(8,)).astype(onp.float32)
done = onp.zeros(8, dtype=onp.float32)

with tf.GradientTape() as tape:
    next_q = q_net(next_obs).numpy()
    y = rew + discount * onp.max(next_q, axis=1) * (1.0 - done)
    q = q_net(obs)
    q_sa = tf.reduce_sum(q * tf.one_hot(act, n_actions), axis=1)
    loss = tf.reduce_mean(tf.square(y - q_sa))
grads = tape.gradient(loss, q_net.trainable_variables)
optimizer.apply_gradients(zip(grads, q_net.trainable_variables))
print("td loss", loss.numpy())
