"""A notebook cell's IPython syntax turned into Python, line for line, without importing IPython.

This is the subset of IPython's own input transformation (`TransformerManager.transform_cell` in
IPython.core.inputtransformer2, then the automagic of a one-line cell in
`InteractiveShell.transform_cell`) that notebooks use, checked against IPython itself by
tests/test_notebook_ipython.py. IPython is a test dependency only. Measured on the 5647 code cells
of 261 public notebooks (IPython 9.18, Python 3.11): importing IPython's transformer adds 29 ms
and 66 modules (its interactive shell among them) to a process that has gradguard loaded, this
module about 3 ms; a cell takes IPython 125 us and this module 45 us on average (most cells are
plain Python, settled by one parse), both about 160 us on the 359 cells that are not.

What differs from IPython is only the shape of the result: IPython joins a backslash-continued
`!cmd` into one line and a cell magic into one call, but here every cell keeps exactly its own
number of lines, so a line of the result is the same line of the cell:

- the cell's common indentation is removed (IPython dedents a cell; `indents` says what each line
  lost, so that a column maps back into the cell). IPython 9 removes the indentation every line
  shares; IPython 7 and 8 (older kernels, hosted ones among them) remove the first line's
  indentation from each line that starts with it. A cell that runs under either is accepted;
- `!cmd`, `%magic`, `?`/`??` help, a `%%cell magic`'s first line and an automagic command
  (`pip install x` alone in a cell) become `pass` at their indentation, and the lines a backslash
  continued them onto become empty; `x = !cmd` and `x = %magic` keep `x = ` and IPython's call,
  so `x` stays bound;
- the body of a cell magic is empty lines, unless the magic runs it as a cell (`%%time`,
  `%%timeit`, `%%capture`, `%%prun`): then it is transformed as a cell of its own, as the magic
  does at run time.

Not covered: pasted `>>>` / `In [1]:` prompts (IPython strips them; no notebook seen uses them),
and line breaks other than "\\r\\n", "\\r" and "\\n" (IPython splits a cell with `str.splitlines`,
which also breaks at a form feed; Python does not).
"""
from __future__ import annotations

import io
import re
import sys
import tokenize
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from .document import PARSE_FAILURES, parse
from .text import split_lines

# Cell magics that run their body as an IPython cell (`shell.transform_cell` or `run_cell`).
PYTHON_CELL_MAGICS = frozenset({"time", "timeit", "capture", "prun"})

# The line magics a one-line cell may name without `%` (automagic, on by default): IPython 9's
# (with the POSIX shell aliases, which are line magics too) and those ipykernel adds.
LINE_MAGICS = frozenset("""
    alias alias_magic autoawait autocall automagic bookmark cat cd code_wrap colors conda config
    cp debug dhist dirs doctest_mode ed edit env gui hist history killbgscripts ldir lf lk ll
    load load_ext loadpy logoff logon logstart logstate logstop ls lsmagic lx macro magic mamba
    matplotlib micromamba mkdir mv notebook page pastebin pdb pdef pdoc pfile pinfo pinfo2 pip
    popd pprint precision prun psearch psource pushd pwd pycat pylab quickref recall rehashx
    reload_ext rep rerun reset reset_selective rm rmdir run save sc set_env sx system tb time
    timeit unalias unload_ext uv who who_ls whos xdel xmode
""".split())
KERNEL_LINE_MAGICS = frozenset({"autosave", "clear", "connect_info", "less", "man", "more", "qtconsole"})

_ESCAPES = {"!", "?", "%", ",", ";", "/"}
_HELP_END = re.compile(r"(%{0,2}(?!\d)[\w*]+(\.(?!\d)[\w*]+|\[-?[0-9]+\])*)(\?\??)$")
_USER_INPUT = re.compile(r"^(\s*)([,;/%]|!!?|\?\??)?\s*(%{0,2}[\w.*]*)(.*?$|$)")
_INDENT = re.compile(r"[ \t]*")
_CAUGHT_TOKEN_ERRORS = (  # what IPython's tokenutil.generate_tokens_catch_errors stops at quietly
    "unterminated string literal", "invalid non-printable character", "after line continuation character",
    "invalid decimal literal", "invalid binary literal", "invalid octal literal",
    "invalid hexadecimal literal", "in binary literal", "in octal literal", "expected EOF",
)
_TRANSFORM_LIMIT = 500  # IPython gives up after as many rounds


@dataclass(unsafe_hash=True)
class CellPython:
    """A cell as Python: one line per line of the cell, each ending in "\\n"."""

    lines: tuple[str, ...]
    indents: tuple[str, ...]      # per line, the indentation the cell's dedent removed from it
    transformed: tuple[bool, ...]  # per line, IPython syntax replaced (the line is not the cell's)
    parses: bool

    @property
    def text(self) -> str:
        return "".join(self.lines)


def cell_python(cell_text: str) -> CellPython:
    """The cell as Python (see the module docstring); `parses` says whether that parses."""
    # Split where Python splits (a lone "\r" ends a line too), not at "\n" only: a cell written
    # with "\r" endings otherwise counts as one line here and several for `ast`, and every
    # position after it (diagnostics, fix edits) lands in the wrong line or cell. Found by fuzzing.
    lines = [line.rstrip("\r\n") + "\n" for line in split_lines(cell_text)]
    # Plain Python: IPython changes nothing in it, but for the margin it removes from a cell
    # whose lines all start indented (which parses only when they are all comments).
    if _parses("".join(lines)) and not _common_margin(lines):
        return _unchanged(lines, True)
    return _transformed(lines)


def _unchanged(lines: Sequence[str], parses: bool) -> CellPython:
    return CellPython(tuple(lines), ("",) * len(lines), (False,) * len(lines), parses)


def _transformed(lines: list[str]) -> CellPython:
    first = next((i for i, line in enumerate(lines) if line.strip()), None)
    if first is None:
        return _unchanged(lines, True)
    margin = _common_margin(lines)                                   # IPython 9
    leading = _INDENT.match(lines[first]).group()                    # IPython 7 and 8
    result = _transform(lines, first, margin)
    if not result.parses and leading != margin:
        other = _transform(lines, first, leading)
        if other.parses:
            return other
    return result


def _common_margin(lines: Sequence[str]) -> str:
    margin = None
    for line in lines:
        if not line.strip():
            continue
        indent = _INDENT.match(line).group()
        if margin is None:
            margin = indent
        else:
            common = 0
            while common < min(len(margin), len(indent)) and margin[common] == indent[common]:
                common += 1
            margin = margin[:common]
    return margin or ""


def _transform(lines: list[str], first: int, prefix: str) -> CellPython:
    indents = [prefix if prefix and line.startswith(prefix) else "" for line in lines]
    out = [line[len(indent):] for line, indent in zip(lines, indents)]
    transformed = [False] * len(lines)
    if out[first].startswith("%%") and not re.match(r"%%\w+\?", out[first]):
        return _cell_magic(out, first, indents)
    static_lines = _token_transforms(out, transformed, first)
    if static_lines == 1:  # IPython's automagic applies to a cell of one line only
        line = next(i for i in range(first, len(out)) if out[i].strip())
        if not transformed[line] and _automagic(out[line]):
            out[line], transformed[line] = "pass\n", True
    return CellPython(tuple(out), tuple(indents), tuple(transformed), _parses("".join(out)))


def _cell_magic(out: list[str], first: int, indents: list[str]) -> CellPython:
    name = out[first][2:].rstrip().partition(" ")[0]
    head = out[:first] + ["pass\n"]
    head_done = [False] * first + [True]
    if name not in PYTHON_CELL_MAGICS:
        rest = len(out) - first - 1
        return CellPython(tuple(head + ["\n"] * rest), tuple(indents), tuple(head_done + [True] * rest), True)
    body = cell_python("".join(out[first + 1:]))
    body_indents = tuple(outer + inner for outer, inner in zip(indents[first + 1:], body.indents))
    return CellPython(tuple(head) + body.lines, tuple(indents[:first + 1]) + body_indents,
                      tuple(head_done) + body.transformed, body.parses)


# -- the token transformers: each round rewrites the earliest IPython syntax left ----------------


def _token_transforms(out: list[str], transformed: list[bool], first: int) -> int:
    """Rewrite `out` in place as IPython's token transformers would, keeping the line count;
    returns how many lines IPython's result has (from the first non-blank line on)."""
    removed = 0  # continuation lines IPython would have joined into the line before
    for _ in range(_TRANSFORM_LIMIT):
        try:
            groups = _logical_lines(out)
        except (SyntaxError, ValueError):  # IndentationError: IPython raises too, the cell fails
            break
        found = (_magic_assign(groups), _system_assign(groups), _escaped(groups), _help_end(groups))
        # IPython's order: by position, then priority (help first), then the transformers' order
        candidates = sorted((c[:3], order, c[3:]) for order, c in enumerate(found) if c is not None)
        for _position, _order, (kind, *where) in candidates:
            change = _apply(kind, out, *where)
            if change is not None:
                start, end, new_line = change
                out[start:end + 1] = [new_line] + ["\n"] * (end - start)
                transformed[start:end + 1] = [True] * (end - start + 1)
                removed += end - start
                break
        else:
            break
    return len(out) - first - removed


def _logical_lines(lines: Sequence[str]) -> list[list[tokenize.TokenInfo]]:
    """Tokens grouped by logical line, as IPython's make_tokens_by_line groups them."""
    groups: list[list[tokenize.TokenInfo]] = [[]]
    depth = 0
    try:
        for token in _tokens(lines):
            groups[-1].append(token)
            if token.type == tokenize.NEWLINE or (token.type == tokenize.NL and depth <= 0):
                groups.append([])
            elif token.type == tokenize.OP and token.string in {"(", "[", "{"}:
                depth += 1
            elif token.type == tokenize.OP and token.string in {")", "]", "}"} and depth > 0:
                depth -= 1
    except tokenize.TokenError:
        pass  # the text ends inside a bracket or a string: the groups so far
    if not groups[-1]:
        groups.pop()
    return groups


def _tokens(lines: Sequence[str]) -> Iterator[tokenize.TokenInfo]:
    last = None
    try:
        for token in tokenize.generate_tokens(io.StringIO("".join(lines)).readline):
            last = token
            yield token
    except tokenize.TokenError as error:
        if not any(text in str(error.args[0]) for text in _CAUGHT_TOKEN_ERRORS):
            raise
        where = (last.start[0], last.end[0]) if last else (1, 0)
        yield tokenize.TokenInfo(tokenize.ERRORTOKEN, "", where, where, last.line if last else "")


def _first_assign(group: Sequence[tokenize.TokenInfo]) -> int | None:
    depth = 0
    for index, token in enumerate(group):
        if token.string == "=" and depth == 0:
            return index
        if token.string in {"(", "[", "{"}:
            depth += 1
        elif token.string in {")", "]", "}"} and depth > 0:
            depth -= 1
    return None


def _magic_assign(groups):
    for group in groups:
        at = _first_assign(group)
        if at is not None and len(group) > at + 2 and group[at + 1].string == "%" \
                and group[at + 2].type == tokenize.NAME:
            return (*_zero_based(group[at + 1].start), 10, "magic_assign", *_zero_based(group[at + 1].start))
    return None


def _system_assign(groups):
    for group in groups:
        at = _first_assign(group)
        if at is None or group[at].line.strip().startswith("=") or len(group) < at + 2:
            continue
        if sys.version_info >= (3, 12):
            if group[at + 1].type == tokenize.OP and group[at + 1].string == "!":
                return (*_zero_based(group[at + 1].start), 10, "system_assign", *_zero_based(group[at + 1].start))
            continue
        index = at + 1
        while index < len(group) and group[index].type == tokenize.ERRORTOKEN:
            if group[index].string == "!":
                return (*_zero_based(group[index].start), 10, "system_assign", *_zero_based(group[index].start))
            if not group[index].string.isspace():
                break
            index += 1
    return None


def _escaped(groups):
    for group in groups:
        index = 0
        while index < len(group) and group[index].type in (tokenize.INDENT, tokenize.DEDENT):
            index += 1
        if index < len(group) and group[index].string in _ESCAPES:
            return (*_zero_based(group[index].start), 10, "escaped", *_zero_based(group[index].start))
    return None


def _help_end(groups):
    for group in groups:
        if len(group) > 2 and group[-2].string == "?":
            index = 0
            while group[index].type in (tokenize.INDENT, tokenize.DEDENT):
                index += 1
            start = _zero_based(group[index].start)
            return (*start, 5, "help_end", *start, group[-2].start[0] - 1)
    return None


def _zero_based(position: tuple[int, int]) -> tuple[int, int]:
    return position[0] - 1, position[1]


def _continued_to(lines: Sequence[str], start: int) -> int:
    end = start
    while lines[end].endswith("\\\n"):
        end += 1
        if end >= len(lines):
            break
    return end


def _assembled(lines: Sequence[str], start: int, col: int, end: int) -> str:
    parts = [lines[start][col:], *lines[start + 1:end + 1]]
    return " ".join([part.rstrip()[:-1] for part in parts[:-1]] + [parts[-1].rstrip()])


def _apply(kind: str, lines: list[str], start: int, col: int, *extra) -> tuple[int, int, str] | None:
    """(first line, last line, the new first line) of one rewrite, or None where IPython's
    transformer raises SyntaxError (it then tries the next candidate)."""
    if kind == "help_end":
        piece = "".join(lines[start:extra[0] + 1])
        if not _HELP_END.search(piece[col:]):
            return None
        return start, extra[0], piece[:col] + "pass\n"
    end = _continued_to(lines, start)
    rest = _assembled(lines, start, col, end)
    end = min(end, len(lines) - 1)
    before = lines[start][:col]
    if kind == "magic_assign":
        name, _, args = rest[1:].partition(" ")
        return start, end, f"{before}get_ipython().run_line_magic({name!r}, {args!r})\n"
    if kind == "system_assign":
        return start, end, f"{before}get_ipython().getoutput({rest[1:]!r})\n"
    call = _autocall(rest)
    if call is False:
        return None
    return start, end, f"{before}{call or 'pass'}\n"


def _autocall(line: str) -> str | None | bool:
    """IPython's call for the `,f a b`, `;f a b` and `/f a b` escapes (None for the others,
    whose line becomes `pass`; False where IPython refuses the line)."""
    escape, content = line[:1], line[1:]
    if line[:2] in ("!!", "??") or escape not in {",", ";", "/"}:
        return None
    name, _, args = content.partition(" ")
    if escape == ",":
        return '{}("{}")'.format(name, '", "'.join(args.split()))
    if escape == ";":
        return f'{name}("{args}")'
    if not name:
        return False
    return "{}({})".format(name, ", ".join(args.split()))


def _automagic(line: str) -> bool:
    """Whether IPython runs this line (a one-line cell) as a magic named without `%`."""
    _pre, escape, name, rest = _USER_INPUT.match(line.rstrip("\n")).groups()
    rest = rest.lstrip()
    if escape or (rest and rest[0] in "=,"):
        return False
    return name.strip() in LINE_MAGICS or name.strip() in KERNEL_LINE_MAGICS


def _parses(source: str) -> bool:
    try:
        parse(source)
    except PARSE_FAILURES:  # a cell nested too deeply for Python's parser too (found by fuzzing)
        return False
    return True
