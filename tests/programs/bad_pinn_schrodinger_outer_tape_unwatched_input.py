# expect: GG306@32
# tensorflow: none
# fixed: ok
# shape: a physics-informed solver for the time-independent Schrödinger equation, a class whose `@tf.function` `schrodinger_loss` nests two persistent tapes for the second derivative of psi(x); only the inner tape watches the plain tensor `x`, so the outer tape never records dpsi/dx as a function of x and `d2psi_dx2` is None (the poster: "the second derivative calculation always returns None, irrespective of the potential function used", with relu or other activations; tanh here)
# source: https://coderapp.vercel.app/answer/78712449
# family: 2
# heldout: 1
# gap: gradguard is silent: GG306 fires for the same nested tapes written at module level (`x = tf.random.uniform(...)` in scope, it then asks for `tape2.watch(x)`), but here `x` is a parameter of the method `schrodinger_loss(self, x, E)`, which could as well be a Variable (a plain function taking `x` is missed the same way); it would need to take the argument from the call site (`solver.schrodinger_loss(x, E)` with `x = tf.random.uniform(...)`), or to read the inner `tape1.watch(x)` as proof that `x` is a plain tensor every tape must watch
import tensorflow as tf


class QuantumPINNSolver:
    def __init__(self, potential_func):
        self.potential_func = potential_func
        self.model = self.build_model()

    def build_model(self):
        return tf.keras.Sequential([
            tf.keras.Input(shape=(1,), dtype="float64"),
            tf.keras.layers.Dense(16, activation="tanh", dtype="float64"),
            tf.keras.layers.Dense(16, activation="tanh", dtype="float64"),
            tf.keras.layers.Dense(1, activation=None, dtype="float64"),
        ])

    @tf.function
    def schrodinger_loss(self, x, E):
        with tf.GradientTape(persistent=True) as tape2:
            with tf.GradientTape(persistent=True) as tape1:
                tape1.watch(x)
                psi = self.model(x)
            dpsi_dx = tape1.gradient(psi, x)
        d2psi_dx2 = tape2.gradient(dpsi_dx, x)
        V_x = self.potential_func(x)
        schrodinger_eq = -d2psi_dx2 + (V_x - E) * psi
        return tf.reduce_mean(tf.square(schrodinger_eq))


def harmonic_oscillator_potential(x):
    return 0.5 * tf.square(x)


solver = QuantumPINNSolver(potential_func=harmonic_oscillator_potential)
x = tf.random.uniform((20, 1), minval=-5, maxval=5, dtype=tf.float64)
E = tf.constant(0.5, dtype=tf.float64)
loss = solver.schrodinger_loss(x, E)
