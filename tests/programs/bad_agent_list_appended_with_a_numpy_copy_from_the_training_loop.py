# expect: GG101@36
# tensorflow: none
# fixed: ok
# shape: the training loop appends a NumPy copy of each log-probability (`tf.constant(tf.math.log(prob[0][0]).numpy())`) through `agent.put_data`; `train_net` differentiates the list: no gradient reaches the policy
# gap: gradguard is silent: a method of an object of this file called from outside (`agent.put_data(...)`, `agent.train_net(tape)`) is taken to read what the object holds, not followed, so what the loop appended never reaches the loss of `train_net`, whose own analysis cannot know what `self.data` holds (it claimed "never uses `self.policy`" before, for the wrong reason); it would need the calls followed with the object's attributes as changed by the caller
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
    agent = Agent()
    with tf.GradientTape(persistent=True) as tape:
        for t in range(3):
            s = tf.random.normal([1, 4])
            prob = agent.policy(s)
            agent.put_data((1.0, tf.constant(tf.math.log(prob[0][0]).numpy())))
        agent.train_net(tape)
    del tape


main()
