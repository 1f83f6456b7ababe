# expect: none
# tensorflow: ok
# shape: a function of the module appends `x * w` to the list it is given (`def collect(items, x): items.append(x * w)`), called inside the tape on a list made there, and the loss adds the list up; the loss reaches `w`. What the called function appended to its parameter's list stayed in its own frame, so the caller's list was still empty: a false GG302
# family: 6
import tensorflow as tf

w = tf.Variable(1.5)
optimizer = tf.keras.optimizers.SGD(0.01)


def collect(items, x):
    items.append(x * w)


with tf.GradientTape() as tape:
    terms = []
    collect(terms, tf.constant(2.0))
    collect(items=terms, x=tf.constant(3.0))
    loss = tf.square(tf.add_n(terms) - 1.0)
grads = tape.gradient(loss, [w])
optimizer.apply_gradients(zip(grads, [w]))
