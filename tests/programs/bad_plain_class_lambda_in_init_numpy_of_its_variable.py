# expect: GG101@11
# tensorflow: none
# fixed: ok
# shape: a plain class whose `__init__` stores `self.act = lambda x: x * self.w.numpy()`; `agent.act(x)` inside the tape gets no gradient for `agent.w`. The finding was "never uses `agent.w`" instead of the `.numpy()` that cuts it
# family: 2
import tensorflow as tf

class Agent:
    def __init__(self):
        self.w = tf.Variable(2.0)
        self.act = lambda x: x * self.w.numpy()

agent = Agent()
opt = tf.keras.optimizers.SGD(0.1)
x = tf.constant(3.0)
with tf.GradientTape() as tape:
    loss = agent.act(x) ** 2
grads = tape.gradient(loss, [agent.w])
opt.apply_gradients(zip(grads, [agent.w]))
