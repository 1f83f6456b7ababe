# expect: none
# tensorflow: ok
# shape: a test written for both modes, as TF-GAN's weight-clipping test: the graph branch builds `opt.minimize(loss)` with a tensor loss and runs it in a session, and returns early `if tf.executing_eagerly()`; the eager branch trains with a tape
# source: https://github.com/tensorflow/gan/blob/master/tensorflow_gan/python/features/clip_weights_test.py
import tensorflow as tf

variables = [tf.Variable(2.0)]


def train_once():
    if tf.executing_eagerly():
        optimizer = tf.keras.optimizers.SGD(1.0)
        with tf.GradientTape() as tape:
            loss = variables[0] * 1.0
        gradients = tape.gradient(loss, variables)
        optimizer.apply_gradients(zip(gradients, variables))
        return
    loss = variables[0]
    opt = tf.compat.v1.train.GradientDescentOptimizer(1.0)
    train_op = opt.minimize(loss, var_list=variables)
    with tf.compat.v1.Session() as sess:
        sess.run(tf.compat.v1.global_variables_initializer())
        sess.run(train_op)


train_once()
