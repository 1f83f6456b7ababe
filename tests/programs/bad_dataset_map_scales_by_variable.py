# expect: GG406@14
# tensorflow: none
# fixed: nofix
# shape: a learned scale applied in `ds.map(lambda x: x * scale)` inside the tape, the loss summed in Python over the mapped batches: tf.data traces the map function into the dataset's graph, so the tape never sees `scale` being read (None), though the loop itself runs eagerly
# family: 7
import tensorflow as tf

scale = tf.Variable(2.0)
optimizer = tf.keras.optimizers.SGD(0.1)
targets = tf.constant(3.0)
ds = tf.data.Dataset.from_tensor_slices(tf.range(8, dtype=tf.float32)).batch(4)

with tf.GradientTape() as tape:
    scaled = ds.map(lambda x: x * scale)
    loss = tf.add_n([tf.reduce_mean(tf.square(batch - targets)) for batch in scaled])
gradients = tape.gradient(loss, [scale])
optimizer.apply_gradients(zip(gradients, [scale]))
