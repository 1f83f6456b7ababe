# expect: none
# tensorflow: ok
# shape: an object of another module's class whose base is a tf.Module of a third module (as Sonnet's snt.Embed derives snt.Module): its `embeddings` variable, read by its call inside the tape, is differentiated directly; not a plain object holding a tensor (GG306 called `e.embeddings` a plain tensor, sonnet's embed_test.py; and tf_agents' ObjectIdentitySet, a MutableSet, was taken for a plain class)
# source: https://github.com/deepmind/sonnet/blob/v2/sonnet/src/embed_test.py
import tensorflow as tf

from rlkit.embedding import Embed

e = Embed(4)
with tf.GradientTape() as tape:
    y = tf.reduce_sum(e([0, 2]))
grads = tape.gradient(y, e.embeddings)
