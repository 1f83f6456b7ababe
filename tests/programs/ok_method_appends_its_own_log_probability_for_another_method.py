# expect: none
# tensorflow: ok
# shape: a Keras policy whose `act` appends the log-probability of its own forward pass to `self.log_probs`; the training loop calls `act` inside the tape and then `finish_episode(tape)`, whose loss sums the list
import tensorflow as tf
from tensorflow import keras


class Policy(keras.Model):
    def __init__(self):
        super().__init__()
        self.log_probs = []
        self.fc = keras.layers.Dense(2)

    def call(self, inputs):
        return tf.nn.softmax(self.fc(inputs), axis=1)

    def act(self, state):
        prob = self(state)
        self.log_probs.append(tf.math.log(prob[0][0]))
        return 0

    def finish_episode(self, tape):
        loss = -tf.add_n(self.log_probs)
        with tape.stop_recording():
            grads = tape.gradient(loss, self.trainable_variables)
        self.log_probs = []
        return grads


policy = Policy()
with tf.GradientTape() as tape:
    for _ in range(3):
        policy.act(tf.random.normal([1, 4]))
    grads = policy.finish_episode(tape)
