"""A plain class (no Keras, no tf.Module) that keeps the variable it is given and gathers from it
in a method: what a clustering algorithm does with its centroids."""
import tensorflow as tf


class CentroidLookup(object):
    def __init__(self, centroids):
        self.centroids = centroids

    def clustered(self, indices):
        return tf.gather(self.centroids, indices)
