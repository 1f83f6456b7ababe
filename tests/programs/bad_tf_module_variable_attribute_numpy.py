# expect: GG101@17
# tensorflow: none
# fixed: ok
# shape: a `tf.Module` of this file holds `self.w = tf.Variable(...)`; the loss inside the tape reads `critic.w.numpy()`, which cuts it. The attribute was taken for nothing, and the finding was "never uses `critic`" instead of the `.numpy()`
# family: 3
import tensorflow as tf

class Critic(tf.Module):
    def __init__(self):
        super().__init__()
        self.w = tf.Variable(2.0)

critic = Critic()
opt = tf.keras.optimizers.SGD(0.1)
x = tf.constant(3.0)
with tf.GradientTape() as tape:
    loss = (x * critic.w.numpy()) ** 2
grads = tape.gradient(loss, critic.trainable_variables)
opt.apply_gradients(zip(grads, critic.trainable_variables))
