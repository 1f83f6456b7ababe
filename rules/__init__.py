"""gradguard's static analysis: the gradient data-flow model, the rules and their fixes.

The names below are imported when first used (PEP 562): `gradguard --version`, `gradguard rule`
and the language server before its first document import no analyzer.
"""
from __future__ import annotations

__version__ = "0.1.0"

TYPE_CHECKING = False  # typing.TYPE_CHECKING, which type checkers read so, without importing typing

if TYPE_CHECKING:
    from .api import analyze, apply_edits, apply_fixes, fix_source
    from .diagnostics import Diagnostic, Edit, Fix, Related, Safety, Severity, Span

_FROM_API = frozenset({"analyze", "apply_edits", "apply_fixes", "fix_source"})
_FROM_DIAGNOSTICS = frozenset({"Diagnostic", "Edit", "Fix", "Related", "Safety", "Severity", "Span"})

__all__ = [
    "Diagnostic", "Edit", "Fix", "Related", "Safety", "Severity", "Span",
    "analyze", "apply_edits", "apply_fixes", "fix_source", "__version__",
]


def __getattr__(name: str):
    if name in _FROM_API:
        from . import api as module
    elif name in _FROM_DIAGNOSTICS:
        from . import diagnostics as module
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(module, name)
    globals()[name] = value  # looked up once
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
