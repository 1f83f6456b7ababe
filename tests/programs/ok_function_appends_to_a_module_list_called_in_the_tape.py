# expect: none
# tensorflow: ok
# shape: a function of the module appends `x * w` to a module-level list, called twice inside the tape, and the loss adds the list up (`tf.add_n(terms)`); the loss reaches `w`. What the called function appended stayed in its own frame, so the list was empty for the caller: a false GG302
# family: 6
import tensorflow as tf

w = tf.Variable(1.5)
optimizer = tf.keras.optimizers.SGD(0.01)
terms = []


def add_term(x):
    terms.append(x * w)


with tf.GradientTape() as tape:
    add_term(tf.constant(2.0))
    add_term(tf.constant(3.0))
    loss = tf.square(tf.add_n(terms) - 1.0)
grads = tape.gradient(loss, [w])
optimizer.apply_gradients(zip(grads, [w]))
