# expect: GG107@44
# tensorflow: none
# fixed: nofix
# shape: an A2C agent class whose `train_step` opens the tape and gets everything from `tf.numpy_function(self.np_train_step, [], [tf.float32 for _ in range(8)])`: the numpy side steps the environments and also runs the actor-critic model to produce `actor_logits` and `value_logits`, so the policy and value losses built from them inside the tape reach no variable ("ValueError: No gradients provided for any variable: ['conv2d/kernel:0', ...]")
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

    def np_train_step(self):
        actor_logits, value_logits = (np.asarray(t) for t in self.model(self.states))
        actions = np.argmax(actor_logits, axis=-1)
        rewards = np.random.rand(n_envs).astype(np.float32)
        dones = (np.random.rand(n_envs) < 0.1).astype(np.float32)
        entropies = np.zeros(n_envs, np.float32)
        self.states = np.random.rand(n_envs, *obs_shape).astype(np.float32)
        return [a.astype(np.float32) for a in (self.states, rewards, actions, value_logits, dones, self.states, entropies, actor_logits)]

    def train_step(self):
        with tf.GradientTape() as tape:
            (_, rewards, actions, value_logits, dones, _, entropies, actor_logits) = tf.numpy_function(
                self.np_train_step, [], [tf.float32 for _ in range(8)]
            )
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
