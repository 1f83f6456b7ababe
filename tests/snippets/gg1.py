"""Snippets for GG1xx: a gradient-carrying value leaves TensorFlow."""
from __future__ import annotations

from . import Invalid, Valid

SNIPPETS = [
    Invalid("GG101", "variable_numpy", '''\
import tensorflow as tf

w = tf.Variable([[0.5], [-0.5]])
x = tf.constant([[1.0, 2.0]])
with tf.GradientTape() as tape:
    y = tf.matmul(x, w).numpy()
    loss = tf.reduce_sum(y ** 2)
grad = tape.gradient(loss, w)
'''),
    Invalid("GG101", "numpy_in_train_step", '''\
import tensorflow as tf


def train_step(model, optimizer, x, y):
    with tf.GradientTape() as tape:
        pred = model(x, training=True)
        loss = tf.reduce_mean(tf.square(y - pred.numpy()))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss
'''),
    Invalid("GG101", "dead_term_from_snapshot_before_tape", '''\
import tensorflow as tf

policy = tf.keras.Sequential([tf.keras.layers.Dense(2)])
x = tf.random.normal([8, 3])
snapshot = {"mean": policy(x).numpy()}
with tf.GradientTape() as tape:
    surrogate = tf.reduce_mean(tf.square(policy(x)))
    loss = surrogate - 0.01 * tf.reduce_mean(snapshot["mean"])
grads = tape.gradient(loss, policy.trainable_variables)
'''),
    Valid("GG101", "old_output_snapshot_in_ratio", '''\
import tensorflow as tf

policy = tf.keras.Sequential([tf.keras.layers.Dense(2)])
x = tf.random.normal([8, 3])
snapshot = {"mean": policy(x).numpy()}
with tf.GradientTape() as tape:
    ratio = tf.exp(policy(x) - snapshot["mean"])
    loss = -tf.reduce_mean(ratio)
grads = tape.gradient(loss, policy.trainable_variables)
'''),
    Valid("GG101", "numpy_of_labels", '''\
import tensorflow as tf

w = tf.Variable([[0.5], [-0.5]])
x = tf.constant([[1.0, 2.0]])
labels = tf.constant([[1.0]])
with tf.GradientTape() as tape:
    y = tf.matmul(x, w)
    loss = tf.reduce_sum((y - labels.numpy()) ** 2)
grad = tape.gradient(loss, w)
print("loss", loss.numpy())
'''),
    Invalid("GG102", "np_mean_of_prediction", '''\
import numpy as np
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
x = np.random.rand(8, 3).astype("float32")
y = np.random.rand(8, 1).astype("float32")
with tf.GradientTape() as tape:
    error = y - model(x)
    loss = np.mean(error ** 2)
grads = tape.gradient(loss, model.trainable_variables)
'''),
    Valid("GG102", "np_on_data", '''\
import numpy as np
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
x = np.random.rand(8, 3).astype("float32")
y = np.clip(np.random.rand(8, 1), 0.1, 0.9).astype("float32")
with tf.GradientTape() as tape:
    error = y - model(x)
    loss = tf.reduce_mean(error ** 2)
grads = tape.gradient(loss, model.trainable_variables)
'''),
    Invalid("GG103", "float_inside_a_helper", '''\
import tensorflow as tf

w = tf.Variable(3.0)
x = tf.constant([1.0, 2.0, 3.0])


def mean_error(pred):
    return float(tf.reduce_mean(pred - 2.0))


with tf.GradientTape() as tape:
    loss = tf.square(mean_error(w * x))
grad = tape.gradient(loss, w)
'''),
    Invalid("GG103", "int_of_loss", '''\
import tensorflow as tf

w = tf.Variable(3.0)
x = tf.constant([1.0, 2.0, 3.0])
with tf.GradientTape() as tape:
    total = int(tf.reduce_sum(w * x))
    loss = tf.square(tf.cast(total, tf.float32))
grad = tape.gradient(loss, w)
'''),
    Valid("GG103", "float_for_logging", '''\
import tensorflow as tf

w = tf.Variable(3.0)
x = tf.constant([1.0, 2.0, 3.0])
history = []
with tf.GradientTape() as tape:
    loss = tf.reduce_sum(w * x)
grad = tape.gradient(loss, w)
history.append(float(loss))
'''),
    Invalid("GG104", "get_value", '''\
import numpy as np
import tensorflow as tf
from tensorflow.keras import backend as K

model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
x = np.random.rand(8, 3).astype("float32")
with tf.GradientTape() as tape:
    pred = K.get_value(model(x))
    loss = tf.reduce_mean(tf.square(pred))
grads = tape.gradient(loss, model.trainable_variables)
'''),
    Valid("GG104", "eval_learning_rate", '''\
import numpy as np
import tensorflow as tf
from tensorflow.keras import backend as K

model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
lr = tf.Variable(0.01, trainable=False)
x = np.random.rand(8, 3).astype("float32")
with tf.GradientTape() as tape:
    loss = tf.reduce_mean(tf.square(model(x)))
grads = tape.gradient(loss, model.trainable_variables)
lr.assign(K.eval(lr) * 0.9)
'''),
    Invalid("GG105", "predict_on_batch", '''\
import numpy as np
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(1)])
x = np.random.rand(8, 3).astype("float32")
y = np.random.rand(8, 1).astype("float32")
with tf.GradientTape() as tape:
    pred = model.predict_on_batch(x)
    loss = tf.reduce_mean(tf.square(y - pred))
grads = tape.gradient(loss, model.trainable_variables)
'''),
    Valid("GG105", "predict_after_training", '''\
import numpy as np
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(1)])
x = np.random.rand(8, 3).astype("float32")
y = np.random.rand(8, 1).astype("float32")
with tf.GradientTape() as tape:
    loss = tf.reduce_mean(tf.square(y - model(x, training=True)))
grads = tape.gradient(loss, model.trainable_variables)
error = np.mean(np.abs(model.predict(x, verbose=0) - y))
'''),
    Invalid("GG106", "variable_of_product", '''\
import tensorflow as tf

w = tf.Variable(2.0)
x = tf.constant([1.0, 2.0])
with tf.GradientTape() as tape:
    scaled = tf.Variable(w * x)
    loss = tf.reduce_sum(scaled ** 2)
grad = tape.gradient(loss, w)
'''),
    Valid("GG106", "variable_from_numpy", '''\
import numpy as np
import tensorflow as tf

w = tf.Variable(np.zeros((3, 1), dtype="float32"))
x = tf.constant(np.ones((4, 3), dtype="float32"))
with tf.GradientTape() as tape:
    loss = tf.reduce_sum(tf.matmul(x, w) ** 2)
grad = tape.gradient(loss, w)
'''),
    Invalid("GG107", "numpy_function_on_variable", '''\
import numpy as np
import tensorflow as tf

w = tf.Variable([1.0, -2.0])
with tf.GradientTape() as tape:
    clipped = tf.numpy_function(lambda a: np.clip(a, -1, 1), [w * 3.0], tf.float32)
    loss = tf.reduce_sum(clipped)
grad = tape.gradient(loss, w)
'''),
    Invalid("GG107", "numpy_function_runs_the_model", '''\
import numpy as np
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(2)])


def np_rollout():
    return np.asarray(model(np.random.rand(4, 3).astype("float32")))


with tf.GradientTape() as tape:
    logits = tf.numpy_function(np_rollout, [], tf.float32)
    loss = tf.reduce_mean(tf.square(logits))
grads = tape.gradient(loss, model.trainable_variables)
'''),
    Valid("GG107", "numpy_function_steps_the_environment", '''\
import numpy as np
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(2)])


def np_env_step(actions):
    return (np.random.rand(4, 3) + actions.sum()).astype("float32")


states = tf.numpy_function(np_env_step, [tf.constant([0, 1])], tf.float32)
with tf.GradientTape() as tape:
    loss = tf.reduce_mean(tf.square(model(states)))
grads = tape.gradient(loss, model.trainable_variables)
'''),
    Valid("GG107", "numpy_function_on_labels", '''\
import numpy as np
import tensorflow as tf

w = tf.Variable([1.0, -2.0])
labels = tf.constant([0.5, 3.0])
with tf.GradientTape() as tape:
    clipped = tf.numpy_function(lambda a: np.clip(a, -1, 1), [labels], tf.float32)
    loss = tf.reduce_sum((w - clipped) ** 2)
grad = tape.gradient(loss, w)
'''),
]
