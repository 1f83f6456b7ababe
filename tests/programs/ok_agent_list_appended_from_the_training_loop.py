# expect: none
# tensorflow: ok
# shape: an agent (a plain class) whose policy network is called by the training loop, which hands each log-probability to `agent.put_data`; `train_net` reads `self.data`: what was appended there is not known inside the method, so nothing is claimed of it
import tensorflow as tf
from tensorflow import keras


class Agent:
    def __init__(self):
        self.data = []
        self.policy = keras.Sequential([keras.layers.Dense(2, activation="softmax")])
        self.optimizer = keras.optimizers.Adam(1e-3)

    def put_data(self, item):
        self.data.append(item)

    def train_net(self, tape):
        R = 0.0
        for r, log_prob in self.data[::-1]:
            R = r + 0.98 * R
            loss = -log_prob * R
            with tape.stop_recording():
                grads = tape.gradient(loss, self.policy.trainable_variables)
                self.optimizer.apply_gradients(zip(grads, self.policy.trainable_variables))
        self.data = []


def main():
    pi = Agent()
    with tf.GradientTape(persistent=True) as tape:
        for t in range(3):
            s = tf.random.normal([1, 4])
            prob = pi.policy(s)
            pi.put_data((1.0, tf.math.log(prob[0][0])))
        pi.train_net(tape)
    del tape


main()
