"""gradguard's static analysis: the gradient data-flow model, the rules and their fixes."""
from __future__ import annotations

__version__ = "0.1.0"

from .api import analyze, apply_edits, apply_fixes, fix_source  # noqa: E402
from .diagnostics import Diagnostic, Edit, Fix, Related, Safety, Severity, Span  # noqa: E402

__all__ = [
    "Diagnostic", "Edit", "Fix", "Related", "Safety", "Severity", "Span",
    "analyze", "apply_edits", "apply_fixes", "fix_source", "__version__",
]
