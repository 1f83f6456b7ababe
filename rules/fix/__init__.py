"""Layer 5, fix: applying fixes to a text, and the one fix loop every front end runs."""
