# expect: GG405@35
# tensorflow: raises LookupError
# fixed: nofix
# shape: CRF-style bilateral layer after a segmentation net that solves a linear system with tf.linalg.lu and tf.linalg.lu_solve; TensorFlow registers no gradient for Lu and tape.gradient raises
# source: https://github.com/tensorflow/tensorflow/issues/61106
# family: 4
import numpy as np
import tensorflow as tf
import keras

N_PIX = 16


class BilateralLayer(keras.layers.Layer):
    def call(self, unary):
        # pairwise affinities between pixels from the unary scores
        feats = tf.nn.softmax(unary, axis=-1)
        affinity = tf.matmul(feats, feats, transpose_b=True)
        system = tf.eye(N_PIX) + 0.1 * affinity
        lu, perm = tf.linalg.lu(system)
        return tf.linalg.lu_solve(lu, perm, unary)


inputs = keras.Input(shape=(N_PIX, 3))
unary = keras.layers.Dense(2)(inputs)
refined = BilateralLayer()(unary)
model = keras.Model(inputs, refined)
optimizer = keras.optimizers.Adam(1e-3)

pixels = np.random.rand(2, N_PIX, 3).astype(np.float32)
masks = np.random.randint(0, 2, size=(2, N_PIX))
loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True)

with tf.GradientTape() as tape:
    loss = loss_fn(masks, model(pixels, training=True))
grads = tape.gradient(loss, model.trainable_variables)
optimizer.apply_gradients(zip(grads, model.trainable_variables))
