# expect: GG101@18
# tensorflow: none
# fixed: ok
# shape: a REINFORCE-style agent whose `act` appends `tf.constant(log_prob.numpy())` to `self.log_probs`, called inside the tape of `learn`, whose loss sums that list: no gradient reaches the policy (`No gradients provided for any variable`). The list the caller read held nothing the method added, and the finding was "the loss never uses `self.policy`" instead of the `.numpy()` that cuts it
# family: 2
import keras
import tensorflow as tf


class Reinforce:
    def __init__(self):
        self.policy = keras.Sequential([keras.layers.Dense(2)])
        self.optimizer = keras.optimizers.SGD(0.01)
        self.log_probs = []

    def act(self, state):
        logits = self.policy(state)
        self.log_probs.append(tf.constant(tf.nn.log_softmax(logits)[0, 0].numpy()))
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
