# expect: none
# tensorflow: ok
# source: https://github.com/keras-team/keras/issues/16128
# shape: fixed twin: the read uses the freshly computed memory tensor (the "=" version); assign only keeps the state for the next call
# heldout: 8
import tensorflow as tf
from tensorflow import keras


class MemoryLayer(keras.layers.Layer):
    def __init__(self, n_clusters=4, key_dims=3, **kwargs):
        super().__init__(**kwargs)
        self.write_controller = keras.layers.Dense(n_clusters, activation="softmax")
        self.key_erase_layer = keras.layers.Dense(key_dims, activation="sigmoid")
        self.key_add_layer = keras.layers.Dense(key_dims, activation="tanh")
        self.n_clusters = n_clusters
        self.key_dims = key_dims

    def build(self, input_shape):
        self.key_memory = self.add_weight(
            shape=(self.n_clusters, self.key_dims), initializer="zeros", trainable=False, name="key_memory"
        )

    def call(self, x):
        write_w = self.write_controller(x)                       # (batch, n_clusters)
        erase = tf.reduce_mean(self.key_erase_layer(x), axis=0)  # (key_dims,)
        add = tf.reduce_mean(self.key_add_layer(x), axis=0)      # (key_dims,)
        w = tf.reduce_mean(write_w, axis=0)[:, None]             # (n_clusters, 1)
        new_memory = self.key_memory * (1.0 - w * erase[None, :]) + w * add[None, :]
        self.key_memory.assign(new_memory)
        return tf.matmul(write_w, new_memory)                    # read the updated memory tensor


class Net(keras.Model):
    def __init__(self):
        super().__init__()
        self.memory = MemoryLayer()
        self.head = keras.layers.Dense(1)

    def call(self, x):
        return self.head(self.memory(x))


model = Net()
optimizer = keras.optimizers.Adam(1e-3)
x = tf.random.normal([8, 5])
y = tf.random.normal([8, 1])
model(x)

with tf.GradientTape() as tape:
    loss = tf.reduce_mean(tf.square(model(x) - y))
grads = tape.gradient(loss, model.trainable_variables)
optimizer.apply_gradients(zip(grads, model.trainable_variables))
print([v.path for v, g in zip(model.trainable_variables, grads) if g is None])
