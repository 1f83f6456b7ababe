# expect: none
# tensorflow: ok
# shape: a subclassed model's `train_step` asks for the gradient of `model.trainable_variables`, the module's `model`, bound to an instance of that very class before `fit` runs the step: `model` is `self` there (after the TensorFlow text tutorial text_generation, whose `CustomTraining` does so)
import tensorflow as tf


class MyModel(tf.keras.Model):
    def __init__(self, units):
        super().__init__()
        self.dense = tf.keras.layers.Dense(units)

    def call(self, inputs):
        return self.dense(inputs)


class CustomTraining(MyModel):
    @tf.function
    def train_step(self, inputs):
        inputs, labels = inputs
        with tf.GradientTape() as tape:
            predictions = self(inputs, training=True)
            loss = self.loss(labels, predictions)
        grads = tape.gradient(loss, model.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, model.trainable_variables))
        return {"loss": loss}


model = MyModel(2)
model = CustomTraining(2)
model.compile(optimizer=tf.keras.optimizers.Adam(), loss=tf.keras.losses.MeanSquaredError())
model.fit(tf.random.normal((8, 3)), tf.random.normal((8, 2)), epochs=1, verbose=0)
