# expect: none
# tensorflow: ok
# shape: DQN target computed with .numpy()/np.amax from the trained model before the tape; the prediction stays in TF (after a Stack Overflow answer)
import numpy as np
import tensorflow as tf

GAMMA = 0.9
model = tf.keras.Sequential([
    tf.keras.layers.Input(shape=(4,)),
    tf.keras.layers.Dense(24, activation="relu"),
    tf.keras.layers.Dense(2, activation="linear"),
])
optimizer = tf.keras.optimizers.SGD(learning_rate=0.01)
mse = tf.keras.losses.MeanSquaredError()

states = np.random.randn(8, 4).astype(np.float32)
next_states = np.random.randn(8, 4).astype(np.float32)
actions = np.random.randint(2, size=8)
rewards = np.random.randn(8).astype(np.float32)
terminal = np.random.rand(8) < 0.2

q_next = model(next_states).numpy()
targets = rewards + GAMMA * np.amax(q_next, axis=1) * (1 - terminal)
q_target = model(states).numpy()
q_target[np.arange(8), actions] = targets

with tf.GradientTape() as tape:
    q_pred = model(states, training=True)
    loss = mse(q_target, q_pred)
gradients = tape.gradient(loss, model.trainable_variables)
optimizer.apply_gradients(zip(gradients, model.trainable_variables))
print(f"loss={loss.numpy():.4f}")
