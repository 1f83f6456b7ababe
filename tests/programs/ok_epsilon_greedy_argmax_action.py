# expect: none
# tensorflow: ok
# shape: epsilon-greedy action selection with np.argmax(model(state).numpy()) in the acting loop, then a TD step with a one_hot mask (after a CartPole DQN tutorial, Keras 3 import style)
import numpy as np
import keras
import tensorflow as tf

n_actions = 3
epsilon = 0.3
model = keras.Sequential([keras.Input((5,)), keras.layers.Dense(16, activation="relu"), keras.layers.Dense(n_actions)])
optimizer = keras.optimizers.Adam(learning_rate=1e-3)


def choose_action(state):
    if np.random.rand() < epsilon:
        return np.random.randint(n_actions)
    q = model(state[np.newaxis, :])
    return int(np.argmax(q.numpy()[0]))


transitions = []
state = np.random.randn(5).astype("float32")
for t in range(8):
    action = choose_action(state)
    next_state = np.random.randn(5).astype("float32")
    reward = 1.0 if action == 0 else 0.0
    transitions.append((state, action, reward, next_state))
    state = next_state

s = np.array([tr[0] for tr in transitions])
a = np.array([tr[1] for tr in transitions])
r = np.array([tr[2] for tr in transitions], dtype="float32")
s2 = np.array([tr[3] for tr in transitions])

best_next = tf.argmax(model(s2), axis=1)
target = r + 0.9 * tf.reduce_sum(model(s2) * tf.one_hot(best_next, n_actions), axis=1)

with tf.GradientTape() as tape:
    q = model(s, training=True)
    q_a = tf.reduce_sum(q * tf.one_hot(a, n_actions), axis=1)
    loss = keras.losses.mean_squared_error(tf.stop_gradient(target), q_a)
grads = tape.gradient(loss, model.trainable_variables)
optimizer.apply_gradients(zip(grads, model.trainable_variables))
print("greedy action now:", choose_action(state))
