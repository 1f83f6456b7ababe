# expect: none
# tensorflow: ok
# shape: a method of a `tf.Module` bound to a name (`value_fn = critic.value`) and called inside the tape. A bound method looked up on a model was a value holding nothing: a false GG302
# family: 6
import tensorflow as tf

class Critic(tf.Module):
    def __init__(self):
        super().__init__()
        self.w = tf.Variable(2.0)

    def value(self, x):
        return x * self.w

critic = Critic()
value_fn = critic.value
opt = tf.keras.optimizers.SGD(0.1)
x = tf.constant(3.0)
with tf.GradientTape() as tape:
    loss = value_fn(x) ** 2
grads = tape.gradient(loss, critic.trainable_variables)
opt.apply_gradients(zip(grads, critic.trainable_variables))
