# expect: none
# tensorflow: ok
# shape: a method of a `tf.Module` kept in a dict (`heads = {"value": critic.value}`) and called from it inside the tape: a false GG302, as for a bound method bound to a name
# family: 6
import tensorflow as tf

class Critic(tf.Module):
    def __init__(self):
        super().__init__()
        self.w = tf.Variable(2.0)

    def value(self, x):
        return x * self.w

critic = Critic()
heads = {"value": critic.value}
opt = tf.keras.optimizers.SGD(0.1)
x = tf.constant(3.0)
with tf.GradientTape() as tape:
    loss = heads["value"](x) ** 2
grads = tape.gradient(loss, critic.trainable_variables)
opt.apply_gradients(zip(grads, critic.trainable_variables))
