# expect: none
# tensorflow: ok
# shape: a REINFORCE policy (a Keras model) whose `put_data` appends (reward, log-probability) to `self.data` inside the tape, called from outside the class; `train_net(tape)` sums that list: the list holds what its callers appended, not the `[]` of `__init__` (after dragen1860/Deep-Learning-with-TensorFlow-book, ch14 REINFORCE_tf.py)
import tensorflow as tf
from tensorflow import keras


class Policy(keras.Model):
    def __init__(self):
        super().__init__()
        self.data = []
        self.fc = keras.layers.Dense(2)
        self.optimizer = keras.optimizers.Adam(1e-3)

    def call(self, inputs):
        return tf.nn.softmax(self.fc(inputs), axis=1)

    def put_data(self, item):
        self.data.append(item)

    def train_net(self, tape):
        R = 0.0
        for r, log_prob in self.data[::-1]:
            R = r + 0.98 * R
            loss = -log_prob * R
            with tape.stop_recording():
                grads = tape.gradient(loss, self.trainable_variables)
                self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
        self.data = []


def main():
    pi = Policy()
    with tf.GradientTape(persistent=True) as tape:
        for t in range(3):
            s = tf.random.normal([1, 4])
            prob = pi(s)
            a = 0
            pi.put_data((1.0, tf.math.log(prob[0][a])))
        pi.train_net(tape)
    del tape


main()
