# expect: none
# tensorflow: ok
# shape: tf2rl's MPC dynamics model: a keras.Model whose `call` over three Dense sub-layers is decorated with `@tf.function`, built in its own `__init__` on a batch of one (`self(tf.constant(np.zeros((1, input_dim))))`) and fitted with a GradientTape on batches of eight: the training call is retraced, so under TensorFlow 2.21 / Keras 3 every variable gets its gradient (a model first called on a batch of the training shape gets only None: bad_subclass_model_tf_function_on_call.py)
# source: https://github.com/keiohta/tf2rl/blob/master/tf2rl/experiments/mpc_trainer.py
# family: 7
import numpy as np
import tensorflow as tf
from tensorflow.keras.layers import Dense


class DynamicsModel(tf.keras.Model):
    def __init__(self, input_dim, output_dim, units=(32, 32), name="DymamicsModel"):
        super().__init__(name=name)
        self.l1 = Dense(units[0], name="L1", activation="relu")
        self.l2 = Dense(units[1], name="L2", activation="relu")
        self.l3 = Dense(output_dim, name="L3", activation="linear")
        self(tf.constant(np.zeros(shape=(1, input_dim), dtype=np.float32)))

    @tf.function
    def call(self, inputs):
        features = self.l1(inputs)
        features = self.l2(features)
        return self.l3(features)


dynamics_model = DynamicsModel(input_dim=5, output_dim=3)
optimizer = tf.keras.optimizers.Adam(learning_rate=0.001)
inputs = np.random.rand(8, 5).astype(np.float32)
labels = np.random.rand(8, 3).astype(np.float32)

with tf.GradientTape() as tape:
    predicts = dynamics_model(inputs)
    loss = tf.reduce_mean(0.5 * tf.square(labels - predicts))
grads = tape.gradient(loss, dynamics_model.trainable_variables)
optimizer.apply_gradients(zip(grads, dynamics_model.trainable_variables))
