# expect: GG101@27
# tensorflow: none
# fixed: ok
# shape: a custom training loop over one `tf.Variable` ('Variable:0') with a hand-written `complicated_loss`; the predictions are converted with `.numpy()` on their way into the loss helper, so the loss is a constant for the tape, the gradient is None and `apply_gradients` raises "No gradients provided for any variable" (the poster's own diagnosis: "I converted the tensor into a numpy array when passing it to my loss function")
# source: https://github.com/tensorflow/tensorflow/issues/50111
# family: 1
# heldout: 3
import numpy as np
import tensorflow as tf
import keras

x_train = np.random.rand(16, 3).astype(np.float32)
y_train = np.random.rand(16, 1).astype(np.float32)

weights = tf.Variable(tf.random.normal([3, 1]))
optimizer = keras.optimizers.Adam(0.01)


def complicated_loss(predictions, targets):
    errors = predictions - targets
    return tf.reduce_mean(tf.square(errors)) + 0.1 * tf.reduce_mean(tf.abs(errors))


for step in range(2):
    with tf.GradientTape() as tape:
        predictions = tf.matmul(x_train, weights)
        loss = complicated_loss(predictions.numpy(), y_train)
    grads = tape.gradient(loss, [weights])
    optimizer.apply_gradients(zip(grads, [weights]))
