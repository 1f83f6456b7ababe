"""Suppression comments on a diagnostic's first line.

    x.numpy()  # gradguard: ignore[GG101]        one code (or a prefix: GG4 = every GG4xx)
    x.numpy()  # gradguard: ignore[GG101, GG4]
    x.numpy()  # gradguard: ignore               everything on this line
    x.numpy()  # noqa: GG101,GG102               ruff/flake8 style: exact codes
    x.numpy()  # noqa                            everything on this line

    # gradguard: noqa                            on a line of its own: the whole file
    # gradguard: noqa: GG1, GG303                on a line of its own: these codes in the whole file

Only real comments count: the line is tokenized so that `"# noqa"` inside a string is ignored.
`unused_suppressions` finds the comments that hide nothing (GG900, off by default like ruff's
RUF100; the CLI runs it when GG900 is selected).
"""
from __future__ import annotations

import io
import re
import tokenize
from collections.abc import Callable, Sequence

from ..diagnostics import Diagnostic, Edit, Fix, Safety, Severity, Span
from ..source.text import line_texts, split_lines

_GRADGUARD = re.compile(r"#\s*gradguard\s*:\s*ignore\b(?:\[(?P<codes>[^\]]*)\])?", re.IGNORECASE)
_NOQA = re.compile(
    r"#\s*noqa\b(?:\s*:\s*(?P<codes>[A-Z]+[0-9]+(?:[\s,]+[A-Z]+[0-9]+)*))?", re.IGNORECASE
)
_FILE_NOQA = re.compile(
    r"^\s*#\s*gradguard\s*:\s*noqa\b(?:\s*:\s*(?P<codes>[A-Z]+[0-9]*(?:[\s,]+[A-Z]+[0-9]*)*))?\s*$", re.IGNORECASE
)
_ALL = None  # marks "every code" in the parsed suppressions
UNUSED_CODE = "GG900"


def visible(found: list[Diagnostic], source: str, lines: Sequence[str],
            mentions: Callable[[str], bool] | None = None) -> list[Diagnostic]:
    """`found` without what a comment suppresses. `lines`: the source's lines with their endings
    (`split_lines`, as the document has them). Only each finding's own line is read, and the text
    is searched once for a file-level comment: no second split of the whole text per analysis.
    `mentions(word)`: whether the text holds the word in any case, when an editor's parser keeps
    the answer from one text to the next (`IncrementalParser.contains`)."""
    if not found:
        return found
    noqa = mentions("noqa") if mentions is not None else "noqa" in source.lower()
    file_codes = _file_codes(line_texts(source)) if noqa else ()
    return [d for d in found if not _hidden(d, file_codes, lines)]


def suppressed(diagnostic: Diagnostic, source_lines: Sequence[str]) -> bool:
    """Whether a comment hides `diagnostic` in the file of these lines (without their endings, as
    `line_texts` gives them)."""
    return _hidden(diagnostic, _file_codes(source_lines), source_lines)


def _hidden(diagnostic: Diagnostic, file_codes: Sequence[str | None], lines: Sequence[str]) -> bool:
    if any(_covers(("gradguard", code), diagnostic.code) for code in file_codes):
        return True
    index = diagnostic.span.line - 1
    if not 0 <= index < len(lines):
        return False
    return any(_covers(rule, diagnostic.code) for rule in line_suppressions(lines[index].rstrip("\r\n")))


def _file_codes(source_lines: Sequence[str]) -> tuple[str | None, ...]:
    return tuple(code for _, _, code in file_suppressions(source_lines))


def file_suppressions(source_lines: Sequence[str]) -> list[tuple[int, re.Match, str | None]]:
    """(1-based line, match, code or None for all) of each `# gradguard: noqa` line of the file."""
    found = []
    if "noqa" not in "\n".join(source_lines).lower():  # nearly every file: one search, not one per line
        return found
    for number, line in enumerate(source_lines, 1):
        if "noqa" not in line.lower():
            continue
        match = _FILE_NOQA.match(line)
        if match and _comments(line):
            found.extend((number, match, code) for code in _split_codes(match["codes"]))
    if found:  # rare: make sure each is a real comment, not a line inside a multi-line string
        comment_lines = _comment_lines(source_lines)
        found = [item for item in found if comment_lines is None or item[0] in comment_lines]
    return found


def _comment_lines(source_lines: Sequence[str]) -> set[int] | None:
    """The lines where a comment starts (None when the text does not tokenize)."""
    try:
        tokens = tokenize.generate_tokens(io.StringIO("\n".join(source_lines)).readline)
        return {token.start[0] for token in tokens if token.type == tokenize.COMMENT}
    except (tokenize.TokenError, SyntaxError):
        return None


def _covers(rule: tuple[str, str | None], code: str) -> bool:
    kind, wanted = rule
    if wanted is _ALL:
        return True
    if kind == "gradguard":  # gradguard's own comment accepts prefixes, like select
        return code.startswith(wanted)
    return code == wanted  # noqa codes are exact, as in ruff


def line_suppressions(line: str) -> list[tuple[str, str | None]]:
    """(kind, code or None for all) for each suppression in the line's comments."""
    if "#" not in line:  # most lines: no comment to tokenize for
        return []
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


# ---------------------------------------------------------------------------------------------
# Unused suppression comments (GG900)


def unused_suppressions(source: str, found: Sequence[Diagnostic]) -> list[Diagnostic]:
    """A GG900 warning for each suppression comment with codes that hide none of `found` (the
    enabled rules' findings before suppression), with a safe fix removing the unused codes.

    Only gradguard's own codes are judged: `# noqa` without codes and other tools' codes in a
    `# noqa:` list (F401) may be for ruff or flake8, so they are never reported."""
    lines = line_texts(source)
    by_line: dict[int, list[str]] = {}
    for diagnostic in found:
        by_line.setdefault(diagnostic.span.line, []).append(diagnostic.code)
    every_code = [diagnostic.code for diagnostic in found]
    out = []
    for number, match, codes in _suppression_comments(lines):
        candidates = every_code if match.re is _FILE_NOQA else by_line.get(number, [])
        kind = "noqa" if match.re is _NOQA else "gradguard"
        judged = [code for code in codes if kind == "gradguard" or (code is not _ALL and code.startswith("GG"))]
        unused = [code for code in judged if not any(_covers((kind, code), seen) for seen in candidates)]
        if unused:
            out.append(_unused(number, lines[number - 1], match, codes, unused))
    return out


def _suppression_comments(lines: Sequence[str]):
    """(line, match, codes) of every suppression comment: line-level and file-level."""
    for number, line in enumerate(lines, 1):
        if "#" not in line or not ("noqa" in line.lower() or "gradguard" in line.lower()):
            continue
        file_match = _FILE_NOQA.match(line)
        if file_match and _comments(line):
            if any(found == number for found, _, _ in file_suppressions(lines)):
                yield number, file_match, _split_codes(file_match["codes"])
            continue
        for comment in _comments(line):
            offset = line.rfind(comment)
            for pattern in (_GRADGUARD, _NOQA):
                for match in pattern.finditer(line, offset):
                    yield number, match, _split_codes(match["codes"])


def _unused(number: int, line: str, match: re.Match, codes: list[str | None], unused: list[str | None]) -> Diagnostic:
    begin = line.index("#", match.start())
    span = Span(number, begin, number, match.end())
    kept = [code for code in codes if code not in unused and code is not _ALL]
    names = ", ".join(code for code in unused if code is not _ALL)
    message = "Unused suppression comment" + (f" (unused: {names})" if names else ": it hides no finding")
    if kept:
        joined = ", ".join(kept)
        new = {_GRADGUARD: f"# gradguard: ignore[{joined}]", _NOQA: f"# noqa: {joined}"}.get(
            match.re, f"# gradguard: noqa: {joined}")
        edit, title = Edit(span, new), f"Remove unused {names}"
    elif not line[:begin].strip():  # the comment is the whole line: remove the line
        edit, title = Edit(Span(number, 0, number + 1, 0), ""), "Remove the unused suppression comment"
    else:
        edit = Edit(Span(number, len(line[:begin].rstrip()), number, match.end()), "")
        title = "Remove the unused suppression comment"
    return Diagnostic(UNUSED_CODE, Severity.WARNING, message, span,
                      fixes=(Fix(title, Safety.SAFE, (edit,), preferred=True),))
