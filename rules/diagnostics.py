"""The analyzer's output: diagnostics, their fixes and the text edits of those fixes.

Positions are 1-based lines and 0-based *character* columns (not UTF-8 bytes), end exclusive.
Everything here is plain data so that the CLI, the JSON/SARIF writers and the language server
can share it without knowing how it was computed.

Values here and in the analyzer are immutable by convention: a changed copy is made with
`dataclasses.replace` (or model/values.py's `evolve`), never by assigning to a field. They are
declared `unsafe_hash=True` rather than `frozen=True` (hashable, compared by value) because
Python 3.11 compiles each generated method with an `exec` of its own, and frozen's two more per
class made creating the analyzer's ~50 dataclasses a tenth of a `check` of 300 lines
(docs/performance.md); the classes compared by identity only declare `eq=False, repr=False`.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass, field


class Severity(str, enum.Enum):
    ERROR = "error"      # every path to the sink is cut: TensorFlow raises or returns all None
    WARNING = "warning"  # some variables get no gradient, or training is silently wrong
    INFO = "info"        # advice

    @property
    def rank(self) -> int:
        return {"error": 0, "warning": 1, "info": 2}[self.value]


class Safety(str, enum.Enum):
    SAFE = "safe"        # keeps the program's meaning apart from restoring the gradient
    UNSAFE = "unsafe"    # changes behaviour or types; review before applying


@dataclass(unsafe_hash=True, order=True)
class Span:
    line: int
    col: int
    end_line: int
    end_col: int

    def contains(self, other: "Span") -> bool:
        return (self.line, self.col) <= (other.line, other.col) and (other.end_line, other.end_col) <= (
            self.end_line,
            self.end_col,
        )

    def overlaps(self, other: "Span") -> bool:
        return (self.line, self.col) < (other.end_line, other.end_col) and (other.line, other.col) < (
            self.end_line,
            self.end_col,
        )


@dataclass(unsafe_hash=True)
class Edit:
    span: Span
    new_text: str


@dataclass(unsafe_hash=True)
class Fix:
    title: str
    safety: Safety
    edits: tuple[Edit, ...]
    # The fix that brings the gradient back is preferred over one that only moves the problem.
    preferred: bool = False


@dataclass(unsafe_hash=True)
class Related:
    span: Span
    message: str
    path: str | None = None  # another file (a helper module); None: the diagnostic's own file


def display_path(path: str, relative_to: str) -> str:
    """Another module's `path` as messages show it: relative to the analysed file's folder when it
    is near, else as it is."""
    import os

    try:
        shown = os.path.relpath(path, os.path.dirname(os.path.abspath(relative_to)))
    except ValueError:  # another drive
        return path
    return shown if not shown.startswith("../../") else path


@dataclass(unsafe_hash=True)
class Diagnostic:
    code: str
    severity: Severity
    message: str
    span: Span
    related: tuple[Related, ...] = ()
    fixes: tuple[Fix, ...] = field(default=(), compare=False)

    @property
    def fix(self) -> Fix | None:
        """The fix to apply when only one can be: the preferred one, else the first."""
        for fix in self.fixes:
            if fix.preferred:
                return fix
        return self.fixes[0] if self.fixes else None
