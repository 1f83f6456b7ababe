# expect: none
# tensorflow: ok
# shape: the CartPole policy-gradient step of a textbook: inside the tape the action is sampled by comparing a uniform draw with `left_proba` (a boolean), and `y_target` is built from `tf.cast(action, tf.float32)`; the comparison and the cast have no gradient, but the loss also takes `left_proba` directly, so every gradient is present (the reader asked why `y_target` is built that way; the target is meant to carry no gradient), and a good tool must not report the comparison or the cast
# source: https://github.com/ageron/handson-ml2/issues/604
# family: 5
# heldout: 3
import numpy as np
import tensorflow as tf
import keras

model = keras.Sequential([
    keras.Input(shape=(4,)),
    keras.layers.Dense(5, activation="elu"),
    keras.layers.Dense(1, activation="sigmoid"),
])
loss_fn = keras.losses.BinaryCrossentropy()
optimizer = keras.optimizers.Nadam(0.01)


def play_one_step(obs, model, loss_fn):
    with tf.GradientTape() as tape:
        left_proba = model(obs[np.newaxis])
        action = (tf.random.uniform([1, 1]) > left_proba)
        y_target = tf.constant([[1.]]) - tf.cast(action, tf.float32)
        loss = tf.reduce_mean(loss_fn(y_target, left_proba))
    grads = tape.gradient(loss, model.trainable_variables)
    next_obs = obs + np.random.normal(scale=0.05, size=4).astype(np.float32)
    return next_obs, grads


obs = np.random.rand(4).astype(np.float32)
obs, grads = play_one_step(obs, model, loss_fn)
optimizer.apply_gradients(zip(grads, model.trainable_variables))
