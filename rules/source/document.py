"""Source text with the position conversions every rule and fix needs.

`ast` reports columns as UTF-8 byte offsets; diagnostics and edits use character columns.
"""
from __future__ import annotations

import _thread
import ast
import warnings
from collections.abc import Iterator
from functools import cached_property

from ..diagnostics import Span
from .imports import Imports
from .text import newline_of, split_lines


# CPython 3.11's parser is not safe to run in two threads at once: it can fail with "SystemError:
# AST constructor recursion depth mismatch" (python/cpython#106905). The server parses in its
# fast-pass and jedi threads, so every parse of the analyzer goes through this lock.
_PARSE_LOCK = _thread.allocate_lock()  # threading.Lock itself, without importing threading for the CLI


# What `parse` raises for text it cannot take: RecursionError and MemoryError when CPython's parser
# gives up on deep nesting ("too deeply nested"), ValueError for NUL bytes.
PARSE_FAILURES = (SyntaxError, ValueError, RecursionError, MemoryError)


def parse(source: str, path: str = "<unknown>") -> ast.Module:
    with _PARSE_LOCK, warnings.catch_warnings():
        warnings.simplefilter("ignore", SyntaxWarning)  # (`1if x else 2`: the user's code, not ours to print)
        return ast.parse(source, filename=path)


def compile_only(source: str, path: str = "<unknown>") -> None:
    """Parse to find a syntax error, as `compile(..., PyCF_ONLY_AST)` (under the same lock)."""
    with _PARSE_LOCK, warnings.catch_warnings():
        warnings.simplefilter("ignore", SyntaxWarning)
        compile(source, path, "exec", ast.PyCF_ONLY_AST, dont_inherit=True)


class Document:
    def __init__(self, source: str, path: str = "<stdin>", parser=None) -> None:
        self.source = source
        self.path = path
        self.parser = parser  # an incremental.IncrementalParser that remembers the previous text
        self.lines = (parser.lines_of(source) if parser is not None else split_lines(source)) or [""]
        self._spans: dict[ast.AST, Span] = {}  # rules and the engine ask for the same nodes' spans
        self._whole: Document | None = None  # a part's: the document it is a part of (`whole`)
        self.asked: dict[tuple, object] = {}   # the questions `ask` answered, with their answers
        # (question, document) → its facts for the top-level statements (questions.ModuleQuestion),
        # when an editor's part cache keeps them; None: a question walks the whole tree.
        self.statement_facts = None

    @classmethod
    def part(cls, whole: "Document", body: list[ast.stmt]) -> "Document":
        """Some of `whole`'s top-level statements, analysed as a module of their own (see
        source/components.py): the same text, lines and imports; a tree of just `body`, whose
        nodes are the whole tree's own. Questions about the whole module go through `ask`."""
        part = cls.__new__(cls)
        part.source, part.path, part.parser, part.lines = whole.source, whole.path, None, whole.lines
        part._spans = whole._spans
        part._whole, part.asked, part.statement_facts = whole, {}, None
        part.__dict__["tree"] = ast.Module(body=list(body), type_ignores=[])
        part.__dict__["imports"] = whole.imports
        return part

    @property
    def whole(self) -> "Document":
        """The module: this document itself, or the one this part is a part of. (Not an attribute
        pointing at itself: a document in a reference cycle waits for the garbage collector, and an
        editor drops one a keystroke.)"""
        return self._whole if self._whole is not None else self

    def ask(self, query, *args):
        """`query(module_document, *args)`: a question about the whole module (the line a new import
        goes on, the names it uses), answered once per text. A part records what it asked and
        the answers: its findings, reused after an edit elsewhere, hold while the answers do."""
        key = (query, args)
        whole = self.whole
        if key not in whole.asked:
            whole.asked[key] = query(whole, *args)
        answer = whole.asked[key]
        if whole is not self:
            self.asked[key] = answer
        return answer

    def contains(self, needle: str) -> bool:
        """`needle in self.source`. An editor's document (with an incremental parser) searches the
        lines its last edits changed, for a needle without a line break."""
        whole = self.whole
        if whole.parser is not None and "\n" not in needle and "\r" not in needle:
            return whole.parser.contains(needle, whole.lines)
        return needle in self.source

    @cached_property
    def tree(self) -> ast.Module:
        if self.parser is not None:
            return self.parser.parse(self.source)
        return parse(self.source, self.path)

    @cached_property
    def imports(self) -> Imports:
        return Imports(self.tree, self.nodes_of(ast.Import, ast.ImportFrom))

    def use_imports(self, imports: Imports) -> None:
        """The `Imports` of another text whose import statements and top-level assignments are
        these very nodes (an editor's previous text)."""
        self.__dict__["imports"] = imports

    def use_import_nodes(self, nodes: list[ast.AST]) -> None:
        """Make `imports` from these import statements, every one of the tree in source order,
        found by a caller that keeps them per top-level statement (no walk of the whole tree)."""
        self.__dict__["imports"] = Imports(self.tree, nodes)

    def drop_caches(self) -> None:
        """Forget what the analysis cached here and can compute again (the node lists, the parent
        map, the spans): a server keeps the analysed document of every open file, and these
        doubled its memory."""
        for name in ("nodes", "_by_type", "parents", "_index"):
            self.__dict__.pop(name, None)
        self._spans.clear()

    @cached_property
    def nodes(self) -> list[ast.AST]:
        """Every node of the tree in `ast.walk` order, walked once: rules filter this list."""
        return self._index[0]

    def nodes_of(self, *kinds: type) -> list[ast.AST]:
        """The nodes of these exact types: in `ast.walk` order for one type, in source order for several."""
        if len(kinds) == 1:
            return list(self._by_type.get(kinds[0], ()))
        found = [node for kind in kinds for node in self._by_type.get(kind, ())]
        return sorted(found, key=lambda n: (getattr(n, "lineno", 0), getattr(n, "col_offset", 0)))

    @cached_property
    def _by_type(self) -> dict[type, list[ast.AST]]:
        by_type: dict[type, list[ast.AST]] = {}
        for node in self.nodes:
            kind = type(node)
            if kind in by_type:
                by_type[kind].append(node)
            else:
                by_type[kind] = [node]
        return by_type

    @cached_property
    def parents(self) -> dict[ast.AST, ast.AST]:
        return self._index[1]

    def ancestors(self, node: ast.AST) -> Iterator[tuple[ast.AST, ast.AST]]:
        """(child, parent) pairs from `node` up to the module: `child` is the one of `parent`'s
        children the walk came through."""
        child, parent = node, self.parents.get(node)
        while parent is not None:
            yield child, parent
            child, parent = parent, self.parents.get(parent)

    def scope_of(self, node: ast.AST) -> ast.AST | None:
        """The function, lambda or class `node` is in (None: the module)."""
        return next((parent for _, parent in self.ancestors(node) if isinstance(parent, _SCOPES)), None)

    def loop_around(self, node: ast.AST) -> ast.AST | None:
        """The innermost loop or comprehension `node` runs in, within its function (or the
        module): where it may run more than once, each time on its own values."""
        for _, parent in self.ancestors(node):
            if isinstance(parent, _SCOPES):
                return None
            if isinstance(parent, _REPEATING):
                return parent
        return None

    @cached_property
    def _index(self) -> tuple[list[ast.AST], dict[ast.AST, ast.AST]]:
        if self.parser is not None and (reused := self.parser.index(self.tree)) is not None:
            return reused  # the unchanged statements' nodes come from the previous parse
        # One breadth-first pass for both (as ast.walk, without its per-node generators).
        nodes: list[ast.AST] = [self.tree]
        parents: dict[ast.AST, ast.AST] = {}
        AST = ast.AST
        for node in nodes:  # the list grows while it is read: a queue without a deque
            for name in node._fields:
                value = getattr(node, name, None)
                if isinstance(value, list):
                    for item in value:
                        if isinstance(item, AST):
                            parents[item] = node
                            nodes.append(item)
                elif isinstance(value, AST):
                    parents[value] = node
                    nodes.append(value)
        return nodes, parents

    def _char_col(self, line: int, byte_col: int) -> int:
        if line - 1 >= len(self.lines):
            return 0
        text = self.lines[line - 1]
        if text.isascii():
            return byte_col
        return len(text.encode("utf-8")[:byte_col].decode("utf-8", errors="replace"))

    def span(self, node: ast.AST) -> Span:
        cached = self._spans.get(node)
        if cached is None:
            cached = self._spans[node] = self._span(node)
        return cached

    def _span(self, node: ast.AST) -> Span:
        end_line = node.end_lineno or node.lineno
        end_col = node.end_col_offset if node.end_col_offset is not None else node.col_offset
        return Span(
            node.lineno,
            self._char_col(node.lineno, node.col_offset),
            end_line,
            self._char_col(end_line, end_col),
        )

    def text(self, node: ast.AST) -> str:
        """The node's exact source (`ast.get_source_segment` re-splits the file on every call)."""
        if getattr(node, "end_lineno", None) is None:
            return ""
        span = self.span(node)
        if span.line == span.end_line:
            return self.lines[span.line - 1][span.col: span.end_col]
        middle = "".join(self.lines[span.line: span.end_line - 1])
        return self.lines[span.line - 1][span.col:] + middle + self.lines[span.end_line - 1][: span.end_col]

    def short(self, node: ast.AST, limit: int = 48) -> str:
        """The expression's source on one line, shortened for messages."""
        text = " ".join(self.text(node).split())
        return text if len(text) <= limit else text[: limit - 1] + "…"

    def line_indent(self, line: int) -> str:
        text = self.lines[line - 1] if line - 1 < len(self.lines) else ""
        return text[: len(text) - len(text.lstrip())]

    @cached_property
    def newline(self) -> str:
        """The line ending a fix writes in this text."""
        return newline_of(self.source)

    def short_span(self, span, limit: int = 48) -> str:
        """The source text of a span on one line, shortened for messages."""
        lines = self.lines[span.line - 1: span.end_line]
        if not lines:
            return ""
        if len(lines) == 1:
            text = lines[0][span.col: span.end_col]
        else:
            text = lines[0][span.col:] + "".join(lines[1:-1]) + lines[-1][: span.end_col]
        text = " ".join(text.split())
        return text if len(text) <= limit else text[: limit - 1] + "…"


_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
_REPEATING = (ast.For, ast.AsyncFor, ast.While, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
