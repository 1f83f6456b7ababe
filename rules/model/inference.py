"""Cross-module knowledge from jedi: where an imported callable is defined, and what it does.

The data-flow model sees one file. A training step that calls `to_numpy(model(x))` from
`utils.py`, or builds its network with `models.build_q_network()`, needs to know what those
functions do. `JediResolver` asks jedi where the callee is defined (following imports, package
`__init__` re-exports and star imports across the project and site-packages), then runs the same
analyzer on that module and uses its summary of the function: which parameters reach the return
value, through which breaks, and whether it returns a Keras model.

Jedi is slow and fragile on TensorFlow code, so it is contained:
- `jedi.Script` only: analysed code is parsed, never imported or executed (no `Interpreter`);
- a time budget per document; once spent, questions get "unknown" and the in-file result stands;
- every jedi exception is caught and logged once per kind; a failed question is "unknown";
- answers are cached: jedi's by (file, callee text, the file's imports), foreign modules' analyses
  by (path, content hash), so edits that do not touch imports reuse everything.
"""
from __future__ import annotations

import ast
import builtins
import hashlib
import logging
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from ..diagnostics import Span
from ..source.document import Document
from ..source.imports import is_known_library
from .budget import Budget
from .regularizers import regularizer_conditions
from .values import Cut, Grad, Kind, Origin, OriginKind, Value

log = logging.getLogger("gradguard.jedi")

MAX_DEPTH = 3                  # helper calling helper calling helper: enough for real projects
MAX_MODULE_BYTES = 500_000     # a generated or vendored giant is not worth the budget
MAX_PARSED_DOCUMENTS = 8       # analysed documents whose jedi parse trees stay cached


@dataclass(unsafe_hash=True)
class Foreign:
    """A callable defined in another module, as the engine needs it."""

    path: str
    name: str
    params: tuple[str, ...] = ()        # parameter names, `self` excluded
    summary: Value | None = None        # a function's return value in terms of its parameters
    model: bool = False                 # a Keras model/layer class, or a function returning one
    regularized: Span | None = None     # where (in `path`) the model declares a regularizer (GG311)
    # ... only where its construction gives one of these `__init__` parameters (None: always).
    regularizer_conditions: tuple | None = None
    plain_class: bool = False           # a class that is no model or layer: its objects keep what they are given


class JediResolver:
    """Answers the engine's cross-module questions; one per project, shared across documents."""

    def __init__(self, root: str | None = None, environment: str | None = None):
        self.root = root
        self.environment_path = environment
        self._project = None
        self._environment = None
        self._lock = threading.Lock()              # jedi is not thread-safe
        self._goto_cache: dict[tuple, object] = {}  # jedi's interpreted answers
        self._modules: dict[tuple, "_ForeignModule | None"] = {}  # by (path, hash, depth, conventions)
        self._logged: set[str] = set()
        self._recent_documents: list[str] = []  # whose parse trees jedi may keep (see _forget_old)
        self.stats = {"questions": 0, "jedi_calls": 0, "cache_hits": 0, "failures": 0, "timeouts": 0}

    # -- the engine's question -------------------------------------------------------------------

    def callable_for(self, doc: Document, func: ast.AST, qualname: str | None, budget: Budget,
                     depth: int, sibling: Callable) -> Foreign | None:
        """What `func` (a call's callee in `doc`) is, when it is defined in another module.

        jedi is asked only where it can answer: a name imported from code other than the libraries
        the analyzer knows, or one a relative or star import may bind. (Its first answer in a
        process costs about a second; most scripts and notebooks import only libraries.)"""
        if qualname and is_known_library(qualname):
            return None
        if not qualname and not (isinstance(func, ast.Name) and doc.imports.may_come_from_other_code(func.id)):
            return None  # a name the file defines later, a typo: nothing in another module
        if isinstance(func, ast.Name) and func.id in _BUILTINS and func.id not in doc.imports.relative_names:
            return None  # `zip`, `len` in a file with a star import
        if depth >= MAX_DEPTH or not isinstance(func, (ast.Name, ast.Attribute)):
            return None
        self.stats["questions"] += 1
        budget.asked += 1
        location = self._definition(doc, func, budget)
        if location is None:
            return None
        path, line, kind = location
        module = self._module(path, budget, depth, sibling)
        return module.foreign(line, kind) if module is not None else None

    def is_model(self, doc: Document, node: ast.Attribute, budget: Budget, depth: int, sibling: Callable) -> bool:
        """Whether jedi infers `node` (e.g. `agent.tower`) as an instance of a Keras model class."""
        if depth >= MAX_DEPTH or not _stored_attribute(node) or node.attr in _NOT_MODEL_METHODS:
            return False
        if not doc.imports.other_code:
            return False  # the classes it could be an instance of are in this file or in a library
        budget.asked += 1
        return bool(self._ask("infer", doc, node, budget,
                              lambda names: any(self._keras_instance(name, budget, depth, sibling) for name in names)))

    def _keras_instance(self, name, budget: Budget, depth: int, sibling: Callable) -> bool:
        if name.type != "instance":
            return False
        full = name.full_name or ""
        if full.split(".")[0] in ("keras", "tensorflow", "tf_keras"):
            return any(part in full for part in (".models.", ".layers.", "Sequential", "Model"))
        path = str(name.module_path) if name.module_path else ""
        module = self._module(path, budget, depth, sibling) if path.endswith(".py") else None
        info = module.engine.classes.get(name.name) if module is not None else None
        return bool(info and info.is_keras)

    # -- jedi ----------------------------------------------------------------------------------

    def _definition(self, doc: Document, func: ast.AST, budget: Budget) -> tuple[str, int, str] | None:
        return self._ask("goto", doc, func, budget, _first_definition)

    def _ask(self, question: str, doc: Document, node: ast.AST, budget: Budget, interpret):
        """jedi's `goto` or `infer` at the callee's name, interpreted; cached by the callee's text
        and the file's imports, so edits elsewhere reuse it. A failure is not cached (the next
        edit may succeed); a spent budget answers None."""
        key = (question, doc.path, doc.text(node), _imports_key(doc))
        if key in self._goto_cache:
            self.stats["cache_hits"] += 1
            return self._goto_cache[key]
        if budget.exhausted:
            self.stats["timeouts"] += 1
            return None
        line, column = _name_position(doc, node)
        if question == "goto":
            found = self._jedi(budget, lambda script: script.goto(line, column, follow_imports=True), doc)
        else:
            found = self._jedi(budget, lambda script: script.infer(line, column), doc)
        if found is None:
            return None
        answer = self._goto_cache[key] = interpret(found)
        return answer

    def _jedi(self, budget: Budget, question, doc: Document):
        try:
            import jedi
        except ImportError:
            self._log_once("import", "jedi is not installed; cross-module analysis is off")
            return None
        start = time.perf_counter()
        try:
            with self._lock:
                self.stats["jedi_calls"] += 1
                path = _file_path(doc.path)
                script = jedi.Script(doc.source, path=path, project=self._jedi_project(jedi),
                                     environment=self._jedi_environment(jedi))
                self._forget_old(path)
                return question(script)
        except RecursionError:
            self.stats["failures"] += 1
            self._log_once("RecursionError", "jedi hit Python's recursion limit; that question is skipped")
        except Exception as error:  # jedi raises many kinds on odd code: none may reach the user
            self.stats["failures"] += 1
            self._log_once(type(error).__name__, f"jedi failed ({type(error).__name__}: {error}); skipped")
        finally:
            budget.spent += time.perf_counter() - start
        return None

    def _forget_old(self, path: str | None) -> None:
        """parso keeps the tree of every file jedi parsed for ten minutes: with fifty documents open
        that is most of the server's memory. Keep the trees of the few documents edited last (their
        re-parse is incremental) and of the library modules; drop the others'."""
        if path is None:
            return
        if path in self._recent_documents:
            self._recent_documents.remove(path)
        self._recent_documents.append(path)
        if len(self._recent_documents) <= MAX_PARSED_DOCUMENTS:
            return
        old = self._recent_documents.pop(0)
        try:
            from parso.cache import parser_cache
        except ImportError:
            return
        for trees in parser_cache.values():
            trees.pop(old, None)
            trees.pop(Path(old), None)

    def _jedi_project(self, jedi):
        if self._project is None and self.root:
            self._project = jedi.Project(self.root, load_unsafe_extensions=False)
        return self._project

    def _jedi_environment(self, jedi):
        if self._environment is None and self.environment_path:
            try:
                self._environment = jedi.create_environment(self.environment_path, safe=False)
            except Exception as error:
                self._log_once("environment", f"cannot use the Python environment {self.environment_path!r}: {error}")
                self.environment_path = None
        return self._environment

    def _log_once(self, kind: str, message: str) -> None:
        if kind not in self._logged:
            self._logged.add(kind)
            log.warning(message)

    # -- foreign modules -----------------------------------------------------------------------

    def _module(self, path: str, budget: Budget, depth: int, sibling: Callable) -> "_ForeignModule | None":
        """Another module, analysed as far as summaries need (`Engine.prepare`) by `sibling` (the
        asking engine's `Engine.sibling`: the same break rules and name conventions).

        Kept by what its analysis depends on besides its text: the depth (how much further calls
        may be followed) and the asker's name conventions, so that a file's findings do not depend
        on which file asked first. Its later questions charge the budget of the file asking now."""
        try:
            if os.path.getsize(path) > MAX_MODULE_BYTES:
                return None
            with open(path, encoding="utf-8-sig") as handle:
                source = handle.read()
        except (OSError, UnicodeDecodeError):
            return None
        conventions = getattr(getattr(sibling, "__self__", None), "conventions", None)
        key = (path, hashlib.sha1(source.encode("utf-8", "surrogatepass")).hexdigest(), depth, conventions)
        if key not in self._modules:
            self._modules[key] = _ForeignModule.analyse(path, source, budget, depth + 1, sibling)
        module = self._modules[key]
        if module is not None:
            module.engine.budget = budget
        return module


@dataclass(eq=False, repr=False)
class _ForeignModule:
    path: str
    engine: object
    foreigns: dict[tuple[int, str], Foreign | None] = field(default_factory=dict)

    @classmethod
    def analyse(cls, path: str, source: str, budget: Budget, depth: int, sibling: Callable):
        try:
            doc = Document(source, path)
            engine = sibling(doc, budget, depth)
            engine.prepare()
        except (SyntaxError, ValueError, RecursionError):
            return None
        return cls(path, engine)

    def foreign(self, line: int, kind: str) -> Foreign | None:
        key = (line, kind)
        if key not in self.foreigns:
            self.foreigns[key] = self._describe(line, kind)
        return self.foreigns[key]

    def _describe(self, line: int, kind: str) -> Foreign | None:
        engine = self.engine
        node = next((n for n in engine.doc.tree.body if getattr(n, "lineno", None) == line
                     and isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))), None)
        if node is None:
            return None  # a method or nested function: its receiver is not known here
        if isinstance(node, ast.ClassDef):
            info = engine.class_infos.get(id(node))
            keras = bool(info and info.is_keras)
            effect = engine.class_effect(info) if keras else None
            conditions = regularizer_conditions(node) if effect and effect.regularized else None
            if conditions is not None and engine.sublayers_regularizer(info) is not None:
                conditions = None  # (a sub-layer declares one whatever the construction gives)
            return Foreign(self.path, node.name, model=keras, regularized=effect and effect.regularized,
                           regularizer_conditions=conditions,
                           plain_class=_plain(node) and not keras and not (info and info.is_module))
        try:
            summary = engine.summary(node, None)
        except RecursionError:
            return None
        if summary is None:
            return None
        params = tuple(p.arg for p in engine._params(node))
        if summary.kind == Kind.MODEL:
            return Foreign(self.path, node.name, params, model=True,
                           regularized=summary.effect.regularized if summary.effect is not None else None)
        return Foreign(self.path, node.name, params, _localised(summary, self.path))


def _plain(cls: ast.ClassDef) -> bool:
    """A class of no base but `object`: its objects hold what they are given and nothing else
    (a base of another library, `snt.Module`, may make variables or track them)."""
    return all(isinstance(b, ast.Name) and b.id == "object" for b in cls.bases) and not cls.keywords


def _localised(summary: Value, path: str) -> Value:
    """A foreign summary whose breaks say which file they are in and whose origins cannot be
    confused with the caller's (the key gets the path)."""

    def origin(o: Origin) -> Origin:
        return o if o.kind is OriginKind.PARAM else replace(o, key=f"{path}:{o.key}")

    def grad(g: Grad) -> Grad:
        return replace(g, origin=origin(g.origin))

    live = frozenset(grad(g) for g in summary.live)
    cut = frozenset(Cut(replace(c.brk, path=c.brk.path or path), grad(c.grad)) for c in summary.cut)
    return replace(summary, live=live, cut=cut)


_BUILTINS = frozenset(dir(builtins))
# Methods of lists, dicts, arrays, tensors, variables, optimizers and tapes: never a stored model.
_NOT_MODEL_METHODS = frozenset("""
    append extend insert pop remove clear copy update get keys values items setdefault sort index count
    numpy item tolist astype reshape mean sum max min std argmax argmin clip squeeze flatten ravel transpose
    assign assign_add assign_sub read_value apply_gradients minimize gradient watch jacobian
    sample add push store save load predict fit evaluate compile summary get_weights set_weights
    format join split strip replace lower upper encode decode write read close
""".split())


def _stored_attribute(node: ast.Attribute) -> bool:
    """`agent.scorer`, `self.nets.q`: names all the way down, not `f(x).astype` or `xs[0].m`."""
    value = node.value
    while isinstance(value, ast.Attribute):
        value = value.value
    return isinstance(value, ast.Name)


def _first_definition(names) -> tuple[str, int, str] | None:
    """(path, line, "function" | "class") of the first definition jedi found in a Python file."""
    for name in names:
        path = str(name.module_path) if name.module_path else None
        if path and path.endswith(".py") and name.type in ("function", "class") and name.line:
            return path, name.line, name.type
    return None


def _file_path(path: str) -> str | None:
    """The document's absolute path when it is a file (CLI paths are relative to the cwd)."""
    return os.path.abspath(path) if path and os.path.isfile(path) else None


def _imports_key(doc: Document) -> str:
    """What a name's definition depends on when it is bound by an import: the imports."""
    lines = [doc.text(n) for n in doc.tree.body if isinstance(n, (ast.Import, ast.ImportFrom))]
    return hashlib.sha1("\n".join(lines).encode()).hexdigest()


def _name_position(doc: Document, func: ast.AST) -> tuple[int, int]:
    """jedi's (1-based line, column) of the last name in a callee: `to_numpy`, `utils.to_numpy`."""
    span = doc.span(func)
    if isinstance(func, ast.Attribute):
        return span.end_line, max(span.end_col - len(func.attr), 0)
    return span.line, span.col

