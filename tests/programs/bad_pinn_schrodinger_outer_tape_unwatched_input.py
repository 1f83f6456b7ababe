# expect: GG306@31
# tensorflow: none
# fixed: ok
# shape: a physics-informed solver for the time-independent Schrödinger equation, a class whose `@tf.function` `schrodinger_loss` nests two persistent tapes for the second derivative of psi(x); only the inner tape watches the plain tensor `x`, so the outer tape never records dpsi/dx as a function of x and `d2psi_dx2` is None (the poster: "the second derivative calculation always returns None, irrespective of the potential function used", with relu or other activations; tanh here)
# source: https://coderapp.vercel.app/answer/78712449
# family: 2
# gap: gradguard is silent: its unwatched-source check (GG306) is satisfied by the `tape1.watch(x)` of the inner tape and does not ask whether the tape whose `gradient` is called (`tape2`) watched `x`; with nested tapes the watch has to be tracked per tape
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
