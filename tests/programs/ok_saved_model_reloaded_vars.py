# expect: none
# tensorflow: ok
# shape: variables of a reloaded SavedModel (`reloaded.vars`) are variables, not plain tensors the tape must watch (after tensorflow/docs site/en/guide/jax2tf.ipynb "reloaded_model.vars")
import tempfile

import tensorflow as tf


class Linear(tf.Module):
    def __init__(self):
        super().__init__()
        self.vars = [tf.Variable([[1.0], [2.0]]), tf.Variable([0.5])]

    @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])
    def __call__(self, x):
        return tf.matmul(x, self.vars[0]) + self.vars[1]


export_dir = tempfile.mkdtemp()
tf.saved_model.save(Linear(), export_dir)
reloaded_model = tf.saved_model.load(export_dir)
x = tf.constant([[1.0, 1.0], [2.0, 0.0]])
with tf.GradientTape() as tape:
    loss = tf.reduce_sum(reloaded_model(x))
grads = tape.gradient(loss, reloaded_model.vars)
