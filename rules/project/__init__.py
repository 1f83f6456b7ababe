"""Layer 6, project: configuration ([tool.gradguard]) and which files a run checks."""
