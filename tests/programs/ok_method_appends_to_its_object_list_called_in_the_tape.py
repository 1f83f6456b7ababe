# expect: none
# tensorflow: ok
# shape: a REINFORCE-style agent whose `act` appends the log-probability of its policy's output to `self.log_probs`, called inside the tape of `learn`, whose loss sums that list; the loss reaches the policy. What a followed method added to its object's list stayed in the method, so the caller's `self.log_probs` was the empty list of `__init__` and "the loss never uses `self.policy`" was a false GG302
# family: 6
import keras
import tensorflow as tf


class Reinforce:
    def __init__(self):
        self.policy = keras.Sequential([keras.layers.Dense(2)])
        self.optimizer = keras.optimizers.SGD(0.01)
        self.log_probs = []

    def act(self, state):
        logits = self.policy(state)
        self.log_probs.append(tf.nn.log_softmax(logits)[0, 0])
        return 0

    def learn(self, states):
        with tf.GradientTape() as tape:
            for s in states:
                self.act(s)
            loss = -tf.add_n(self.log_probs)
        grads = tape.gradient(loss, self.policy.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.policy.trainable_variables))
        self.log_probs = []


agent = Reinforce()
agent.learn([tf.ones((1, 3)), tf.ones((1, 3))])
