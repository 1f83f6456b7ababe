"""GG1xx: a value that depends on trainable variables leaves TensorFlow."""
