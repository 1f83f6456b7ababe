"""Layer 4, report: an analysis turned into diagnostics (the break report, every check rule, suppression)."""
