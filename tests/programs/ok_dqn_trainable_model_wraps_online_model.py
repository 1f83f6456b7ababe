# expect: none
# tensorflow: ok
# shape: keras-rl's DQN builds `self.trainable_model`, a functional model that calls `self.model` on its input and computes the masked loss in a Lambda layer next to `y_true` and `mask` inputs; training the wrapper trains `self.model`, because the wrapper's variables are the online model's own, so the tape over `trainable_model` gives every variable of `model` a gradient (the thread asked how `self.model` learns when `self.trainable_model` is fit)
# source: https://github.com/keras-rl/keras-rl/issues/315
# family: 1
import numpy as np
import tensorflow as tf
import keras

nb_actions = 2
observation = keras.Input((4,))
model = keras.Model(observation, keras.layers.Dense(nb_actions)(keras.layers.Dense(16, activation="relu")(observation)))


def clipped_masked_error(args):
    y_true, y_pred, mask = args
    return keras.ops.sum(keras.ops.square(y_true - y_pred) * mask, axis=-1)


y_pred = model.output
y_true = keras.Input((nb_actions,), name="y_true")
mask = keras.Input((nb_actions,), name="mask")
loss_out = keras.layers.Lambda(clipped_masked_error, output_shape=(1,), name="loss")([y_true, y_pred, mask])
trainable_model = keras.Model([model.input, y_true, mask], loss_out)
optimizer = keras.optimizers.Adam(1e-3)

states = np.random.rand(8, 4).astype("float32")
targets = np.random.rand(8, nb_actions).astype("float32")
masks = np.eye(nb_actions, dtype="float32")[np.random.randint(0, nb_actions, size=8)]
with tf.GradientTape() as tape:
    loss = tf.reduce_mean(trainable_model([states, targets, masks]))
grads = tape.gradient(loss, model.trainable_variables)
optimizer.apply_gradients(zip(grads, model.trainable_variables))
