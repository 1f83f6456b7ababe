# expect: none
# tensorflow: ok
# shape: a plain class whose `__init__` makes `self.w = tf.Variable(...)` and stores `self.act = lambda x: x * self.w`; `agent.act(x)` inside the tape. The lambda read the `self.w` of `__init__`, not the object's `agent.w` the gradient is asked for: a false GG302
# family: 2
import tensorflow as tf

class Agent:
    def __init__(self):
        self.w = tf.Variable(2.0)
        self.act = lambda x: x * self.w

agent = Agent()
opt = tf.keras.optimizers.SGD(0.1)
x = tf.constant(3.0)
with tf.GradientTape() as tape:
    loss = agent.act(x) ** 2
grads = tape.gradient(loss, [agent.w])
opt.apply_gradients(zip(grads, [agent.w]))
