# expect: GG308@14
# tensorflow: raises AttributeError
# fixed: nofix
# shape: `cost` is computed from the variable first and `loss = lambda: cost` hands the finished tensor to `Adam(0.5).minimize(loss, var_list=[y_N])`; under TF 2.3 that gave "No gradients provided for any variable: ['dd:0']" (the lambda must compute the loss itself), under Keras 3 the optimizer has no `minimize` at all
# source: https://github.com/tensorflow/tensorflow/issues/42167
# family: 7
import tensorflow as tf

y_N = tf.Variable([1.0, 2.0, 3.0], name="dd")
cost = -tf.reduce_mean(input_tensor=tf.reduce_sum(input_tensor=tf.math.log(y_N), axis=0))

loss = lambda: cost

train_step = tf.keras.optimizers.Adam(0.5).minimize(loss, var_list=[y_N])
