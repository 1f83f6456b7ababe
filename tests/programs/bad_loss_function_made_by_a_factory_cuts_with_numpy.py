# expect: GG101@11
# tensorflow: none
# fixed: ok
# shape: a factory takes the model and returns the loss function it defines, which takes the prediction out of TensorFlow with `.numpy()`. The break was reported as "the loss never uses `model`" (GG302, no fix): the function's summary read the factory's parameter, not the model it was given
# family: 1
import tensorflow as tf


def make_loss_fn(model):
    def loss_fn(x, y):
        predictions = model(x).numpy()
        return tf.reduce_mean(tf.square(predictions - y))
    return loss_fn


model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
loss_fn = make_loss_fn(model)
x = tf.ones((4, 3))
y = tf.zeros((4, 1))
with tf.GradientTape() as tape:
    loss = loss_fn(x, y)
grads = tape.gradient(loss, model.trainable_weights)
