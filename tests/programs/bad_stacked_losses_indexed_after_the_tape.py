# expect: GG301@14
# tensorflow: none
# fixed: nofix
# shape: the losses are stacked into one tensor inside the tape and the first is picked after its block: indexing a tensor is an op (a strided slice) the tape never records, unlike indexing a tuple (ok_losses_tuple_of_a_helper_indexed_after_the_tape.py)
# family: 1
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
x = tf.ones((4, 3))
y = tf.zeros((4, 1))
with tf.GradientTape() as tape:
    outputs = model(x)
    losses = tf.stack([tf.reduce_mean(tf.square(outputs - y)), tf.reduce_max(outputs)])
total_loss = losses[0]
grads = tape.gradient(total_loss, model.trainable_variables)
