# expect: none
# tensorflow: ok
# shape: high-order feature interactions as the product of each field group's embeddings with tf.math.segment_prod; TF 1.x raised LookupError (no gradient for SegmentProd), TF 2.21 registers one and every embedding trains
# source: https://github.com/tensorflow/tensorflow/issues/21892
# family: 4
import numpy as np
import tensorflow as tf
import keras

n_features, dim = 20, 4
field_groups = tf.constant([0, 0, 1, 1, 1])

embedding = keras.layers.Embedding(n_features, dim)
head = keras.layers.Dense(1)
optimizer = keras.optimizers.Adam(1e-3)

feature_ids = np.random.randint(0, n_features, size=(8, 5))
clicks = np.random.randint(0, 2, size=(8, 1)).astype(np.float32)

with tf.GradientTape() as tape:
    emb = embedding(feature_ids)
    high_order = tf.map_fn(lambda e: tf.math.segment_prod(e, field_groups), emb)
    logits = head(tf.reshape(high_order, (8, -1)))
    loss = tf.reduce_mean(tf.nn.sigmoid_cross_entropy_with_logits(clicks, logits))
variables = embedding.trainable_variables + head.trainable_variables
grads = tape.gradient(loss, variables)
optimizer.apply_gradients(zip(grads, variables))
