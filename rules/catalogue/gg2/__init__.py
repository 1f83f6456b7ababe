"""GG2xx: `tf.stop_gradient` on the trained prediction, or missing on a bootstrapped target."""
