# expect: none
# tensorflow: ok
# shape: word2vec-style skip-gram: tf.Variable embedding tables created outside the tape, int64 ids from numpy into tf.nn.embedding_lookup (IndexedSlices gradients), negative-sampling loss
import numpy as np
import tensorflow as tf

vocab_size, dim = 20, 4
target_embedding = tf.Variable(tf.random.uniform([vocab_size, dim], -0.5, 0.5), name="w2v_embedding")
context_embedding = tf.Variable(tf.random.uniform([vocab_size, dim], -0.5, 0.5), name="context")
optimizer = tf.keras.optimizers.SGD(learning_rate=0.1)

pairs = np.random.randint(0, vocab_size, size=(8, 2)).astype(np.int64)
negatives = np.random.randint(0, vocab_size, size=(8, 3)).astype(np.int64)
contexts = np.concatenate([pairs[:, 1:], negatives], axis=1)
labels = np.concatenate([np.ones((8, 1)), np.zeros((8, 3))], axis=1).astype(np.float32)

with tf.GradientTape() as tape:
    word_emb = tf.nn.embedding_lookup(target_embedding, pairs[:, 0])
    context_emb = tf.gather(context_embedding, contexts)
    dots = tf.einsum("be,bce->bc", word_emb, context_emb)
    loss = tf.reduce_mean(tf.nn.sigmoid_cross_entropy_with_logits(labels=labels, logits=dots))
grads = tape.gradient(loss, [target_embedding, context_embedding])
optimizer.apply_gradients(zip(grads, [target_embedding, context_embedding]))
print(type(grads[0]).__name__, loss.numpy())
