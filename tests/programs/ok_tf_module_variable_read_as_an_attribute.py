# expect: none
# tensorflow: ok
# shape: a `tf.Module` of this file holds `self.w = tf.Variable(...)`; the loss inside the tape reads it as `critic.w`. An attribute of a model that the analysis did not know was taken for nothing, so the loss "never used" `critic`: a false GG302
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
    loss = (x * critic.w) ** 2
grads = tape.gradient(loss, critic.trainable_variables)
opt.apply_gradients(zip(grads, critic.trainable_variables))
