# expect: none
# tensorflow: ok
# shape: a plain agent class whose method reads both its own attribute (`self.scale`) and a module-level variable `w`; the loss computed by `agent.loss(x)` inside the tape reaches `w`. A method that reads `self` is not followed (calling it reads what the object holds), and what it reads of the module was left out: "the loss never uses `w`" was a false GG302
# family: 2
import tensorflow as tf

w = tf.Variable(1.0)
optimizer = tf.keras.optimizers.SGD(0.1)


class Agent:
    def __init__(self):
        self.scale = 2.0

    def loss(self, x):
        return tf.square(x * w * self.scale - 1.0)


agent = Agent()
with tf.GradientTape() as tape:
    loss = agent.loss(tf.constant(2.0))
grads = tape.gradient(loss, [w])
optimizer.apply_gradients(zip(grads, [w]))
