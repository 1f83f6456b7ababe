# expect: none
# tensorflow: ok
# shape: a `keras.Model` subclass wrapping a sub-network `self.network`, with its own `train_step` for mixed-precision training under Keras 3: the loss configured in compile (`self.loss`) is scaled with `self.optimizer.scale_loss(loss)` inside the tape (the TF 2 guide's `get_scaled_loss` / `get_unscaled_gradients` no longer exist), the gradients of the scaled loss are taken for `self.network.trainable_variables` and handed to the `LossScaleOptimizer`, which unscales them in `apply_gradients`; every gradient exists (the poster asked whether the unscaling is automatic: it is)
# source: https://github.com/keras-team/keras/issues/19479
# family: 2
# heldout: 2
import numpy as np
import tensorflow as tf
import keras


class Agent(keras.Model):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.network = keras.Sequential([keras.layers.Dense(16, activation="relu"), keras.layers.Dense(1)])

    def call(self, x, training=False):
        return self.network(x, training=training)

    def train_step(self, data):
        x, y_true = data
        with tf.GradientTape() as tape:
            y_pred = self(x, training=True)  # Forward pass
            # Compute the loss value
            loss = self.loss(y_true, y_pred)
            scaled_loss = self.optimizer.scale_loss(loss)

        # Compute gradients
        trainable_vars = self.network.trainable_variables
        gradients = tape.gradient(scaled_loss, trainable_vars)

        # Update weights
        self.optimizer.apply_gradients(zip(gradients, trainable_vars))
        return {"loss": loss}


model = Agent()
model.compile(optimizer=keras.optimizers.LossScaleOptimizer(keras.optimizers.Adam(1e-3)), loss=keras.losses.MeanSquaredError())
x = np.random.rand(16, 4).astype(np.float32)
y = np.random.rand(16, 1).astype(np.float32)
model.fit(x, y, batch_size=8, epochs=1, verbose=0)
