# expect: none
# tensorflow: ok
# shape: towers held in a list, each called by `list(map(lambda m: m(x), towers))` and by a helper `def run_all(parts, x): return [p(x) for p in parts]`: a list of models given to a function is each of them (issue 36's refactoring examples: once a false "never uses" for every tower)
import numpy as np
import tensorflow as tf

tower_a = tf.keras.Sequential([tf.keras.Input(shape=(4,)), tf.keras.layers.Dense(2)])
tower_b = tf.keras.Sequential([tf.keras.Input(shape=(4,)), tf.keras.layers.Dense(2)])
optimizer = tf.keras.optimizers.SGD(0.1)
x = np.random.rand(3, 4).astype("float32")


def run_all(parts, x):
    return [p(x) for p in parts]


variables = tower_a.trainable_variables + tower_b.trainable_variables
with tf.GradientTape() as tape:
    outs = list(map(lambda m: m(x), [tower_a, tower_b]))
    loss = tf.add_n([tf.reduce_sum(o) for o in outs])
grads = tape.gradient(loss, variables)
optimizer.apply_gradients(zip(grads, variables))

with tf.GradientTape() as tape:
    outs = run_all([tower_a, tower_b], x)
    loss = tf.add_n([tf.reduce_sum(o) for o in outs])
grads = tape.gradient(loss, variables)
optimizer.apply_gradients(zip(grads, variables))
