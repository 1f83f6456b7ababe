"""Report formats for `gradguard check`: text (like ruff), json, sarif, github, statistics.

Every formatter takes findings `(path, source, Diagnostic)`. `source` is the checked text, or a
`Notebook` for .ipynb files: every format then gives the cell (1-based among all the notebook's
cells, as ruff and Jupyter count them) and the line and column inside that cell (text output:
`path:cell N:line:col`; json: `"cell": N`; sarif: a `cell` property and "cell N: " before the
message; github: the same before the message). Columns are 0-based characters in Diagnostic,
1-based in every output; SARIF counts them in UTF-16 code units, as its `columnKind` says.
The fields of each format are documented in docs/output-formats.md, and tests/test_output_schemas.py
validates them against tests/data/gradguard-json.schema.json and the SARIF 2.1.0 schema.
"""
from __future__ import annotations

import inspect
import json
import os
import unicodedata
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from .. import __version__
from ..diagnostics import Diagnostic, Edit, Fix, Safety, Severity, Span
from ..fix.edits import chosen_fix
from ..source.notebook import Notebook, NotebookError, relabel_lines
from ..source.text import line_texts

Finding = tuple[str, "str | Notebook", Diagnostic]

CODES_URL = "https://github.com/gradguard/gradguard/blob/main/docs/output-formats.md"


@dataclass(unsafe_hash=True)
class CliCode:
    """A code the CLI reports itself, outside the rule registry (and so outside the catalogue)."""

    code: str
    name: str
    summary: str
    what: str
    severity: Severity

    def doc_url(self) -> str:
        return f"{CODES_URL}#{self.code.lower()}-{self.name}"

    def doc(self) -> str:
        return f"# {self.code}: {self.name}\n\n{self.summary}\n\n**Severity:** {self.severity.value}\n\n{self.what}\n"


CLI_CODES = {
    "E999": CliCode(
        "E999", "syntax-error", "The file does not parse as Python, so it was not checked.",
        "gradguard analyses only code that parses (in a notebook: each cell that parses; a cell that "
        "does not is reported and the others are checked, as IPython runs them). Like ruff, syntax "
        "errors are always reported: `--ignore E999` has no effect (gradguard says so).",
        Severity.ERROR),
    "E902": CliCode(
        "E902", "io-error", "The file could not be read (or is not text, or not a notebook), so it was not checked.",
        "A file that is not UTF-8, contains NUL bytes, is not valid notebook JSON, or cannot be read "
        "is reported with this code instead of being skipped silently. It cannot be ignored either.",
        Severity.ERROR),
    "GG900": CliCode(
        "GG900", "unused-suppression", "A suppression comment that hides nothing.",
        "`# gradguard: ignore[GG101]`, `# noqa: GG101` or a file-level `# gradguard: noqa` whose codes "
        "match no finding of an enabled rule (ruff's RUF100). Off by default, like RUF100: turn it on "
        "with `--extend-select GG900` (or `--select GG900`). Only gradguard's codes are judged: `# noqa` "
        "without codes and codes of other tools (`# noqa: F401`) are left alone.",
        Severity.WARNING),
}
BUILTIN_NAMES = {code: item.name for code, item in CLI_CODES.items()}
_SARIF_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}
_GITHUB_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}


def fixable(diagnostic: Diagnostic, unsafe_fixes: bool) -> bool:
    """Would --fix (with --unsafe-fixes when given) apply this diagnostic's fix?"""
    return chosen_fix(diagnostic, unsafe_fixes) is not None


def rule_name(code: str) -> str:
    from ..catalogue import registry  # not for the text format: a check from the cache reads no rule

    rule = registry.rule_by_code(code)
    return rule.name if rule else BUILTIN_NAMES.get(code, "")


def rule_url(code: str) -> str | None:
    from ..catalogue import registry

    rule = registry.rule_by_code(code) or CLI_CODES.get(code)
    return rule.doc_url() if rule else None


# ---------------------------------------------------------------------------------------------
# positions


@dataclass(unsafe_hash=True)
class Place:
    """A position as shown: the cell (1-based, None outside notebooks), 1-based line, 0-based column."""

    cell: int | None
    line: int
    col: int


def place(source: str | Notebook, line: int, col: int) -> Place:
    if isinstance(source, Notebook):
        try:
            index, cell_line, cell_col = source.cell_position(line, col)
            return Place(index + 1, cell_line, cell_col)
        except NotebookError:
            pass
    return Place(None, line, col)


def span_places(source: str | Notebook, span: Span) -> tuple[Place, Place]:
    """Start and end of a span as shown; an end in another cell is clamped to the start's cell."""
    start, end = place(source, span.line, span.col), place(source, span.end_line, span.end_col)
    if end.cell != start.cell:
        last = len(_shown_lines(source, start.cell))
        end = Place(start.cell, max(last, start.line), len(_shown_line(source, start.cell, max(last, start.line))))
    return start, end


def _shown_lines(source: str | Notebook, cell: int | None) -> list[str]:
    """The lines of the text positions are shown in: the cell's own text, or the file's."""
    if cell is not None and isinstance(source, Notebook):
        text = next((c.text for c in source.cells if c.index == cell - 1), "")
        return line_texts(text)
    return line_texts(source.source if isinstance(source, Notebook) else source)


def _shown_line(source: str | Notebook, cell: int | None, line: int) -> str:
    lines = _shown_lines(source, cell)
    return lines[line - 1] if 1 <= line <= len(lines) else ""


def utf16_column(text: str, col: int) -> int:
    """A 0-based character column as a count of UTF-16 code units (characters past U+FFFF are two)."""
    return col + sum(1 for char in text[:col] if ord(char) > 0xFFFF)


# ---------------------------------------------------------------------------------------------
# text


class Style:
    """ANSI colours for the text output, or none (`--color`, NO_COLOR, FORCE_COLOR: see cli.py)."""

    def __init__(self, enabled: bool):
        self.enabled = enabled

    def _wrap(self, codes: str, text: str) -> str:
        return f"\033[{codes}m{text}\033[0m" if self.enabled and text else text

    def bold(self, text: str) -> str:
        return self._wrap("1", text)

    def code(self, text: str) -> str:
        return self._wrap("1;31", text)

    def fixable(self, text: str) -> str:
        return self._wrap("36", text)

    def gutter(self, text: str) -> str:
        return self._wrap("1;34", text)

    def caret(self, text: str) -> str:
        return self._wrap("1;31", text)

    def help(self, text: str) -> str:
        return self._wrap("1;36", text)

    def note(self, text: str) -> str:
        return self._wrap("1;34", text)

    def success(self, text: str) -> str:
        return self._wrap("1;32", text)


PLAIN = Style(False)
_default_style = PLAIN


def set_color(enabled: bool) -> None:
    """The style of text output from now on (the CLI decides it once per run)."""
    global _default_style
    _default_style = Style(enabled)


def format_text(
    findings: Sequence[Finding], *, unsafe_fixes: bool = False, summary: bool = True, fixed: int = 0,
    style: Style | None = None,
) -> str:
    style = style or _default_style
    blocks = [_text_block(path, source, diag, unsafe_fixes, style) for path, source, diag in findings]
    if summary:
        blocks.append(_styled_summary(summary_line(findings, unsafe_fixes, fixed), style) + "\n")
    return "\n".join(blocks)


def _location(path: str, source: str | Notebook, line: int, col: int) -> str:
    """`path:line:col` (1-based column), `path:cell N:line:col` in notebooks; no path for ''."""
    prefix = f"{path}:" if path else ""
    where = place(source, line, col)
    cell = f"cell {where.cell}:" if where.cell is not None else ""
    return f"{prefix}{cell}{where.line}:{where.col + 1}"


def _text_block(path: str, source: str | Notebook, diag: Diagnostic, unsafe_fixes: bool, style: Style) -> str:
    mark = " " + style.fixable("[*]") if fixable(diag, unsafe_fixes) else ""
    span = diag.span
    location = _location(path, source, span.line, span.col)
    if path:
        location = style.bold(path + ":") + location[len(path) + 1:]
    out = [f"{location}: {style.code(diag.code)}{mark} {diag.message}"]
    out += _snippet(source, diag, style)
    for related in diag.related:
        if related.path:  # another module (a helper found with jedi)
            where = _location(_shown_path(related.path), "", related.span.line, related.span.col)
        else:
            where = _location("", source, related.span.line, related.span.col)
        out.append(f"  {style.note('= note:')} {where}: {_relabel(related.message, source)}")
    fix = diag.fix
    if fix is not None:
        unsafe = " (unsafe fix)" if fix.safety is Safety.UNSAFE else ""
        out.append(f"  {style.help('= help:')} {fix.title}{unsafe}")
    return "\n".join(out) + "\n"


def _relabel(message: str, source: str | Notebook) -> str:
    """A related note's "on line N" of the joined cells, as "in cell C, line L" (like the message)."""
    if not isinstance(source, Notebook):
        return message
    return relabel_lines(message, source.cell_of_line)


def _shown_path(path: str) -> str:
    relative = os.path.relpath(path)
    return path if relative.startswith("..") else relative


def char_width(char: str) -> int:
    """Terminal columns of one character: 2 for East Asian wide and fullwidth ones (CJK, most
    emoji), 0 for combining marks and zero-width joiners, else 1."""
    if unicodedata.combining(char) or char in "\u200b\u200c\u200d\ufe0e\ufe0f":
        return 0
    return 2 if unicodedata.east_asian_width(char) in "WF" else 1


def display_width(text: str, start: int = 0) -> int:
    """Terminal columns of `text` printed from column `start`; tabs go to the next multiple of 8."""
    if text.isascii() and "\t" not in text:
        return len(text)  # every ASCII character but the tab is one column (char_width)
    column = start
    for char in text:
        column = column + 8 - column % 8 if char == "\t" else column + char_width(char)
    return column - start


def expand_tabs(text: str) -> str:
    """`text` with each tab replaced by spaces up to the next multiple of 8 terminal columns
    (str.expandtabs counts characters, which puts a tab after wide characters elsewhere)."""
    if "\t" not in text:
        return text
    out, column = [], 0
    for char in text:
        if char == "\t":
            spaces = 8 - column % 8
            out.append(" " * spaces)
            column += spaces
        else:
            out.append(char)
            column += char_width(char)
    return "".join(out)


_lines_of: tuple[str, list[str]] = ("", [""])  # the last text split: findings come sorted by file


def _snippet(source: str | Notebook, diag: Diagnostic, style: Style) -> list[str]:
    global _lines_of
    text = source.source if isinstance(source, Notebook) else source
    cached = _lines_of  # read once: another thread may render too
    if cached[0] is not text:
        cached = _lines_of = (text, line_texts(text))
    lines = cached[1]
    span = diag.span
    if not 1 <= span.line <= len(lines) or not lines[span.line - 1].strip():
        return []
    line = lines[span.line - 1]
    shown_line = span.line
    if isinstance(source, Notebook):
        shown_line = place(source, span.line, 0).line
    end = span.end_col if span.end_line == span.line else len(line)
    start_width = display_width(line[:span.col])
    caret_width = max(1, display_width(line[:end]) - start_width)
    gutter = " " * len(str(shown_line))
    bar = style.gutter("|")
    return [
        f"{gutter} {bar}",
        f"{style.gutter(str(shown_line))} {bar} {expand_tabs(line)}",
        f"{gutter} {bar} {' ' * start_width}{style.caret('^' * caret_width)}",
        f"{gutter} {bar}",
    ]


def _plural(count: int, word: str, plural: str | None = None) -> str:
    return f"{count} {word if count == 1 else plural or word + 's'}"


def _fix_counts(findings: Sequence[Finding], unsafe_fixes: bool) -> tuple[int, int]:
    """(fixes --fix would apply, more fixes --unsafe-fixes would add)."""
    diags = [diag for _, _, diag in findings]
    safe = sum(fixable(d, unsafe_fixes) for d in diags)
    return safe, sum(fixable(d, True) for d in diags) - safe


def summary_line(findings: Sequence[Finding], unsafe_fixes: bool = False, fixed: int = 0) -> str:
    """The summary, in ruff 0.17's words: "All checks passed!", or

        Found 3 errors.
        [*] 1 fixable with `--fix` (2 unsafe fixes available with `--fix --unsafe-fixes`).

    After --fix, `fixed` counts the applied fixes: "Found 3 errors (2 fixed, 1 remaining)."
    """
    if not findings and not fixed:
        return "All checks passed!"
    if fixed:
        head = f"Found {_plural(fixed + len(findings), 'error')} ({fixed} fixed, {len(findings)} remaining)."
    else:
        head = f"Found {_plural(len(findings), 'error')}."
    safe, hidden = _fix_counts(findings, unsafe_fixes)
    unsafe = f"{_plural(hidden, 'unsafe fix', 'unsafe fixes')} available with `--fix --unsafe-fixes`"
    if safe and hidden:
        return f"{head}\n[*] {safe} fixable with `--fix` ({unsafe})."
    if safe:
        return f"{head}\n[*] {safe} fixable with `--fix`."
    if hidden:
        return f"{head}\n{unsafe[0].upper()}{unsafe[1:]}."
    return head


def _styled_summary(text: str, style: Style) -> str:
    if text == "All checks passed!":
        return style.success(text)
    return text.replace("[*]", style.fixable("[*]"))


def diff_summary(fixed: int, remaining: Sequence[Finding], unsafe_fixes: bool = False) -> str | None:
    """What `--diff` says on stderr, in ruff's words: "Would fix 2 errors (1 additional fix available
    with `--unsafe-fixes`)." or "No errors would be fixed (2 fixes available with `--unsafe-fixes`)."
    `remaining`: the findings the diffed fixes leave."""
    hidden = 0 if unsafe_fixes else sum(fixable(d, True) for _, _, d in remaining)
    if fixed:
        more = f" ({_plural(hidden, 'additional fix', 'additional fixes')} available with `--unsafe-fixes`)" if hidden else ""
        return f"Would fix {_plural(fixed, 'error')}{more}."
    if hidden:
        return f"No errors would be fixed ({_plural(hidden, 'fix', 'fixes')} available with `--unsafe-fixes`)."
    return None


# ---------------------------------------------------------------------------------------------
# json


def format_json(findings: Sequence[Finding]) -> str:
    return json.dumps([_json_item(path, source, diag) for path, source, diag in findings],
                      indent=2, ensure_ascii=False) + "\n"


def _json_item(path: str, source: str | Notebook, diag: Diagnostic) -> dict:
    start, end = span_places(source, diag.span)
    fix = diag.fix
    return {
        "path": path,
        "cell": start.cell,
        "line": start.line,
        "column": start.col + 1,
        "end_line": end.line,
        "end_column": end.col + 1,
        "code": diag.code,
        "name": rule_name(diag.code),
        "url": rule_url(diag.code),
        "severity": diag.severity.value,
        "message": diag.message,
        "fix": None if fix is None else _json_fix(fix, source),
        "related": [_json_related(related, source) for related in diag.related],
    }


def _json_fix(fix: Fix, source: str | Notebook) -> dict:
    return {"title": fix.title, "safety": fix.safety.value,
            "edits": [_json_edit(edit, source) for edit in fix.edits]}


def _json_edit(edit: Edit, source: str | Notebook) -> dict:
    start, end = span_places(source, edit.span)
    return {"cell": start.cell, "line": start.line, "column": start.col + 1, "end_line": end.line,
            "end_column": end.col + 1, "content": edit.new_text}


def _json_related(related, source: str | Notebook) -> dict:
    if related.path:  # another module: positions as they are there
        span = related.span
        return {"path": related.path, "cell": None, "line": span.line, "column": span.col + 1,
                "end_line": span.end_line, "end_column": span.end_col + 1, "message": related.message}
    start, end = span_places(source, related.span)
    return {"path": None, "cell": start.cell, "line": start.line, "column": start.col + 1, "end_line": end.line,
            "end_column": end.col + 1, "message": _relabel(related.message, source)}


# ---------------------------------------------------------------------------------------------
# sarif

SRCROOT = "%SRCROOT%"


def _all_rules() -> list:
    from ..catalogue import registry

    return [*registry.all_rules(), *CLI_CODES.values()]


def format_sarif(findings: Sequence[Finding], root: str | os.PathLike | None = None) -> str:
    """SARIF 2.1.0 as GitHub code scanning reads it. Paths under `root` (default: the current
    folder) are relative to the `%SRCROOT%` base, which `originalUriBaseIds` says is `root`; other
    paths are absolute file:// URIs. Columns count UTF-16 code units (`columnKind`)."""
    root = Path(os.path.abspath(root or os.getcwd()))
    rules = _all_rules()
    index = {rule.code: i for i, rule in enumerate(rules)}
    run = {
        "tool": {"driver": {
            "name": "gradguard",
            "version": __version__,
            "semanticVersion": __version__,
            "informationUri": "https://github.com/gradguard/gradguard",
            "rules": [_sarif_rule(rule) for rule in rules],
        }},
        "originalUriBaseIds": {SRCROOT: {"uri": root.as_uri().rstrip("/") + "/"}},
        "columnKind": "utf16CodeUnits",
        "results": [_sarif_result(path, source, diag, index, root) for path, source, diag in findings],
    }
    sarif = {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [run],
    }
    return json.dumps(sarif, indent=2, ensure_ascii=False) + "\n"


def _sarif_rule(rule) -> dict:
    from ..catalogue.docs import render_rule_doc

    if isinstance(rule, CliCode):
        full, markdown = rule.what, rule.doc()
    else:
        full, markdown = _plain(rule.what), render_rule_doc(rule)
    return {
        "id": rule.code,
        "name": rule.name,
        "shortDescription": {"text": _plain(rule.summary)},
        "fullDescription": {"text": full},
        "help": {"text": f"{_plain(rule.summary)}\n\nDocumentation: {rule.doc_url()}", "markdown": markdown},
        "helpUri": rule.doc_url(),
        "defaultConfiguration": {"level": _SARIF_LEVEL[rule.severity]},
        "properties": {"tags": ["gradguard", "tensorflow", "gradients"]},
    }


def _plain(text: str) -> str:
    return inspect.cleandoc(text or "")


def _sarif_result(path: str, source: str | Notebook, diag: Diagnostic, index: dict[str, int], root: Path) -> dict:
    artifact = _artifact(path, root)
    start, _ = span_places(source, diag.span)
    message = diag.message if start.cell is None else f"cell {start.cell}: {diag.message}"
    location = {"physicalLocation": {"artifactLocation": artifact, "region": _region(source, diag.span)}}
    if start.cell is not None:
        location["properties"] = {"cell": start.cell}
    result = {
        "ruleId": diag.code,
        "level": _SARIF_LEVEL[diag.severity],
        "message": {"text": message},
        "locations": [location],
    }
    if diag.code in index:
        result["ruleIndex"] = index[diag.code]
    related = [_sarif_related(number, item, source, artifact, root) for number, item in enumerate(diag.related, 1)]
    if related:
        result["relatedLocations"] = related
    # A notebook's fix is in cell positions, which no SARIF consumer can apply to the .ipynb's JSON.
    if diag.fix is not None and start.cell is None and not isinstance(source, Notebook):
        result["fixes"] = [_sarif_fix(fix, source, artifact) for fix in diag.fixes]
    if start.cell is not None:
        result["properties"] = {"cell": start.cell}
    return result


def _region(source: str | Notebook, span: Span) -> dict:
    start, end = span_places(source, span)
    return {
        "startLine": start.line,
        "startColumn": utf16_column(_shown_line(source, start.cell, start.line), start.col) + 1,
        "endLine": end.line,
        "endColumn": utf16_column(_shown_line(source, end.cell, end.line), end.col) + 1,
    }


def _sarif_related(number: int, related, source: str | Notebook, artifact: dict, root: Path) -> dict:
    if related.path:  # another module; its text is not at hand, so columns are as the analysis gave them
        span = related.span
        region = {"startLine": span.line, "startColumn": span.col + 1, "endLine": span.end_line,
                  "endColumn": span.end_col + 1}
        location = {"artifactLocation": _artifact(related.path, root), "region": region}
        message = related.message
    else:
        location = {"artifactLocation": artifact, "region": _region(source, related.span)}
        message = _relabel(related.message, source)
    return {"id": number, "physicalLocation": location, "message": {"text": message}}


def _sarif_fix(fix: Fix, source: str, artifact: dict) -> dict:
    description = fix.title + (" (unsafe fix)" if fix.safety is Safety.UNSAFE else "")
    replacements = [{"deletedRegion": _region(source, edit.span), "insertedContent": {"text": edit.new_text}}
                    for edit in fix.edits]
    return {"description": {"text": description},
            "artifactChanges": [{"artifactLocation": artifact, "replacements": replacements}]}


def _artifact(path: str, root: Path) -> dict:
    absolute = Path(os.path.abspath(path))
    try:
        relative = absolute.relative_to(root)
    except ValueError:
        return {"uri": absolute.as_uri()}
    return {"uri": quote(relative.as_posix()), "uriBaseId": SRCROOT}


# ---------------------------------------------------------------------------------------------
# github


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def format_github(findings: Sequence[Finding]) -> str:
    """GitHub Actions workflow commands: each finding becomes an annotation on the PR."""
    lines = []
    for path, source, diag in findings:
        start, end = span_places(source, diag.span)
        props = (
            f"file={_escape_property(path)},line={start.line},col={start.col + 1},"
            f"endLine={end.line},endColumn={end.col + 1},title={_escape_property(diag.code)}"
        )
        message = diag.message if start.cell is None else f"cell {start.cell}, line {start.line}: {diag.message}"
        lines.append(f"::{_GITHUB_LEVEL[diag.severity]} {props}::{_escape_data(message)}\n")
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


def render(
    fmt: str, findings: Sequence[Finding], *, unsafe_fixes: bool = False, summary: bool = True, fixed: int = 0
) -> str:
    if fmt == "text":
        return format_text(findings, unsafe_fixes=unsafe_fixes, summary=summary, fixed=fixed)
    return {"json": format_json, "sarif": format_sarif, "github": format_github}[fmt](findings)
