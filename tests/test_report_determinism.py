"""A finding is the same from run to run (a CI log, a SARIF baseline, a snapshot): where several
paths from one origin are cut by the same break, the site named as where the gradient starts is
the earliest, not the first of a set (the order of Python's sets of these values follows memory
addresses, and it changed from run to run on ~7 of 10,000 generated programs)."""
from __future__ import annotations

from gradguard.rules import api

TWICE = '''\
import tensorflow as tf
import keras

critic = keras.Sequential([keras.layers.Dense(1)])
x = tf.random.normal((4, 3))

with tf.GradientTape() as tape:
    h = [critic(x), critic(x * 2.0), critic(x * 3.0)][-1].numpy()
    loss = tf.reduce_mean(h)
grads = tape.gradient(loss, critic.trainable_variables)
'''


def test_the_earliest_of_the_sites_one_break_cuts_is_named():
    found = api.analyze(TWICE)
    assert [(d.code, d.span.line) for d in found] == [("GG101", 8)]
    starts = [r for r in found[0].related if r.message.endswith("starts the gradient here")]
    assert [(r.span.line, r.span.col, r.span.end_col) for r in starts] == [(8, 9, 18)]  # `critic(x)`
