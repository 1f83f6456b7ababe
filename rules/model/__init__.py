"""Layer 2, model: the gradient data-flow interpreter and the facts it records (never imports TensorFlow)."""
