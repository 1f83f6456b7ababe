"""Layer 3, catalogue: one module per rule, grouped by family, plus what rules share (base classes,
registry, edit builders, message phrases, rendered docs)."""
