"""The gradient lens: what the analysis believes about each value, for explain, hover and inlay hints."""
