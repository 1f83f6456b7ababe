# expect: GG101@11
# tensorflow: none
# fixed: ok
# shape: `.numpy()` inside the lambda given to builtin `map` (`list(map(lambda t: t.numpy(), [model(x)]))[0]`): the element leaves TensorFlow (generator family, issue 21's table)
import tensorflow as tf
import keras

model = keras.Sequential([keras.layers.Dense(1)])
x = tf.ones((4, 3))
with tf.GradientTape() as tape:
    out = list(map(lambda t: t.numpy(), [model(x)]))[0]
    loss = tf.reduce_mean(tf.convert_to_tensor(out))
grads = tape.gradient(loss, model.trainable_variables)
