# expect: none
# tensorflow: ok
# shape: a functional model whose only op is a ReLU, called on `x ** 2` inside a tape inside a `@tf.function`, with the tape watching the input; under TF 2.0 alpha the traced function returned None (the eager one 20.0); under TF 2.21 / Keras 3 the traced gradient is there (Keras 3 refuses `tf.nn.relu` on a KerasTensor, so the model applies `keras.ops.relu`, as the thread's working variant applied a Keras ReLU layer)
# source: https://github.com/tensorflow/tensorflow/issues/27455
# family: 7
import tensorflow as tf
import keras

z = keras.Input(())
h = keras.layers.Lambda(keras.ops.relu)(z)
m = keras.Model(z, h)


@tf.function
def f(x):
    with tf.GradientTape() as t:
        t.watch(x)
        z = m(x ** 2)
    return t.gradient(z, x)


print(f(tf.convert_to_tensor([10.0])))
