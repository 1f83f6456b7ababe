# expect: none
# tensorflow: ok
# shape: the handson-ml2 chapter 12 ReconstructingRegressor: a `reconstruct` Dense head is used only to compute a reconstruction loss handed to self.add_loss in call, and the model is trained with compile/fit, which adds model.losses to the compiled loss, so the head that the prediction never reads still gets gradients
# source: https://github.com/ageron/handson-ml2/issues/339
# heldout: 4
import numpy as np
import tensorflow as tf
import keras


class ReconstructingRegressor(keras.Model):
    def __init__(self, output_dim, input_dim, **kwargs):
        super().__init__(**kwargs)
        self.hidden = [keras.layers.Dense(8, activation="selu", kernel_initializer="lecun_normal") for _ in range(2)]
        self.out = keras.layers.Dense(output_dim)
        self.reconstruct = keras.layers.Dense(input_dim)

    def call(self, inputs, training=None):
        z = inputs
        for layer in self.hidden:
            z = layer(z)
        reconstruction = self.reconstruct(z)
        recon_loss = tf.reduce_mean(tf.square(reconstruction - inputs))
        self.add_loss(0.05 * recon_loss)
        return self.out(z)


x_train = np.random.rand(16, 5).astype(np.float32)
y_train = np.random.rand(16, 1).astype(np.float32)
model = ReconstructingRegressor(1, input_dim=5)
model.compile(loss="mse", optimizer="nadam")
model.fit(x_train, y_train, epochs=1, batch_size=16, verbose=0)
