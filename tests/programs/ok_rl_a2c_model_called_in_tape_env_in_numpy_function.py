# expect: none
# tensorflow: ok
# shape: the A2C agent with the model called inside the tape on the current states (`actor_logits, value_logits = self.model(self.states)`) and only the environment step left in `tf.numpy_function(self.np_train_step, [actions], ...)`; the numpy side returns states, rewards and dones, which need no gradient, and every variable gets one
# source: https://github.com/tensorflow/tensorflow/issues/47288
# family: 4
# heldout: 1
import numpy as np
import tensorflow as tf
import keras

n_envs, n_actions, obs_shape = 4, 3, (8, 8, 1)


def create_a2c(input_shape, actor_units):
    inputs = keras.Input(shape=input_shape)
    x = keras.layers.Conv2D(4, 3, activation="relu")(inputs)
    x = keras.layers.Flatten()(x)
    actor = keras.layers.Dense(actor_units)(x)
    critic = keras.layers.Dense(actor_units)(x)
    return keras.Model(inputs, [actor, critic])


class A2C:
    def __init__(self, model, gamma=0.99, entropy_coef=0.01):
        self.model = model
        self.gamma = gamma
        self.entropy_coef = entropy_coef
        self.optimizer = keras.optimizers.Adam(7e-4)
        self.states = np.random.rand(n_envs, *obs_shape).astype(np.float32)
        self.batch_indices = tf.range(n_envs, dtype=tf.int64)

    def np_train_step(self, actions):
        states = self.states
        rewards = np.random.rand(n_envs).astype(np.float32)
        dones = (np.random.rand(n_envs) < 0.1).astype(np.float32)
        self.states = np.random.rand(n_envs, *obs_shape).astype(np.float32)
        return states, rewards, dones

    def train_step(self):
        with tf.GradientTape() as tape:
            actor_logits, value_logits = self.model(self.states)
            actions = tf.argmax(actor_logits, axis=-1)
            states, rewards, dones = tf.numpy_function(self.np_train_step, [actions], [tf.float32 for _ in range(3)])
            entropies = -tf.reduce_sum(tf.nn.softmax(actor_logits) * tf.nn.log_softmax(actor_logits), axis=-1)
            action_probs = tf.nn.softmax(actor_logits)
            values = tf.reduce_sum(action_probs * value_logits, axis=-1)
            action_indices = tf.stack([self.batch_indices, tf.cast(actions, tf.int64)], axis=1)
            selected_probs = tf.gather_nd(action_probs, action_indices)
            returns = rewards + self.gamma * values * (1.0 - dones)
            advantages = tf.stop_gradient(returns) - values
            actor_loss = -tf.reduce_mean(tf.math.log(selected_probs + 1e-8) * tf.stop_gradient(advantages))
            critic_loss = tf.reduce_mean(tf.square(advantages))
            loss = actor_loss + 0.5 * critic_loss - self.entropy_coef * tf.reduce_mean(entropies)
        grads = tape.gradient(loss, self.model.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.model.trainable_variables))


agent = A2C(create_a2c(obs_shape, n_actions))
agent.train_step()
