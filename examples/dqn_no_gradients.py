"""A DQN training step with the classic bugs behind
"ValueError: No gradients provided for any variable".

Run `gradguard check examples/dqn_no_gradients.py` to see them, and
`gradguard check --diff --unsafe-fixes examples/dqn_no_gradients.py` to see the fixes.
"""
import numpy as np
import tensorflow as tf
from tensorflow import keras

NUM_ACTIONS = 2
GAMMA = 0.99


def build_q_network():
    return keras.Sequential([
        keras.Input(shape=(4,)),
        keras.layers.Dense(32, activation="relu"),
        keras.layers.Dense(NUM_ACTIONS),
    ])


class DQNAgent:
    def __init__(self):
        self.model = build_q_network()
        self.target_model = build_q_network()
        self.optimizer = keras.optimizers.Adam(1e-3)

    def act(self, state, epsilon=0.1):
        if np.random.rand() < epsilon:
            return np.random.randint(NUM_ACTIONS)
        q_values = self.model(state[None, :])
        return int(np.argmax(q_values.numpy()[0]))  # fine: choosing an action needs no gradient

    def update_target(self):
        self.target_model.set_weights(self.model.get_weights())

    def train_step(self, states, actions, rewards, next_states, dones):
        with tf.GradientTape() as tape:
            # Bug 1: the bootstrapped target uses the trained network without tf.stop_gradient.
            next_q = self.model(next_states)
            targets = rewards + GAMMA * tf.reduce_max(next_q, axis=1) * (1.0 - dones)

            # Bug 2: the prediction leaves TensorFlow through .numpy() and np.round.
            q_values = np.round(self.model(states).numpy())
            chosen_q = tf.reduce_sum(q_values * tf.one_hot(actions, NUM_ACTIONS), axis=1)
            loss = tf.reduce_mean(tf.square(targets - chosen_q))

        gradients = tape.gradient(loss, self.model.trainable_variables)
        # Bug 3: a list of None is truthy, so this guard never skips anything.
        if gradients:
            self.optimizer.apply_gradients(zip(gradients, self.model.trainable_variables))
        return float(loss)


if __name__ == "__main__":
    agent = DQNAgent()
    batch = 8
    states = np.random.rand(batch, 4).astype("float32")
    next_states = np.random.rand(batch, 4).astype("float32")
    rewards = np.random.rand(batch).astype("float32")
    dones = np.zeros(batch, dtype="float32")
    actions = np.random.randint(0, NUM_ACTIONS, size=batch)
    print("loss", agent.train_step(states, actions, rewards, next_states, dones))
