"""Suppression comments on a diagnostic's first line.

    x.numpy()  # gradguard: ignore[GG101]        one code (or a prefix: GG4 = every GG4xx)
    x.numpy()  # gradguard: ignore[GG101, GG4]
    x.numpy()  # gradguard: ignore               everything on this line
    x.numpy()  # noqa: GG101,GG102               ruff/flake8 style: exact codes
    x.numpy()  # noqa                            everything on this line

Only real comments count: the line is tokenized so that `"# noqa"` inside a string is ignored.
"""
from __future__ import annotations

import io
import re
import tokenize
from collections.abc import Sequence

from ..diagnostics import Diagnostic, Edit, Span
from ..source.text import split_lines

_GRADGUARD = re.compile(r"#\s*gradguard\s*:\s*ignore\b(?:\[(?P<codes>[^\]]*)\])?", re.IGNORECASE)
_NOQA = re.compile(
    r"#\s*noqa\b(?:\s*:\s*(?P<codes>[A-Z]+[0-9]+(?:[\s,]+[A-Z]+[0-9]+)*))?", re.IGNORECASE
)
_ALL = None  # marks "every code" in the parsed suppressions


def suppressed(diagnostic: Diagnostic, source_lines: Sequence[str]) -> bool:
    index = diagnostic.span.line - 1
    if not 0 <= index < len(source_lines):
        return False
    return any(_covers(rule, diagnostic.code) for rule in line_suppressions(source_lines[index]))


def _covers(rule: tuple[str, str | None], code: str) -> bool:
    kind, wanted = rule
    if wanted is _ALL:
        return True
    if kind == "gradguard":  # gradguard's own comment accepts prefixes, like select
        return code.startswith(wanted)
    return code == wanted  # noqa codes are exact, as in ruff


def line_suppressions(line: str) -> list[tuple[str, str | None]]:
    """(kind, code or None for all) for each suppression in the line's comments."""
    found = []
    for comment in _comments(line):
        for match in _GRADGUARD.finditer(comment):
            found.extend(("gradguard", code) for code in _split_codes(match["codes"]))
        for match in _NOQA.finditer(comment):
            found.extend(("noqa", code) for code in _split_codes(match["codes"]))
    return found


def _split_codes(text: str | None) -> list[str | None]:
    if text is None:
        return [_ALL]
    codes = [code.upper() for code in re.split(r"[\s,]+", text) if code]
    return codes or [_ALL]


def _comments(line: str) -> list[str]:
    """The comment text on one physical line; regex fallback when the line does not tokenize."""
    comments, complete = [], True
    try:
        for token in tokenize.generate_tokens(io.StringIO(line.lstrip() + "\n").readline):
            if token.type == tokenize.COMMENT:
                comments.append(token.string)
    except (tokenize.TokenError, SyntaxError):
        # e.g. the first line of a call continued on the next line, or of a multi-line string
        complete = False
    if comments or complete:
        return comments
    index = line.find("#")
    return [line[index:]] if index != -1 else []


def suppression_edit(source: str, line: int, code: str) -> Edit:
    """The edit adding `code` to the `# gradguard: ignore[...]` comment of `line` (1-based).

    Extends an existing comment, else appends one. Raises ValueError for a line that cannot take
    a comment (it ends inside a multi-line string or with a backslash continuation).
    """
    lines = split_lines(source) or [""]  # not str.splitlines: a form feed would shift every line after it
    if not 1 <= line <= len(lines):
        raise ValueError(f"line {line} is outside the source ({len(lines)} lines)")
    text = lines[line - 1].rstrip("\r\n")
    existing = _existing_comment(text)
    if existing is not None:
        return _extend_comment(text, line, existing, code)
    if text.rstrip().endswith("\\") or _ends_inside_string(source, line):
        raise ValueError(f"line {line} cannot take a comment")
    content_end = len(text.rstrip())
    comment = f"  # gradguard: ignore[{code}]" if text.strip() else f"# gradguard: ignore[{code}]"
    return Edit(Span(line, content_end, line, len(text)), comment)


def _existing_comment(text: str) -> re.Match | None:
    for comment in _comments(text):
        match = _GRADGUARD.search(comment)
        if match:
            start = text.rindex(comment) + match.start()
            return _GRADGUARD.match(text, start)
    return None


def _extend_comment(text: str, line: int, match: re.Match, code: str) -> Edit:
    codes = _split_codes(match["codes"])
    if _ALL in codes or code in codes:
        return Edit(Span(line, match.end(), line, match.end()), "")  # already suppressed
    merged = ", ".join([*codes, code])
    return Edit(Span(line, match.start(), line, match.end()), f"# gradguard: ignore[{merged}]")


def _ends_inside_string(source: str, line: int) -> bool:
    try:
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            if token.type == tokenize.STRING and token.start[0] <= line < token.end[0]:
                return True
            if token.start[0] > line:
                break
    except (tokenize.TokenError, SyntaxError):
        pass
    return False
