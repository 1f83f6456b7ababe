# expect: GG313@11
# tensorflow: raises ValueError
# fixed: nofix
# shape: a custom loss compiled with run_eagerly=True returns a constant through a helper's early return on the batches it finds unusual, here all of them: fit differentiates a constant, and Keras raises "No gradients provided for any variable" (from the oracle's fallback dimension with `asked=fit_eager`, gen_20261202_837)
import tensorflow as tf
import keras


def unless_large(v):
    if not tf.reduce_max(tf.abs(v)) > 1e6:
        return tf.constant(0.0)
    return v


def fit_loss(y_true, y_pred):
    return tf.reduce_mean(unless_large(y_pred))


model = keras.Sequential([keras.layers.Dense(4, activation="tanh"), keras.layers.Dense(1)])
model.compile(optimizer=keras.optimizers.SGD(learning_rate=0.01), loss=fit_loss, run_eagerly=True)
model.fit(tf.random.normal((4, 3)), tf.ones((4, 1)), epochs=1, batch_size=4, verbose=0)
