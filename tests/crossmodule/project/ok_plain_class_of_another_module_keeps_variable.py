# expect: none
# tensorflow: ok
# shape: an object of a plain class from another module is built from a variable before the tape and gathers from it in a method called inside the tape: the variable is read there, and trains (the construct of tensorflow/model-optimization's clustering tests)
# source: https://github.com/tensorflow/model-optimization/blob/master/tensorflow_model_optimization/python/core/clustering/keras/clustering_registry_test.py
import tensorflow as tf

from rlkit.clustering import CentroidLookup

centroids = tf.Variable([-0.8, 0.86])
lookup = CentroidLookup(centroids)
with tf.GradientTape() as tape:
    loss = tf.reduce_sum(lookup.clustered(tf.constant([0, 1, 1])))
grads = tape.gradient(loss, [centroids])
