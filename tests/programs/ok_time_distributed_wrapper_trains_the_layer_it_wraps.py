# expect: none
# tensorflow: ok
# shape: `TimeDistributed(dense)` runs `dense` at each call, and the gradient is asked for the wrapped layer's variables. The wrapper was a new model that read nothing it was built from: a false GG302 ("never uses `dense`"); Keras's wrappers run the layers they are given
# family: 3
import tensorflow as tf

dense = tf.keras.layers.Dense(2)
encoder = tf.keras.layers.Bidirectional(tf.keras.layers.LSTM(4, return_sequences=True))
per_step = tf.keras.layers.TimeDistributed(dense)
x = tf.ones((4, 3, 5))
with tf.GradientTape() as tape:
    loss = tf.reduce_mean(tf.square(per_step(encoder(x))))
grads = tape.gradient(loss, dense.trainable_variables + encoder.trainable_variables)
