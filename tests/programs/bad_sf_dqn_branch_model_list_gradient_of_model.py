# expect: GG306@37
# tensorflow: raises AttributeError
# fixed: ok
# shape: a successor-feature DQN agent keeps one successor network per action in a list, `self.branch_2_model`, built by one factory; `learn_mu` picks `training_model = self.branch_2_model[action_index]`, computes the target from every branch outside the tape, and asks `tape.gradient(loss, training_model)` for the model itself instead of its variables ("'Sequential' object has no attribute '_id'"; the fix: `training_model.trainable_variables`)
# source: https://github.com/keras-team/keras/issues/14287
# family: 1
import numpy as np
import tensorflow as tf
from tensorflow import keras


def build_mu(n_states):
    return keras.Sequential([keras.Input((n_states,)), keras.layers.Dense(8, activation="relu"), keras.layers.Dense(n_states)])


class SFAgent:
    def __init__(self, n_states, n_actions, gamma=0.9):
        self.n_actions, self.gamma = n_actions, gamma
        state_input = keras.Input((n_states,))
        self.branch_1_model = keras.Model(state_input, keras.layers.Dense(1, use_bias=False, name="R")(state_input))
        self.branch_2_model = [build_mu(n_states) for _ in range(n_actions)]
        self.optimizer = keras.optimizers.RMSprop()
        self.mse = keras.losses.MeanSquaredError()

    def learn_mu(self, state, state_, action_index):
        w = self.branch_1_model.get_layer("R").get_weights()[0]
        mus_ = []
        for i in range(self.n_actions):
            mus_.append(self.branch_2_model[i](state_))
        mus_ = np.squeeze(mus_)
        max_index = np.argmax(np.squeeze(np.matmul(mus_, w)), axis=0)
        training_model = self.branch_2_model[action_index]
        with tf.GradientTape() as tape:
            pred = training_model(state)
            label = state + self.gamma * mus_[max_index]
            loss = self.mse(label, pred)
        grads = tape.gradient(loss, training_model)
        self.optimizer.apply_gradients(zip(grads, training_model.trainable_variables))
        self.branch_2_model[action_index] = training_model


agent = SFAgent(n_states=4, n_actions=3)
state = np.random.rand(1, 4).astype("float32")
state_ = np.random.rand(1, 4).astype("float32")
agent.learn_mu(state, state_, action_index=1)
