# expect: none
# tensorflow: ok
# shape: the same Schrödinger PINN with the outer tape watching `x` as well (`tape2.watch(x)` before the inner tape opens), so dpsi/dx is recorded as a function of x and `tape2.gradient(dpsi_dx, x)` returns the second derivative
# source: https://coderapp.vercel.app/answer/78712449
# family: 2
# heldout: 1
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
            tape2.watch(x)
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
