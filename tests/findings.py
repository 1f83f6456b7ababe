"""What a user sees, as plain text: gradguard's findings on one source, for snapshot tests.

Not a test module: tests import it (it never imports TensorFlow). `render` prints every
diagnostic the way ruff's `.snap` files do: code, severity and exact span, the message, the
source lines under the span with carets, the related locations with their messages, and every
fix with its title, safety and preferred flag, its raw edits and the diff of the source after
applying that fix alone. The result is a multi-line string, which syrupy's amber serializer
stores as it is, so a snapshot file reads like the CLI's output.
"""
from __future__ import annotations

import difflib
from collections.abc import Iterable, Sequence

from gradguard.rules import Diagnostic, Edit, Fix, Span, analyze

NO_FINDINGS = "no findings\n"


def where(span: Span) -> str:
    """`line:col-end_line:end_col`: 1-based lines, 0-based character columns, end exclusive."""
    return f"{span.line}:{span.col}-{span.end_line}:{span.end_col}"


def code_lines(source: str, diagnostics: Iterable[Diagnostic]) -> list[tuple[str, int]]:
    """The multiset of (code, line) of the findings, sorted: what the corpus headers pin."""
    return sorted((d.code, d.span.line) for d in diagnostics)


def apply_edits(source: str, edits: Sequence[Edit]) -> str:
    """`source` with `edits` applied (1-based lines, character columns, non-overlapping).

    Written here rather than taken from the analyzer, so that a snapshot shows what the edits
    say, not what the analyzer's own applier makes of them."""
    lines = source.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))

    def offset(line: int, col: int) -> int:
        if line - 1 >= len(lines):
            return len(source)
        return starts[line - 1] + col

    out = source
    for edit in sorted(edits, key=lambda e: (e.span.line, e.span.col), reverse=True):
        begin, end = offset(edit.span.line, edit.span.col), offset(edit.span.end_line, edit.span.end_col)
        out = out[:begin] + edit.new_text + out[end:]
    return out


def _excerpt(lines: list[str], span: Span, indent: str = "") -> list[str]:
    """The span's source lines with carets under the spanned characters (at most 4 lines shown)."""
    numbers = list(range(span.line, min(span.end_line, len(lines)) + 1)) or [span.line]
    if len(numbers) > 4:
        numbers = numbers[:2] + [None] + numbers[-1:]
    width = len(str(numbers[-1]))
    gutter = f"{indent}{'':>{width}} |"
    out = [gutter]
    for number in numbers:
        if number is None:
            out.append(f"{indent}{'...':>{width}} |")
            continue
        text = lines[number - 1] if number - 1 < len(lines) else ""
        start = span.col if number == span.line else len(text) - len(text.lstrip())
        end = span.end_col if number == span.end_line else len(text)
        out.append(f"{indent}{number:>{width}} | {text}")
        out.append(f"{gutter} {' ' * start}{'^' * max(1, end - start)}")
    out.append(gutter)
    return out


def _fix(source: str, fix: Fix) -> list[str]:
    flags = fix.safety.value + (", preferred" if fix.preferred else "")
    out = [f" = fix [{flags}]: {fix.title}"]
    for edit in fix.edits:
        out.append(f"     edit {where(edit.span)} -> {edit.new_text!r}")
    after = apply_edits(source, fix.edits)
    diff = difflib.unified_diff(source.splitlines(), after.splitlines(), lineterm="", n=1)
    out.extend(f"     {line}" for line in list(diff)[2:])  # without the ---/+++ file names
    return out


def render_diagnostic(source: str, diagnostic: Diagnostic) -> str:
    lines = source.splitlines()
    out = [f"{diagnostic.code} [{diagnostic.severity.value}] {where(diagnostic.span)}", diagnostic.message]
    out.extend(_excerpt(lines, diagnostic.span))
    for related in diagnostic.related:
        place = f"{related.path}:" if related.path else ""
        out.append(f" = related {place}{where(related.span)}: {related.message}")
    for fix in diagnostic.fixes:
        out.extend(_fix(source, fix))
    if diagnostic.fixes:
        out.append(f" = preferred fix: {diagnostic.fix.title}")
    else:
        out.append(" = no fix")
    return "\n".join(line.rstrip() for line in out) + "\n"


def render(source: str, diagnostics: Sequence[Diagnostic] | None = None, path: str = "<stdin>") -> str:
    """Every finding on `source` (analysed with `analyze` unless given), one block each."""
    if diagnostics is None:
        diagnostics = analyze(source, path)
    if not diagnostics:
        return NO_FINDINGS
    return "\n".join(render_diagnostic(source, d) for d in diagnostics)
