# expect: GG314@18
# tensorflow: raises TypeError
# fixed: nofix
# shape: a @tf.custom_gradient function nested in a layer's call runs the layer's own Dense sublayer (its trainable kernel and bias), and its grad takes no variables keyword: TensorFlow raises TypeError at the call (the true side of ok_custom_gradient_calls_a_method_of_a_held_module.py)
import tensorflow as tf


class Head(tf.keras.layers.Layer):
    def __init__(self):
        super().__init__()
        self.dense = tf.keras.layers.Dense(2)

    def call(self, x):
        @tf.custom_gradient
        def clipped(t):
            y = self.dense(t)

            def grad(dy):
                return tf.clip_by_norm(dy, 1.0)

            return y, grad

        return clipped(x)


layer = Head()
with tf.GradientTape() as tape:
    loss = tf.reduce_sum(layer(tf.ones((2, 3))))
grads = tape.gradient(loss, layer.trainable_variables)
