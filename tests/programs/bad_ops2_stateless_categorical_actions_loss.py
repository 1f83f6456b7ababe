# expect: GG405@23
# tensorflow: none
# fixed: nofix
# shape: policy network trained by regressing the sampled actions (tf.random.stateless_categorical of its logits) onto expert actions; the samples are integers from the StatelessMultinomial op, which is registered not differentiable
# family: 4
import numpy as np
import tensorflow as tf
import keras

n_actions = 4
policy = keras.Sequential([
    keras.Input(shape=(6,)),
    keras.layers.Dense(16, activation="relu"),
    keras.layers.Dense(n_actions),
])
optimizer = keras.optimizers.Adam(1e-3)

states = np.random.rand(8, 6).astype("float32")
expert_actions = np.random.randint(0, n_actions, size=(8, 1)).astype("float32")

with tf.GradientTape() as tape:
    logits = policy(states, training=True)
    sampled = tf.random.stateless_categorical(logits, 1, seed=[7, 3])
    loss = tf.reduce_mean(tf.square(tf.cast(sampled, tf.float32) - expert_actions))
grads = tape.gradient(loss, policy.trainable_variables)
optimizer.apply_gradients(zip(grads, policy.trainable_variables))
