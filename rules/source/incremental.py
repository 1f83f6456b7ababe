"""Re-parse only the top-level statements an edit touched.

In an editor most keystrokes change one line inside one function. `IncrementalParser` keeps the
previous parse of a document split into top-level chunks (a statement with its decorators, or
statements sharing a line); when the new text has the same lines at the same places outside a
chunk, only the changed chunks are parsed again — each with as many newlines before it as lines
above it, so its nodes get their real line numbers without a walk to shift them.

The result is the tree a full parse would give. Whenever that is not certain — the line count
changed, a line between chunks changed, a chunk stopped being a complete statement — it falls
back to a full parse. One parser serves one document and is not thread-safe.
"""
from __future__ import annotations

import ast
import bisect
from dataclasses import dataclass, field

from .document import parse, split_lines


@dataclass(eq=False, repr=False)
class _Chunk:
    first: int                  # 1-based first line (its first decorator's)
    last: int                   # 1-based last line
    text: str                   # the source of those lines
    body: tuple[ast.stmt, ...]  # the statements parsed from them
    # The chunk's nodes level by level (breadth first) and their parents, once asked for.
    levels: list[list[ast.AST]] | None = field(default=None, repr=False)
    parents: dict[ast.AST, ast.AST] | None = field(default=None, repr=False)

    def index(self) -> tuple[list[list[ast.AST]], dict[ast.AST, ast.AST]]:
        if self.levels is None:
            self.levels, self.parents = _levels(list(self.body))
        return self.levels, self.parents


class IncrementalParser:
    def __init__(self, path: str = "<unknown>"):
        self.path = path
        self._lines: list[str] | None = None
        self._chunks: list[_Chunk] = []
        self._gaps: list[int] = []
        self.reused = self.parsed = 0  # chunks, for benchmarks and tests
        self._tree: ast.Module | None = None
        self._split: tuple[str, list[str]] | None = None  # the last text split, and its lines
        self._mentions: dict[tuple[str, bool], tuple[list[str], int]] = {}  # needle → (lines, how many hold it)
        self._change: tuple | None = None  # (old lines, new lines, lines alike at the start, at the end)

    def lines_of(self, source: str) -> list[str]:
        """`split_lines(source)`, once per text: the document and the parse share them."""
        if self._split is None or self._split[0] is not source:
            self._split = (source, split_lines(source))
        return self._split[1]

    def use_lines(self, source: str, lines: list[str]) -> None:
        """`lines` are `split_lines(source)`, as a caller keeps them from one edit to the next (an
        editor's document): `lines_of(source)` gives them without splitting the text again."""
        self._split = (source, lines)

    def contains(self, needle: str, lines: list[str], fold_case: bool = False) -> bool:
        """`needle in "".join(lines)` (in any case with `fold_case`, `needle` in lower case), for a
        needle without a line break, from the count of lines holding it in the text last asked
        about: an edit's lines are searched, not the whole text (each of a module's questions that
        searched its text cost a 5,000-line keystroke 0.1 ms, `str.lower` of it 0.2 ms)."""
        def holds(line: str) -> bool:
            return needle in (line.lower() if fold_case else line)

        known = self._mentions.get((needle, fold_case))
        if known is None:
            text = "".join(lines)
            count = sum(map(holds, lines)) if needle in (text.lower() if fold_case else text) else 0
        else:
            old, count = known
            prefix, suffix = self._common_ends(old, lines)
            count += sum(map(holds, lines[prefix:len(lines) - suffix])) - sum(map(holds, old[prefix:len(old) - suffix]))
        self._mentions[(needle, fold_case)] = (lines, count)
        return count > 0

    def _common_ends(self, old: list[str], new: list[str]) -> tuple[int, int]:
        """`_common_ends(old, new)`, known when the parse compared the same two texts."""
        known = self._change
        if known is None or known[0] is not old or known[1] is not new:
            known = self._change = (old, new, *_common_ends(old, new))
        return known[2], known[3]

    def parse(self, source: str) -> ast.Module:
        lines = self.lines_of(source)
        tree = self._reuse(lines)
        if tree is None:
            tree = self._reuse_above(lines)
            if tree is None:
                tree = parse(source, self.path)
                self._chunks = _chunks(tree, lines)
                self.parsed += len(self._chunks)
            inside = {n for chunk in self._chunks for n in range(chunk.first, chunk.last + 1)}
            self._gaps = [i for i in range(len(lines)) if i + 1 not in inside]  # 0-based lines between chunks
        self._lines = lines
        self._tree = tree
        return tree

    def index(self, tree: ast.Module) -> tuple[list[ast.AST], dict[ast.AST, ast.AST]] | None:
        """`tree`'s nodes in `ast.walk` order and their parents, from the chunks' cached indexes.

        Breadth first over the module is, level by level, the chunks' own levels in chunk order.
        """
        if tree is not self._tree:
            return None
        nodes: list[ast.AST] = [tree]
        parents: dict[ast.AST, ast.AST] = {}
        indexes = [chunk.index() for chunk in self._chunks]
        for chunk in self._chunks:
            for stmt in chunk.body:
                parents[stmt] = tree
        depth = 0
        while True:
            level = [node for levels, _ in indexes if depth < len(levels) for node in levels[depth]]
            if not level:
                break
            nodes.extend(level)
            depth += 1
        for _, chunk_parents in indexes:
            parents.update(chunk_parents)
        return nodes, parents

    def _reuse(self, lines: list[str]) -> ast.Module | None:
        old = self._lines
        if old is None or len(old) != len(lines) or not self._chunks:
            return None
        first, last = _changed_lines(old, lines)  # (first > last: the same text, every chunk kept)
        self._change = (old, lines, first, len(lines) - 1 - last) if first <= last else (old, lines, len(lines), 0)
        gaps = self._gaps[bisect.bisect_left(self._gaps, first):bisect.bisect_right(self._gaps, last)]
        if any(old[i] != lines[i] for i in gaps):
            return None  # a line between statements changed: the structure may have too
        # The chunks the changed lines touch, found by bisection (a keystroke touches one of hundreds).
        chunks = self._chunks
        low = bisect.bisect_left(chunks, first + 1, key=_last_line)   # (1-based lines, 0-based first/last)
        high = max(low, bisect.bisect_right(chunks, last + 1, key=_first_of))  # (low: the same text)
        touched = []
        for chunk in chunks[low:high]:
            if old[chunk.first - 1:chunk.last] != lines[chunk.first - 1:chunk.last]:
                chunk = _reparse(chunk, "".join(lines[chunk.first - 1:chunk.last]), self.path)
                if chunk is None:
                    return None
                self.parsed += 1
            touched.append(chunk)
        self.reused += len(chunks) - len(touched)
        start = sum(len(chunk.body) for chunk in chunks[:low])  # the touched chunks' place in the body
        end = start + sum(len(chunk.body) for chunk in chunks[low:high])
        body = self._tree.body
        self._chunks = [*chunks[:low], *touched, *chunks[high:]]
        return ast.Module(body=[*body[:start], *(stmt for chunk in touched for stmt in chunk.body), *body[end:]],
                          type_ignores=[])

    def _reuse_above(self, lines: list[str]) -> ast.Module | None:
        """Lines were added or removed (or the structure changed): keep the statements wholly
        above the first changed line and parse the rest, when the rest starts a statement of its
        own; the statements above keep their nodes (and the analysis of their parts)."""
        old = self._lines
        if old is None or not self._chunks:
            return None
        changed = next((i for i, (a, b) in enumerate(zip(old, lines)) if a != b), min(len(old), len(lines)))
        kept = [chunk for chunk in self._chunks if chunk.last <= changed]  # (1-based last line, 0-based index)
        if not kept or not _starts_a_statement(lines, kept[-1].last):
            return None
        start = kept[-1].last  # the 0-based first line of the rest
        try:
            rest = parse("\n" * start + "".join(lines[start:]), self.path)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return None  # the full parse says what is wrong
        new = _chunks(rest, lines)
        self.reused += len(kept)
        self.parsed += len(new)
        self._chunks = kept + new
        return ast.Module(body=[stmt for chunk in self._chunks for stmt in chunk.body], type_ignores=[])


def _changed_lines(old: list[str], new: list[str]) -> tuple[int, int]:
    """The first and last 0-based index where two lists of lines of the same length differ
    (first > last: none). A keystroke changes one line: comparing from both ends finds it
    without comparing every chunk's lines."""
    size, step = len(old), 256  # blocks of lines compared as lists (in C), then line by line
    first = 0
    while first < size and old[first:first + step] == new[first:first + step]:
        first += step
    while first < size and old[first] == new[first]:
        first += 1
    if first >= size:
        return size, -1
    last = size
    while last - step > first and old[last - step:last] == new[last - step:last]:
        last -= step
    last -= 1
    while last > first and old[last] == new[last]:
        last -= 1
    return first, last


def _common_ends(old: list[str], new: list[str]) -> tuple[int, int]:
    """How many lines the two lists share at their start, and then at their end (not overlapping
    what the start took), compared in blocks as `_changed_lines` does."""
    size, step = min(len(old), len(new)), 256
    prefix = 0
    while prefix + step <= size and old[prefix:prefix + step] == new[prefix:prefix + step]:
        prefix += step
    while prefix < size and old[prefix] == new[prefix]:
        prefix += 1
    suffix, room = 0, size - prefix
    while suffix + step <= room and old[len(old) - suffix - step:len(old) - suffix] \
            == new[len(new) - suffix - step:len(new) - suffix]:
        suffix += step
    while suffix < room and old[len(old) - suffix - 1] == new[len(new) - suffix - 1]:
        suffix += 1
    return prefix, suffix


_CONTINUES = ("else", "elif", "except", "finally")  # a line at column 0 that belongs to the statement above


def _starts_a_statement(lines: list[str], index: int) -> bool:
    """The first line from `index` (0-based) that is not blank or a comment starts a top-level
    statement of its own: not indented, not an `else:` or `except:` of the one above (or none is
    left), and the line above does not end with a backslash (which joins the next line to it)."""
    if index > 0 and lines[index - 1].rstrip("\r\n").endswith("\\"):
        return False
    for line in lines[index:]:
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        word = stripped.split(None, 1)[0].rstrip(":")
        return not line[0].isspace() and word not in _CONTINUES
    return True


def _reparse(chunk: _Chunk, text: str, path: str) -> _Chunk | None:
    try:
        module = parse("\n" * (chunk.first - 1) + text, path)
    except (SyntaxError, ValueError):
        return None
    if not module.body or module.body[0].lineno < chunk.first or module.body[-1].end_lineno > chunk.last:
        return None
    if _first_line(module.body[0]) != chunk.first:
        return None  # the chunk now starts with a comment or blank line: the boundaries moved
    return _Chunk(chunk.first, chunk.last, text, tuple(module.body))


def _levels(roots: list[ast.AST]) -> tuple[list[list[ast.AST]], dict[ast.AST, ast.AST]]:
    levels, parents = [], {}
    level = roots
    while level:
        levels.append(level)
        following = []
        for node in level:
            for name in node._fields:
                value = getattr(node, name, None)
                if isinstance(value, list):
                    for item in value:
                        if isinstance(item, ast.AST):
                            parents[item] = node
                            following.append(item)
                elif isinstance(value, ast.AST):
                    parents[value] = node
                    following.append(value)
        level = following
    return levels, parents


def _last_line(chunk: _Chunk) -> int:
    return chunk.last


def _first_of(chunk: _Chunk) -> int:
    return chunk.first


def _first_line(stmt: ast.stmt) -> int:
    decorators = getattr(stmt, "decorator_list", None) or []
    return min([stmt.lineno, *(d.lineno for d in decorators)])


def _chunks(tree: ast.Module, lines: list[str]) -> list[_Chunk]:
    """Top-level statements grouped so that no two chunks share a line."""
    groups: list[list[ast.stmt]] = []
    for stmt in tree.body:
        if groups and _first_line(stmt) <= groups[-1][-1].end_lineno:
            groups[-1].append(stmt)  # `a = 1; b = 2`
        else:
            groups.append([stmt])
    out = []
    for group in groups:
        first, last = _first_line(group[0]), group[-1].end_lineno
        out.append(_Chunk(first, last, "".join(lines[first - 1:last]), tuple(group)))
    return out
