# expect: none
# tensorflow: ok
# shape: a TF1-era notebook run eagerly under `import tensorflow.compat.v1 as tf`: `tf.keras.Sequential`, `tf.GradientTape` and `tape.watch` mean what they mean in TF2 (after tensorflow/docs site/en/r1/guide/eager.ipynb)
import numpy as np
import tensorflow.compat.v1 as tf

mnist_model = tf.keras.Sequential([tf.keras.layers.Dense(8, activation="relu"), tf.keras.layers.Dense(3)])
optimizer = tf.keras.optimizers.SGD(0.1)
images = np.random.rand(8, 5).astype("float32")
labels = np.random.randint(0, 3, size=8)

with tf.GradientTape() as tape:
    logits = mnist_model(images, training=True)
    loss_value = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits))
grads = tape.gradient(loss_value, mnist_model.trainable_variables)
optimizer.apply_gradients(zip(grads, mnist_model.trainable_variables))


def log1pexp(x):
    return tf.math.log(1 + tf.exp(x))


class Grad(object):
    def __init__(self, f):
        self.f = f

    def __call__(self, x):
        x = tf.convert_to_tensor(x)
        with tf.GradientTape() as tape:
            tape.watch(x)
            r = self.f(x)
        return tape.gradient(r, x)


Grad(log1pexp)(0.0)
