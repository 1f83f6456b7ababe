# expect: none
# tensorflow: ok
# shape: two separate `with tf.GradientTape() as tape:` blocks in one function (critic then actor, DDPG-style), each tape asked once; target critic evaluated outside any tape
import numpy as np
import tensorflow as tf
from tensorflow import keras

state_dim, action_dim = 3, 1
gamma, tau = 0.99, 0.05


def make_actor():
    return keras.Sequential([keras.Input((state_dim,)), keras.layers.Dense(16, activation="relu"), keras.layers.Dense(action_dim, activation="tanh")])


def make_critic():
    s = keras.Input((state_dim,))
    a = keras.Input((action_dim,))
    h = keras.layers.Concatenate()([s, a])
    h = keras.layers.Dense(16, activation="relu")(h)
    return keras.Model([s, a], keras.layers.Dense(1)(h))


actor, critic = make_actor(), make_critic()
target_actor, target_critic = make_actor(), make_critic()
target_actor.set_weights(actor.get_weights())
target_critic.set_weights(critic.get_weights())
actor_optimizer = keras.optimizers.Adam(1e-3)
critic_optimizer = keras.optimizers.Adam(2e-3)


def update(state_batch, action_batch, reward_batch, next_state_batch):
    target_actions = target_actor(next_state_batch, training=True)
    y = reward_batch + gamma * target_critic([next_state_batch, target_actions], training=True)
    with tf.GradientTape() as tape:
        critic_value = critic([state_batch, action_batch], training=True)
        critic_loss = tf.math.reduce_mean(tf.math.square(y - critic_value))
    critic_grad = tape.gradient(critic_loss, critic.trainable_variables)
    critic_optimizer.apply_gradients(zip(critic_grad, critic.trainable_variables))

    with tf.GradientTape() as tape:
        actions = actor(state_batch, training=True)
        critic_value = critic([state_batch, actions], training=True)
        actor_loss = -tf.math.reduce_mean(critic_value)
    actor_grad = tape.gradient(actor_loss, actor.trainable_variables)
    actor_optimizer.apply_gradients(zip(actor_grad, actor.trainable_variables))
    return critic_loss, actor_loss


def update_target(target_weights, weights):
    for a, b in zip(target_weights, weights):
        a.assign(b * tau + a * (1 - tau))


s = tf.convert_to_tensor(np.random.randn(8, state_dim).astype(np.float32))
a = tf.convert_to_tensor(np.random.uniform(-1, 1, (8, action_dim)).astype(np.float32))
r = tf.convert_to_tensor(np.random.randn(8, 1).astype(np.float32))
s2 = tf.convert_to_tensor(np.random.randn(8, state_dim).astype(np.float32))
c_loss, a_loss = update(s, a, r, s2)
update_target(target_actor.variables, actor.variables)
update_target(target_critic.variables, critic.variables)
print(float(c_loss), float(a_loss))
