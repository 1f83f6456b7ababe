"""A module base of the project's own (as Sonnet's `snt.Module` is), and an embedding built on
it in another module (rlkit/embedding.py): its objects make and track their own variables."""
import tensorflow as tf


class Module(tf.Module):
    """What a library's base adds (naming, variable tracking): nothing here."""
