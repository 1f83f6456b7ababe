# expect: none
# tensorflow: ok
# shape: TensorFlow 1 graph code: placeholders, a session and `optimizer.minimize(loss_tensor)` are how graph training is written; its gradient equals the eager tape's (after tensorflow/examples courses/udacity_deep_learning/2_fullyconnected.ipynb and tensorflow/docs site/en/guide/migrate/early_stopping.ipynb's Estimator model_fn)
import numpy as np
import tensorflow as tf

x_data = np.random.rand(8, 3).astype("float32")
y_data = np.random.rand(8, 1).astype("float32")
w0 = np.random.rand(3, 1).astype("float32")

graph = tf.Graph()
with graph.as_default():
    x = tf.compat.v1.placeholder(tf.float32, (None, 3))
    y = tf.compat.v1.placeholder(tf.float32, (None, 1))
    w = tf.compat.v1.get_variable("w", initializer=w0)
    loss = tf.reduce_mean(tf.square(tf.matmul(x, w) - y))
    graph_grads = tf.compat.v1.gradients(loss, [w])
    train_op = tf.compat.v1.train.GradientDescentOptimizer(0.1).minimize(loss)
    with tf.compat.v1.Session() as session:
        session.run(tf.compat.v1.global_variables_initializer())
        (graph_grad,) = session.run(graph_grads, {x: x_data, y: y_data})
        session.run(train_op, {x: x_data, y: y_data})

# The same loss, eagerly: the tape's gradient is the graph's.
v = tf.Variable(w0)
with tf.GradientTape() as tape:
    eager_loss = tf.reduce_mean(tf.square(tf.matmul(x_data, v) - y_data))
eager_grad = tape.gradient(eager_loss, v)
assert np.allclose(graph_grad, eager_grad.numpy(), atol=1e-5)
