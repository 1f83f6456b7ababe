# expect: none
# tensorflow: ok
# shape: the result of a method nobody here can see, indexed after the tape (`results = solver.solve(fn, y0)` in the tape, `tape.gradient(results[0], ...)` after it): a Python tuple, not an op the tape missed; the variables are read in the function handed to the solver (tensorflow/probability's ode_test at c847a41 drew false GG301 on this shape)
import tensorflow as tf

rate = tf.Variable(0.5)
shift = tf.Variable(0.1)


def make_solver(steps):
    class Euler:
        def solve(self, fn, state):
            for _ in range(steps):
                state = tuple(s + 0.1 * d for s, d in zip(state, fn(state)))
            return state

    return Euler()


solver = make_solver(3)
with tf.GradientTape(persistent=True) as tape:
    results = solver.solve(lambda state: (rate * state[0], (rate + shift) * state[1]), (tf.constant(1.0), tf.constant(2.0)))
first = tape.gradient(results[0], [rate])
second = tape.gradient(results[1], [rate, shift])
del tape
