"""GG3xx: `GradientTape` and optimizer misuse."""
