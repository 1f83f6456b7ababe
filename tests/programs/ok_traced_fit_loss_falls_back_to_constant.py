# expect: none
# tensorflow: ok
# shape: a custom loss that fit traces (no run_eagerly) falls back to a constant through tf.cond on the batches it finds unusual, here all of them: in a graph the gradient through the constant's branch is zero, not None, so every variable gets a gradient (the near miss of bad_eager_fit_loss_falls_back_to_constant.py)
import tensorflow as tf
import keras


def fit_loss(y_true, y_pred):
    kept = tf.cond(tf.reduce_max(tf.abs(y_pred)) > 1e6, lambda: y_pred, lambda: tf.constant(0.0))
    return tf.reduce_mean(kept)


model = keras.Sequential([keras.layers.Dense(4, activation="tanh"), keras.layers.Dense(1)])
model.compile(optimizer=keras.optimizers.SGD(learning_rate=0.01), loss=fit_loss)
model.fit(tf.random.normal((4, 3)), tf.ones((4, 1)), epochs=1, batch_size=4, verbose=0)
