# expect: none
# tensorflow: ok
# shape: a helper returns the model it is given (as pruning and quantization wrappers return a model made of its layers); the wrapped model is made before the tape and called inside it, so its forward pass is recorded and every variable trains (tensorflow/model-optimization's pruning guide)
# source: https://github.com/tensorflow/model-optimization/blob/master/tensorflow_model_optimization/g3doc/guide/pruning/comprehensive_guide.ipynb
import tensorflow as tf
import keras


def wrap_for_pruning(model):
    return model


base = keras.Sequential([keras.Input((4,)), keras.layers.Dense(3)])
pruned = wrap_for_pruning(base)
x = tf.ones((2, 4))
y = tf.ones((2, 3))
with tf.GradientTape() as tape:
    loss = tf.reduce_mean(tf.square(y - pruned(x, training=True)))
grads = tape.gradient(loss, pruned.trainable_variables)
