"""An embedding table whose class derives from the project's base module (rlkit/modules.py)."""
import tensorflow as tf

from rlkit.modules import Module


class Embed(Module):
    def __init__(self, vocab_size, embed_dim=2):
        super().__init__()
        self.embeddings = tf.Variable(tf.random.normal((vocab_size, embed_dim)))

    def __call__(self, ids):
        return tf.nn.embedding_lookup(self.embeddings, ids)
