# expect: none
# tensorflow: ok
# shape: K.eval / K.get_value on the optimizer's learning rate (and of the logged loss) for step decay and logging (after an old Keras learning-rate-schedule answer)
import numpy as np
import tensorflow as tf
from tensorflow.keras import backend as K

model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(6, activation="relu"), tf.keras.layers.Dense(1)])
optimizer = tf.keras.optimizers.SGD(learning_rate=0.1)
x = np.random.rand(8, 3).astype(np.float32)
y = np.random.rand(8, 1).astype(np.float32)

for step in range(2):
    with tf.GradientTape() as tape:
        loss = K.mean(K.square(model(x, training=True) - y))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    lr = K.eval(optimizer.learning_rate)
    optimizer.learning_rate.assign(lr * 0.5)  # K.set_value breaks on Keras 3 variables
    print("step", step, "lr was", lr, "now", K.get_value(optimizer.learning_rate), "loss", K.eval(loss))
