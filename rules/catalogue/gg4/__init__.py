"""GG4xx: ops without a gradient on the only path."""
