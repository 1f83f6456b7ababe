# expect: GG201@15
# tensorflow: none
# fixed: ok
# shape: the sources flattened by a comprehension at the gradient call (`[v for group in (model.trainable_variables, [w]) for v in group]`), `w` a watched tensor whose only path to the loss is wrapped in `tf.stop_gradient`: the comprehension is the lists joined, as `model.trainable_variables + [w]` is, so `w` is asked for and the cut is reported (generator family, shrunk from bench/oracle.py seed 20261202 program 1221)
import tensorflow as tf
import keras

model = keras.Sequential([keras.layers.Dense(1)])
model.build((None, 3))
w = tf.random.normal((3, 1))
x = tf.random.normal((4, 3))
with tf.GradientTape() as tape:
    tape.watch(w)
    out_1 = model(x)
    out_2 = tf.stop_gradient(tf.matmul(x, w))
    loss = tf.reduce_mean(out_1) + tf.reduce_mean(out_2)
grads = tape.gradient(loss, [v for group in (model.trainable_variables, [w]) for v in group])
