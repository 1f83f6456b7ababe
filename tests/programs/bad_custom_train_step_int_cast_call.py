# expect: GG403@22
# tensorflow: none
# fixed: nofix
# shape: keras.Model with its own train_step calling `self(x, training=True)`; its `call` casts the scores to int32 buckets and back
# family: 3
import tensorflow as tf
import keras


class BucketScorer(keras.Model):
    def __init__(self):
        super().__init__()
        self.score = keras.layers.Dense(1)

    def call(self, inputs):
        buckets = tf.cast(self.score(inputs) * 10.0, tf.int32)
        return tf.cast(buckets, tf.float32) / 10.0

    def train_step(self, data):
        x, y = data
        with tf.GradientTape() as tape:
            y_pred = self(x, training=True)
            loss = tf.reduce_mean(tf.square(y - y_pred))
        gradients = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply_gradients(zip(gradients, self.trainable_variables))
        return {"loss": loss}


model = BucketScorer()
model.compile(optimizer=keras.optimizers.SGD(0.1))
x = tf.random.normal((8, 3))
y = tf.random.uniform((8, 1))
model(x)
model.train_step((x, y))
