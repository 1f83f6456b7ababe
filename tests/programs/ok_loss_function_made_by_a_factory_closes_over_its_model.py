# expect: none
# tensorflow: ok
# shape: a factory takes the model and returns the loss function it defines (`loss_fn = make_loss_fn(model)`), and the training step calls that function inside the tape. The function reads the model it was given, but the engine read the factory's parameter in its place: a false GG302 ("never uses `model`"). Seen in google/uncertainty-baselines, a repository never run before (an adversarial loss whose function opens a tape of its own)
# family: 1
import tensorflow as tf


def make_loss_fn(model):
    def loss_fn(x, y):
        with tf.GradientTape() as inner:
            inner.watch(x)
            predictions = model(x)
            loss = tf.reduce_mean(tf.square(predictions - y))
        dx = inner.gradient(loss, x)
        adversarial = x + 0.1 * tf.sign(tf.stop_gradient(dx))
        return 0.5 * loss + 0.5 * tf.reduce_mean(tf.square(model(adversarial) - y))
    return loss_fn


model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
loss_fn = make_loss_fn(model)
optimizer = tf.keras.optimizers.SGD(0.1)
x = tf.ones((4, 3))
y = tf.zeros((4, 1))
with tf.GradientTape() as tape:
    loss = loss_fn(x, y)
grads = tape.gradient(loss, model.trainable_weights)
optimizer.apply_gradients(zip(grads, model.trainable_weights))
