"""Report formats for `gradguard check`: text (like ruff), json, sarif, github, statistics.

Every formatter takes findings `(path, source, Diagnostic)`. `source` is the checked text, or a
`Notebook` for .ipynb files (text output then shows `path:cell N:line:col`; the machine formats
keep positions in the notebook's joined Python source so that every position is unique).
Columns are 0-based in Diagnostic and 1-based in every output.
"""
from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from .. import __version__, api
from ..catalogue import registry
from ..diagnostics import Diagnostic, Severity
from ..source.notebook import Notebook
from ..source.text import line_texts

Finding = tuple[str, "str | Notebook", Diagnostic]

# Codes the CLI reports itself, outside the rule registry.
BUILTIN_NAMES = {"E999": "syntax-error", "E902": "io-error"}
_SARIF_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}
_GITHUB_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}


def fixable(diagnostic: Diagnostic, unsafe_fixes: bool) -> bool:
    """Would --fix (with --unsafe-fixes when given) apply this diagnostic's fix?"""
    return api.chosen_fix(diagnostic, unsafe_fixes) is not None


def rule_name(code: str) -> str:
    rule = registry.rule_by_code(code)
    return rule.name if rule else BUILTIN_NAMES.get(code, "")


# ---------------------------------------------------------------------------------------------
# text


def format_text(
    findings: Sequence[Finding], *, unsafe_fixes: bool = False, summary: bool = True, fixed: int = 0
) -> str:
    blocks = [_text_block(path, source, diag, unsafe_fixes) for path, source, diag in findings]
    if summary:
        blocks.append(summary_line(findings, unsafe_fixes, fixed) + "\n")
    return "\n".join(blocks)


def _location(path: str, source: str | Notebook, line: int, col: int) -> str:
    """`path:line:col` (1-based column), `path:cell N:line:col` in notebooks; no path for ''."""
    prefix = f"{path}:" if path else ""
    if isinstance(source, Notebook):
        try:
            cell, line, col = source.cell_position(line, col)
            return f"{prefix}cell {cell + 1}:{line}:{col + 1}"
        except ValueError:
            pass
    return f"{prefix}{line}:{col + 1}"


def _text_block(path: str, source: str | Notebook, diag: Diagnostic, unsafe_fixes: bool) -> str:
    mark = " [*]" if fixable(diag, unsafe_fixes) else ""
    span = diag.span
    out = [f"{_location(path, source, span.line, span.col)}: {diag.code}{mark} {diag.message}"]
    out += _snippet(source, diag)
    for related in diag.related:
        if related.path:  # another module (a helper found with jedi)
            where = _location(_shown_path(related.path), "", related.span.line, related.span.col)
        else:
            where = _location("", source, related.span.line, related.span.col)
        out.append(f"  = note: {where}: {related.message}")
    return "\n".join(out) + "\n"


def _shown_path(path: str) -> str:
    relative = os.path.relpath(path)
    return path if relative.startswith("..") else relative


def _snippet(source: str | Notebook, diag: Diagnostic) -> list[str]:
    text = source.source if isinstance(source, Notebook) else source
    lines = line_texts(text)
    span = diag.span
    if not 1 <= span.line <= len(lines) or not lines[span.line - 1].strip():
        return []
    line = lines[span.line - 1]
    shown_line = span.line
    if isinstance(source, Notebook):
        shown_line = source.cell_position(span.line, 0)[1]
    end = span.end_col if span.end_line == span.line else len(line)
    start_width = len(line[:span.col].expandtabs())
    caret_width = max(1, len(line[:end].expandtabs()) - start_width)
    gutter = " " * len(str(shown_line))
    return [
        f"{gutter} |",
        f"{shown_line} | {line.expandtabs()}",
        f"{gutter} | {' ' * start_width}{'^' * caret_width}",
        f"{gutter} |",
    ]


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def summary_line(findings: Sequence[Finding], unsafe_fixes: bool = False, fixed: int = 0) -> str:
    """"Found 3 errors (1 fixable with --fix; 1 more with --unsafe-fixes)." or "All checks passed!".

    After --fix, `fixed` counts the applied fixes: "Found 3 errors (2 fixed, 1 remaining)."
    """
    if fixed:
        return f"Found {_plural(fixed + len(findings), 'error')} ({fixed} fixed, {len(findings)} remaining)."
    if not findings:
        return "All checks passed!"
    diags = [diag for _, _, diag in findings]
    safe = sum(fixable(d, unsafe_fixes) for d in diags)
    hidden = sum(fixable(d, True) for d in diags) - safe
    notes = []
    if safe:
        notes.append(f"{safe} fixable with --fix")
    if hidden:
        notes.append(f"{hidden} more with --unsafe-fixes")
    detail = f" ({'; '.join(notes)})" if notes else ""
    return f"Found {_plural(len(diags), 'error')}{detail}."


# ---------------------------------------------------------------------------------------------
# json


def format_json(findings: Sequence[Finding]) -> str:
    items = []
    for path, _, diag in findings:
        span, fix = diag.span, diag.fix
        items.append({
            "path": path,
            "line": span.line,
            "column": span.col + 1,
            "end_line": span.end_line,
            "end_column": span.end_col + 1,
            "code": diag.code,
            "severity": diag.severity.value,
            "message": diag.message,
            "fix": None if fix is None else {"title": fix.title, "safety": fix.safety.value},
        })
    return json.dumps(items, indent=2, ensure_ascii=False) + "\n"


# ---------------------------------------------------------------------------------------------
# sarif


def format_sarif(findings: Sequence[Finding]) -> str:
    rules = registry.all_rules()
    index = {rule.code: i for i, rule in enumerate(rules)}
    run = {
        "tool": {"driver": {
            "name": "gradguard",
            "version": __version__,
            "informationUri": "https://github.com/gradguard/gradguard",
            "rules": [_sarif_rule(rule) for rule in rules],
        }},
        "results": [_sarif_result(path, diag, index) for path, _, diag in findings],
    }
    sarif = {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [run],
    }
    return json.dumps(sarif, indent=2, ensure_ascii=False) + "\n"


def _sarif_rule(rule) -> dict:
    return {
        "id": rule.code,
        "name": rule.name,
        "shortDescription": {"text": rule.summary},
        "fullDescription": {"text": rule.what},
        "helpUri": rule.doc_url(),
        "defaultConfiguration": {"level": _SARIF_LEVEL[rule.severity]},
    }


def _sarif_result(path: str, diag: Diagnostic, index: dict[str, int]) -> dict:
    span = diag.span
    result = {
        "ruleId": diag.code,
        "level": _SARIF_LEVEL[diag.severity],
        "message": {"text": diag.message},
        "locations": [{"physicalLocation": {
            "artifactLocation": {"uri": _uri(path)},
            "region": {
                "startLine": span.line,
                "startColumn": span.col + 1,
                "endLine": span.end_line,
                "endColumn": span.end_col + 1,
            },
        }}],
    }
    if diag.code in index:
        result["ruleIndex"] = index[diag.code]
    return result


def _uri(path: str) -> str:
    candidate = Path(path)
    return candidate.as_uri() if candidate.is_absolute() else candidate.as_posix()


# ---------------------------------------------------------------------------------------------
# github


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def format_github(findings: Sequence[Finding]) -> str:
    """GitHub Actions workflow commands: each finding becomes an annotation on the PR."""
    lines = []
    for path, _, diag in findings:
        span = diag.span
        props = (
            f"file={_escape_property(path)},line={span.line},col={span.col + 1},"
            f"endLine={span.end_line},endColumn={span.end_col + 1},title={_escape_property(diag.code)}"
        )
        lines.append(f"::{_GITHUB_LEVEL[diag.severity]} {props}::{_escape_data(diag.message)}\n")
    return "".join(lines)


# ---------------------------------------------------------------------------------------------
# statistics


def statistics(findings: Sequence[Finding], unsafe_fixes: bool = False) -> list[dict]:
    counts = Counter(diag.code for _, _, diag in findings)
    fixable_codes = {diag.code for _, _, diag in findings if fixable(diag, unsafe_fixes)}
    ordered = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    return [
        {"code": code, "name": rule_name(code), "count": count, "fixable": code in fixable_codes}
        for code, count in ordered
    ]


def format_statistics(findings: Sequence[Finding], *, unsafe_fixes: bool = False, as_json: bool = False) -> str:
    rows = statistics(findings, unsafe_fixes)
    if as_json:
        return json.dumps(rows, indent=2) + "\n"
    width = max((len(str(row["count"])) for row in rows), default=1)
    return "".join(
        f"{row['count']:>{width}}\t{row['code']}\t{'[*]' if row['fixable'] else '[ ]'} {row['name']}\n"
        for row in rows
    )


FORMATS = ("text", "json", "sarif", "github")


def render(
    fmt: str, findings: Sequence[Finding], *, unsafe_fixes: bool = False, summary: bool = True, fixed: int = 0
) -> str:
    if fmt == "text":
        return format_text(findings, unsafe_fixes=unsafe_fixes, summary=summary, fixed=fixed)
    return {"json": format_json, "sarif": format_sarif, "github": format_github}[fmt](findings)
