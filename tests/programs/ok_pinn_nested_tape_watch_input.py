# expect: none
# tensorflow: ok
# shape: physics-informed NN: inner tape watches a tf.constant collocation grid, du/dx from tape.gradient feeds the residual loss; outer tape differentiates the model (after a PINN tutorial)
import numpy as np
import tensorflow as tf

u_model = tf.keras.Sequential([tf.keras.Input((1,)), tf.keras.layers.Dense(8, activation="tanh"), tf.keras.layers.Dense(1)])
optimizer = tf.keras.optimizers.Adam(1e-3)
x_col = tf.constant(np.linspace(0.0, 1.0, 8).reshape(-1, 1), dtype=tf.float32)
x0 = tf.zeros((1, 1))

with tf.GradientTape() as outer:
    with tf.GradientTape() as inner:
        inner.watch(x_col)
        u = u_model(x_col)
    du_dx = inner.gradient(u, x_col)
    residual = du_dx + u  # ODE u' = -u
    loss = tf.reduce_mean(tf.square(residual)) + tf.reduce_mean(tf.square(u_model(x0) - 1.0))
grads = outer.gradient(loss, u_model.trainable_variables)
optimizer.apply_gradients(zip(grads, u_model.trainable_variables))
print("pde loss", loss.numpy())
