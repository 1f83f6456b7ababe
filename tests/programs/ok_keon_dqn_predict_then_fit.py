# expect: none
# tensorflow: ok
# shape: classic keon/deep-q-learning replay(): targets from model.predict + np.amax, target_f[i][action] = target, then model.fit — predict only builds numpy targets
import random

import numpy as np
from tensorflow import keras

state_size, action_size, gamma = 4, 2, 0.95
model = keras.Sequential([
    keras.Input((state_size,)),
    keras.layers.Dense(24, activation="relu"),
    keras.layers.Dense(action_size, activation="linear"),
])
model.compile(loss="mse", optimizer=keras.optimizers.Adam(learning_rate=0.001))

memory = []
for _ in range(16):
    s = np.random.rand(1, state_size).astype("float32")
    s2 = np.random.rand(1, state_size).astype("float32")
    memory.append((s, random.randrange(action_size), random.random(), s2, random.random() < 0.2))

minibatch = random.sample(memory, 8)
states = np.vstack([m[0] for m in minibatch])
next_states = np.vstack([m[3] for m in minibatch])
next_q = model.predict(next_states, verbose=0)
target_f = model.predict(states, verbose=0)
for i, (state, action, reward, next_state, done) in enumerate(minibatch):
    target = reward
    if not done:
        target = reward + gamma * np.amax(next_q[i])
    target_f[i][action] = target
history = model.fit(states, target_f, epochs=1, batch_size=8, verbose=0)
print("loss", history.history["loss"][0])
