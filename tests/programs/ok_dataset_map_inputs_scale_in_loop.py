# expect: none
# tensorflow: ok
# shape: the same learned scale applied in the Python loop over the batches (the map only converts the inputs): the tape records the read of `scale`
# family: 7
import tensorflow as tf

scale = tf.Variable(2.0)
optimizer = tf.keras.optimizers.SGD(0.1)
targets = tf.constant(3.0)
ds = tf.data.Dataset.from_tensor_slices(tf.range(8, dtype=tf.float32)).batch(4)

with tf.GradientTape() as tape:
    scaled = ds.map(lambda x: tf.cast(x, tf.float32))
    loss = tf.add_n([tf.reduce_mean(tf.square(batch * scale - targets)) for batch in scaled])
gradients = tape.gradient(loss, [scale])
optimizer.apply_gradients(zip(gradients, [scale]))
