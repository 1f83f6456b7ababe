"""The gradient data-flow model.

One pass over the module's `ast` evaluates every expression to a `Value` (which trainable
things it depends on, differentiably or through a cut), follows values through assignments,
calls of functions defined in the file (by summary), comprehensions and control flow, and
records the *sinks*: what `tape.gradient` differentiates, what a loss function returns, what
`optimizer.minimize` is given. Rules then read the finished `Analysis`.

It never imports TensorFlow or the analysed code.
"""
from __future__ import annotations

import ast
import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from ..diagnostics import Span
from ..source.document import Document
from ..source.imports import is_differentiable_numpy, is_numpy, is_tensorflow
from .values import UNKNOWN, Break, Cut, Grad, Kind, Origin, Site, Value, cut_by, evolve, join

# Callee names that are, by convention, Keras models or layers when nothing else is known.
_MODEL_NAME = re.compile(
    r"(^|_)(models?|nets?|networks?|qnet|dqn|actor|critic|generator|discriminator|gen|disc|encoder|decoder"
    r"|policy|classifier|regressor|layers?|dense|mlp|cnn|rnn|lstm|gru|backbone|head|embedding)\d*($|_)",
    re.IGNORECASE,
)
# Model inputs that, by convention, are next states: a model called on them makes a TD target.
_NEXT_STATE = re.compile(r"(next|new_?(state|obs)|_tp1\b|tp1|_prime\b|\bs_\b|\bs2\b|\bobs2\b|succ)", re.IGNORECASE)

_KERAS_MODEL_FACTORIES = (
    "keras.Sequential", "keras.Model", "keras.models.Sequential", "keras.models.Model",
    "keras.models.load_model", "keras.models.clone_model", "keras.saving.load_model",
)
_KERAS_MODEL_PREFIXES = ("keras.layers.", "keras.applications.", "tensorflow_hub.")
_KERAS_BASES = {"Model", "Layer", "Sequential", "Loss"}
_TENSOR_ATTRS_WITHOUT_GRADIENT = {"shape", "dtype", "ndim", "name", "device", "size", "graph", "op"}
_VARIABLE_ATTRS = {"trainable_variables", "trainable_weights", "variables", "weights"}
_PREDICT_METHODS = {"predict", "predict_on_batch", "predict_step"}
_GRADIENT_METHODS = {"gradient", "jacobian", "batch_jacobian"}
_MAX_DOUBLED_LOOPS = 4  # nested loops deeper than this are walked once per level
_COLLECTION_ADDERS = {"append", "extend", "insert", "add", "appendleft", "update"}


@dataclass
class TapeInfo:
    id: str
    name: str
    persistent: bool
    with_node: ast.With
    call_node: ast.Call | None
    gradient_calls: list[ast.Call] = field(default_factory=list)


@dataclass
class SourceItem:
    """One entry of the variables `tape.gradient` is asked about."""

    node: ast.AST
    value: Value
    origins: frozenset[Origin]


@dataclass
class Sink:
    kind: str                         # "gradient", "loss-function", "compute-loss", "minimize"
    node: ast.AST
    target_node: ast.AST
    target: Value
    sources: list[SourceItem] | None  # None: whatever the target depends on
    tape: TapeInfo | None
    label: str                        # "`tape.gradient` on line 24"
    function: ast.AST | None = None


@dataclass
class Guard:
    """An `if`/`while` test over a value."""

    node: ast.AST                     # the test expression
    value_node: ast.AST               # the name tested
    value: Value


@dataclass
class Rebind:
    """`w = w - lr * g` where `w` was a tf.Variable."""

    node: ast.stmt
    target: ast.AST
    origin: Origin
    function: ast.AST | None


@dataclass
class ClassInfo:
    node: ast.ClassDef
    is_keras: bool
    origin: Origin | None
    attrs: dict[str, Value] = field(default_factory=dict)


@dataclass
class Analysis:
    doc: Document
    sinks: list[Sink] = field(default_factory=list)
    tapes: list[TapeInfo] = field(default_factory=list)
    guards: list[Guard] = field(default_factory=list)
    minimize_calls: list[tuple[ast.Call, Value, Value]] = field(default_factory=list)
    rebinds: list[Rebind] = field(default_factory=list)
    classes: list[ClassInfo] = field(default_factory=list)
    gradient_source_names: dict[int, set[str]] = field(default_factory=dict)  # id(function) → names


@dataclass
class Frame:
    """The state while evaluating one function body (or the module)."""

    env: dict[str, Value]
    parent: "Frame | None"
    function: ast.AST | None
    cls: ClassInfo | None = None
    summary: bool = False             # computing a summary: no sinks, caller's tapes
    returns: list[Value] = field(default_factory=list)
    tapes: tuple[TapeInfo, ...] = ()
    loss_function: bool = False

    def lookup(self, name: str) -> Value | None:
        frame: Frame | None = self
        while frame is not None:
            if name in frame.env:
                return frame.env[name]
            frame = frame.parent
        return None


class Engine:
    def __init__(self, doc: Document, break_rules, *, resolver=None, budget=None, depth: int = 0) -> None:
        self.doc = doc
        self.resolver = resolver          # inference.JediResolver: callables from other modules
        self.budget = budget
        self.depth = depth
        self.imports = doc.imports
        self.break_rules = break_rules
        self.analysis = Analysis(doc)
        self.functions: dict[str, ast.AST] = {}         # module-level functions by name
        self.class_of_function: dict[int, ClassInfo] = {}
        self.classes: dict[str, ClassInfo] = {}
        self.loss_functions: set[int] = set()
        self.summaries: dict[int, Value | None] = {}
        self._nested: dict[int, list[ast.AST]] | None = None  # function → functions defined in it
        self._loop_depth = 0
        self.tape_counter = 0

    # ----------------------------------------------------------------------------- driver
    def prepare(self) -> Frame:
        """Definitions and the module body: enough to summarise any function (for other modules)."""
        tree = self.doc.tree
        self._collect_definitions(tree)
        module = Frame({}, None, None)
        self.module = module
        self.exec_block(tree.body, module)
        return module

    def run(self) -> Analysis:
        tree = self.doc.tree
        module = self.prepare()
        for cls in self.classes.values():
            self._analyze_class(cls, module)
        for node in self._module_functions(tree):
            self.analyze_function(node, module)
        return self.analysis

    def _module_functions(self, tree: ast.Module) -> Iterator[ast.AST]:
        for node in tree.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                yield node

    def _collect_definitions(self, tree: ast.Module) -> None:
        for node in self.doc.nodes_of(ast.ClassDef):
            self.classes[node.name] = ClassInfo(node, False, None)
        for cls in self.classes.values():
            cls.is_keras = self._is_keras_class(cls.node, set())
            if cls.is_keras:
                cls.origin = Origin("model", "self", f"class:{cls.node.name}", self.doc.span(cls.node))
            self.analysis.classes.append(cls)
            for item in cls.node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    self.class_of_function[id(item)] = cls
        for node in tree.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                self.functions[node.name] = node
        self._collect_loss_functions(tree)

    def _is_keras_class(self, node: ast.ClassDef, seen: set[str]) -> bool:
        for base in node.bases:
            qual = self.imports.qualname(base) or ""
            name = base.attr if isinstance(base, ast.Attribute) else getattr(base, "id", "")
            if qual.startswith("keras.") or (qual == "" and name in _KERAS_BASES):
                return True
            local = self.classes.get(name)
            if local and name not in seen and self._is_keras_class(local.node, seen | {name}):
                return True
        return False

    def _collect_loss_functions(self, tree: ast.Module) -> None:
        """Functions given to `compile(loss=...)` and `keras.losses.Loss.call` methods."""
        for node in self.doc.nodes_of(ast.Call):
            if isinstance(node.func, ast.Attribute) and node.func.attr == "compile":
                loss = next((k.value for k in node.keywords if k.arg == "loss"), None)
                if loss is None and len(node.args) >= 2:
                    loss = node.args[1]
                for candidate in self._loss_candidates(loss):
                    self.loss_functions.add(id(candidate))
        for cls in self.classes.values():
            if any((self.imports.qualname(b) or "").startswith("keras.losses") or getattr(b, "attr", "") == "Loss"
                   or getattr(b, "id", "") == "Loss" for b in cls.node.bases):
                for item in cls.node.body:
                    if isinstance(item, ast.FunctionDef) and item.name == "call":
                        self.loss_functions.add(id(item))

    def _loss_candidates(self, node: ast.AST | None) -> Iterator[ast.AST]:
        if node is None:
            return
        if isinstance(node, (ast.List, ast.Tuple)):
            for elt in node.elts:
                yield from self._loss_candidates(elt)
        elif isinstance(node, ast.Dict):
            for value in node.values:
                yield from self._loss_candidates(value)
        elif isinstance(node, ast.Name) and node.id in self.functions:
            yield self.functions[node.id]
        elif isinstance(node, ast.Lambda):
            yield node
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in self.functions:
            # A loss factory: `compile(loss=weighted_loss(0.5))` returns its inner function.
            for inner in ast.walk(self.functions[node.func.id]):
                if isinstance(inner, (ast.FunctionDef, ast.Lambda)) and inner is not self.functions[node.func.id]:
                    yield inner

    # ----------------------------------------------------------------------------- functions
    def analyze_function(self, node: ast.AST, parent: Frame, cls: ClassInfo | None = None) -> None:
        frame = Frame({}, parent, node, cls=cls, loss_function=id(node) in self.loss_functions)
        self._bind_entry_params(node, frame)
        if isinstance(node, ast.Lambda):
            frame.returns.append(self.eval(node.body, frame))
        else:
            self.exec_block(node.body, frame)
        if frame.loss_function:
            self._record_loss_function_sink(node, frame)
        for inner in self._nested_functions(node):
            self.analyze_function(inner, frame)

    def _nested_functions(self, node: ast.AST) -> list[ast.AST]:
        """Functions defined in `node`'s body (not inside another nested function), in order."""
        if self._nested is None:
            self._nested = {}
            parents = self.doc.parents
            for inner in self.doc.nodes_of(ast.FunctionDef, ast.AsyncFunctionDef):
                outer = parents.get(inner)
                while outer is not None and not isinstance(outer, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    outer = parents.get(outer)
                if outer is not None:
                    self._nested.setdefault(id(outer), []).append(inner)
            for functions in self._nested.values():
                functions.sort(key=lambda f: (f.lineno, f.col_offset))
        return self._nested.get(id(node), [])

    def _params(self, node: ast.AST) -> list[ast.arg]:
        args = node.args
        return [*args.posonlyargs, *args.args, *args.kwonlyargs]

    def _bind_entry_params(self, node: ast.AST, frame: Frame) -> None:
        params = self._params(node)
        loss = frame.loss_function
        for index, param in enumerate(params):
            name = param.arg
            span = self.doc.span(param)
            if index == 0 and frame.cls is not None and name == "self":
                frame.env[name] = self._self_value(frame.cls)
            elif loss and (name == "y_pred" or (name not in ("self", "y_true") and index == len(params) - 1)):
                origin = Origin("y_pred", name, f"y_pred:{id(node)}", span)
                frame.env[name] = Value(frozenset({Grad(origin, span, None)}), kind=Kind.TENSOR)
            elif _MODEL_NAME.search(name):
                origin = Origin("model", name, f"param:{id(node)}:{name}", span)
                frame.env[name] = Value(kind=Kind.MODEL, model=origin)
            else:
                frame.env[name] = UNKNOWN

    def _self_value(self, cls: ClassInfo) -> Value:
        if cls.is_keras:
            return Value(kind=Kind.MODEL, model=cls.origin)
        return UNKNOWN

    def _analyze_class(self, cls: ClassInfo, module: Frame) -> None:
        methods = [m for m in cls.node.body if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef))]
        # Attributes first (`__init__`, `build`), so other methods see `self.model`.
        ordered = sorted(methods, key=lambda m: m.name not in ("__init__", "build"))
        for method in ordered:
            self.analyze_function(method, module, cls)

    def _record_loss_function_sink(self, node: ast.AST, frame: Frame) -> None:
        if not frame.returns:
            return
        target = join(frame.returns)
        name = getattr(node, "name", "lambda")
        target_node = node.body if isinstance(node, ast.Lambda) else node
        self.analysis.sinks.append(
            Sink("loss-function", node, target_node, target, None, None, f"the loss `{name}`", node)
        )

    def summary(self, node: ast.AST, cls: ClassInfo | None) -> Value | None:
        """What calling a function in this file returns, in terms of its parameters."""
        key = id(node)
        if key in self.summaries:
            return self.summaries[key]
        self.summaries[key] = None  # recursion guard
        frame = Frame({}, self.module, node, cls=cls, summary=True)
        for index, param in enumerate(self._params(node)):
            if index == 0 and cls is not None and param.arg == "self":
                frame.env[param.arg] = self._self_value(cls)
                continue
            origin = Origin("param", param.arg, f"param{index}", self.doc.span(param), index=index)
            frame.env[param.arg] = Value(frozenset({Grad(origin, self.doc.span(param), None)}))
        if isinstance(node, ast.Lambda):
            frame.returns.append(self.eval(node.body, frame))
        else:
            self.exec_block(node.body, frame)
        result = join(frame.returns) if frame.returns else UNKNOWN
        if frame.returns and all(r.kind == Kind.MODEL for r in frame.returns):
            result = Value(kind=Kind.MODEL, model=frame.returns[0].model)
        self.summaries[key] = result
        return result

    def apply_summary(self, summary: Value, node: ast.Call, actuals: dict[int, Value], frame: Frame,
                      foreign: bool = False) -> Value:
        """Substitute the caller's arguments for the parameters in a function summary.

        A `foreign` summary (another module's function) has spans of another file: its breaks are
        reported at this call, and the gradients it starts itself start at this call too.
        """
        call_span = self.doc.span(node)
        live: set[Grad] = set()
        cut: set[Cut] = set()

        def actual_grads(grad: Grad) -> set[Grad]:
            actual = actuals.get(grad.origin.index, UNKNOWN)
            grads = set(actual.live)
            if actual.kind == Kind.MODEL and actual.model is not None:
                grads.add(Grad(actual.model, call_span, None, bootstrap=self._bootstrap_call(node)))
            return grads

        for grad in summary.live:
            if grad.origin.kind == "param":
                live |= actual_grads(grad)
                cut |= actuals.get(grad.origin.index, UNKNOWN).cut
            else:
                live.add(evolve(grad, site=call_span) if foreign else grad)
        for c in summary.cut:
            if c.grad.origin.kind == "param":
                brk = evolve(c.brk, via=call_span, value_text=self.doc.short(node))
                cut |= {Cut(brk, g) for g in actual_grads(c.grad)}
                cut |= actuals.get(c.grad.origin.index, UNKNOWN).cut
            elif foreign:
                cut.add(Cut(evolve(c.brk, via=call_span, value_text=self.doc.short(node)), evolve(c.grad, site=call_span)))
            else:
                cut.add(c)
        value = Value(frozenset(live), frozenset(cut), summary.kind)
        return self.op(value, node, frame)

    # ----------------------------------------------------------------------------- statements
    def exec_block(self, body: list[ast.stmt], frame: Frame) -> None:
        for stmt in body:
            self.exec_stmt(stmt, frame)

    def exec_stmt(self, stmt: ast.stmt, frame: Frame) -> None:
        method = _handler(type(self), "exec_", type(stmt))
        if method is not None:
            method(self, stmt, frame)
        else:
            for child in ast.iter_child_nodes(stmt):
                if isinstance(child, ast.expr):
                    self.eval(child, frame)

    def exec_FunctionDef(self, stmt: ast.FunctionDef, frame: Frame) -> None:
        frame.env[stmt.name] = Value(kind=Kind.CALLABLE, func=stmt)

    exec_AsyncFunctionDef = exec_FunctionDef

    def exec_ClassDef(self, stmt: ast.ClassDef, frame: Frame) -> None:
        frame.env[stmt.name] = Value(kind=Kind.CALLABLE, func=stmt)

    def exec_Import(self, stmt: ast.AST, frame: Frame) -> None:
        pass

    exec_ImportFrom = exec_Import

    def exec_Expr(self, stmt: ast.Expr, frame: Frame) -> None:
        self.eval(stmt.value, frame)

    def exec_Return(self, stmt: ast.Return, frame: Frame) -> None:
        if stmt.value is not None:
            frame.returns.append(self.eval(stmt.value, frame))

    def exec_Assign(self, stmt: ast.Assign, frame: Frame) -> None:
        value = self.eval(stmt.value, frame)
        for target in stmt.targets:
            self._check_rebind(stmt, target, stmt.value, frame)
            self.bind(target, value, frame, stmt.value)

    def exec_AnnAssign(self, stmt: ast.AnnAssign, frame: Frame) -> None:
        if stmt.value is not None:
            self.bind(stmt.target, self.eval(stmt.value, frame), frame, stmt.value)

    def exec_AugAssign(self, stmt: ast.AugAssign, frame: Frame) -> None:
        self._check_rebind(stmt, stmt.target, stmt.value, frame)
        value = self.op(join([self.eval(stmt.target, frame), self.eval(stmt.value, frame)]), stmt, frame)
        self.bind(stmt.target, value, frame, None)

    def exec_If(self, stmt: ast.If, frame: Frame) -> None:
        self._record_guard(stmt.test, frame)
        self._branches([stmt.body, stmt.orelse], frame)

    def exec_While(self, stmt: ast.While, frame: Frame) -> None:
        self._record_guard(stmt.test, frame)
        for _ in self._loop_rounds():  # twice: values flow around the loop once
            self.exec_block(stmt.body, frame)
        self.exec_block(stmt.orelse, frame)

    def exec_For(self, stmt: ast.For, frame: Frame) -> None:
        iterable = self.eval(stmt.iter, frame)
        for _ in self._loop_rounds():
            self.bind(stmt.target, self._element(iterable), frame, None)
            self.exec_block(stmt.body, frame)
        self.exec_block(stmt.orelse, frame)

    def _loop_rounds(self) -> Iterator[None]:
        """Two rounds per loop so values flow around it once; deep in nested loops only one, or the
        cost would double with every level (2**depth). Found by fuzzing."""
        rounds = 2 if self._loop_depth < _MAX_DOUBLED_LOOPS else 1
        self._loop_depth += 1
        try:
            for _ in range(rounds):
                yield
        finally:
            self._loop_depth -= 1

    exec_AsyncFor = exec_For

    def exec_Try(self, stmt: ast.Try, frame: Frame) -> None:
        self.exec_block(stmt.body, frame)
        for handler in stmt.handlers:
            self.exec_block(handler.body, frame)
        self.exec_block(stmt.orelse, frame)
        self.exec_block(stmt.finalbody, frame)

    exec_TryStar = exec_Try

    def exec_Match(self, stmt: ast.AST, frame: Frame) -> None:
        self.eval(stmt.subject, frame)
        self._branches([case.body for case in stmt.cases], frame)

    def exec_Delete(self, stmt: ast.Delete, frame: Frame) -> None:
        for target in stmt.targets:
            if isinstance(target, ast.Name):
                frame.env.pop(target.id, None)

    def exec_With(self, stmt: ast.With, frame: Frame) -> None:
        opened: list[TapeInfo] = []
        for item in stmt.items:
            value = self.eval(item.context_expr, frame)
            if value.kind == Kind.TAPE:
                tape = self._open_tape(stmt, item, value)
                opened.append(tape)
                value = Value(kind=Kind.TAPE, tape=tape)
            if item.optional_vars is not None:
                self.bind(item.optional_vars, value, frame, None)
        saved = frame.tapes
        frame.tapes = saved + tuple(opened)
        self.exec_block(stmt.body, frame)
        frame.tapes = saved

    exec_AsyncWith = exec_With

    def _open_tape(self, stmt: ast.With, item: ast.withitem, value: Value) -> TapeInfo:
        call = item.context_expr if isinstance(item.context_expr, ast.Call) else None
        existing = value.tape if isinstance(value.tape, TapeInfo) else None
        if existing is not None:
            existing.with_node = stmt
            return existing
        name = item.optional_vars.id if isinstance(item.optional_vars, ast.Name) else "tape"
        self.tape_counter += 1
        tape = TapeInfo(f"{name}#{self.tape_counter}", name, self._persistent(call), stmt, call)
        self.analysis.tapes.append(tape)
        return tape

    def _persistent(self, call: ast.Call | None) -> bool:
        if call is None:
            return False
        for keyword in call.keywords:
            if keyword.arg == "persistent":
                return not (isinstance(keyword.value, ast.Constant) and not keyword.value.value)
        return bool(call.args) and not (isinstance(call.args[0], ast.Constant) and not call.args[0].value)

    def _branches(self, blocks: list[list[ast.stmt]], frame: Frame) -> None:
        """Run each branch from the same state and join the results."""
        before = dict(frame.env)
        results = []
        for block in blocks:
            frame.env = dict(before)
            self.exec_block(block, frame)
            results.append(frame.env)
        if len(blocks) == 1:
            results.append(before)
        merged: dict[str, Value] = {}
        for env in results:
            for name, value in env.items():
                merged[name] = _merge(merged[name], value) if name in merged else value
        frame.env = merged

    # ----------------------------------------------------------------------------- binding
    def bind(self, target: ast.AST, value: Value, frame: Frame, value_node: ast.AST | None) -> None:
        if isinstance(target, (ast.Tuple, ast.List)):
            elements = value.items if value.items and len(value.items) == len(target.elts) else None
            for index, elt in enumerate(target.elts):
                element = elements[index] if elements else evolve(value, items=None)
                self.bind(elt.value if isinstance(elt, ast.Starred) else elt, element, frame, None)
            return
        key = self._target_key(target)
        if key is None:
            if isinstance(target, ast.Subscript):
                base = self._target_key(target.value)
                if base is not None:
                    old = frame.lookup(base) or UNKNOWN
                    frame.env[base] = evolve(join([old, value]), kind=old.kind if old.kind != Kind.UNKNOWN else value.kind)
            return
        value = self._name_new_origin(key, value, frame, value_node)
        if key.startswith("self.") and frame.cls is not None:
            frame.cls.attrs[key] = value
        frame.env[key] = value

    def _target_key(self, node: ast.AST) -> str | None:
        if isinstance(node, ast.Name):
            return node.id
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self":
            return f"self.{node.attr}"
        return None

    def _name_new_origin(self, key: str, value: Value, frame: Frame, value_node: ast.AST | None) -> Value:
        """A model or variable created by this statement is named after its target."""
        fresh = isinstance(value_node, ast.Call) and value.kind in (Kind.MODEL, Kind.VARIABLE)
        if not fresh or (value.model is not None and value.model.kind != "new"):
            return value
        if key.startswith("self.") and frame.cls is not None and frame.cls.is_keras:
            return evolve(value, model=frame.cls.origin)  # sub-layers and weights belong to the model
        if value.model is None:
            return value  # e.g. a non-trainable variable
        scope = getattr(frame.function, "name", "module")
        kind = "variable" if value.kind == Kind.VARIABLE else "model"
        origin = Origin(kind, key, f"{scope}:{key}", self.doc.span(value_node), integer=value.model.integer)
        return evolve(value, model=origin)

    def _check_rebind(self, stmt: ast.stmt, target: ast.AST, value_node: ast.AST, frame: Frame) -> None:
        key = self._target_key(target)
        if key is None:
            return
        old = frame.lookup(key)
        if old is None or old.kind != Kind.VARIABLE or old.model is None or old.model.kind != "variable":
            return
        if isinstance(stmt, ast.AugAssign) or any(self._target_key(n) == key for n in ast.walk(value_node)):
            self.analysis.rebinds.append(Rebind(stmt, target, old.model, frame.function))

    def _element(self, iterable: Value) -> Value:
        if iterable.kind == Kind.VARIABLES:
            return Value(kind=Kind.VARIABLE, sources=iterable.sources)
        return evolve(iterable, items=None)

    # ----------------------------------------------------------------------------- expressions
    def eval(self, node: ast.AST, frame: Frame) -> Value:
        method = _handler(type(self), "eval_", type(node))
        if method is None:
            values = [self.eval(child, frame) for child in ast.iter_child_nodes(node) if isinstance(child, ast.expr)]
            return join(values) if values else UNKNOWN
        return method(self, node, frame)

    def eval_Constant(self, node: ast.Constant, frame: Frame) -> Value:
        return Value(kind=Kind.NUMBER if isinstance(node.value, (int, float)) else Kind.UNKNOWN)

    def eval_JoinedStr(self, node: ast.AST, frame: Frame) -> Value:
        return UNKNOWN  # an f-string: `.numpy()` for printing never reaches a loss

    def eval_Name(self, node: ast.Name, frame: Frame) -> Value:
        value = frame.lookup(node.id)
        if value is not None:
            return self._read(value, node)
        if node.id in self.functions:
            return Value(kind=Kind.CALLABLE, func=self.functions[node.id])
        if node.id in self.classes:
            return Value(kind=Kind.CALLABLE, func=self.classes[node.id].node)
        return UNKNOWN

    def _read(self, value: Value, node: ast.AST) -> Value:
        """Reading a variable starts a gradient dependency on it."""
        if value.kind == Kind.VARIABLE and value.model is not None and not value.live:
            grad = Grad(value.model, self.doc.span(node), None)
            return evolve(value, live=frozenset({grad}))
        return value

    def eval_Attribute(self, node: ast.Attribute, frame: Frame) -> Value:
        key = self._target_key(node)
        if key is not None and (value := frame.lookup(key)) is not None:
            return self._read(value, node)
        if key is not None and frame.cls is not None and key in frame.cls.attrs:
            return self._read(frame.cls.attrs[key], node)
        if self.imports.qualname(node) is not None:
            return UNKNOWN  # `tf.float32`, `np.pi`: module constants carry no gradient
        base = self.eval(node.value, frame)
        if base.kind == Kind.MODEL:
            if node.attr in _VARIABLE_ATTRS and base.model is not None:
                return Value(kind=Kind.VARIABLES, sources=frozenset({base.model}))
            if node.attr == "layers":
                return base
            if key is not None and frame.cls is not None and frame.cls.is_keras and _MODEL_NAME.search(node.attr):
                return base
        if key is not None and _MODEL_NAME.search(node.attr) and not (frame.cls and frame.cls.is_keras):
            origin = Origin("model", key, f"attr:{key}", self.doc.span(node))
            return Value(kind=Kind.MODEL, model=origin)
        if node.attr in _TENSOR_ATTRS_WITHOUT_GRADIENT:
            return UNKNOWN
        return evolve(base, kind=Kind.UNKNOWN if base.kind in (Kind.MODEL, Kind.CALLABLE) else base.kind, items=None)

    def eval_Subscript(self, node: ast.Subscript, frame: Frame) -> Value:
        base = self.eval(node.value, frame)
        self.eval(node.slice, frame)
        if base.items and isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, int):
            if -len(base.items) <= node.slice.value < len(base.items):
                return base.items[node.slice.value]
        if base.kind in (Kind.VARIABLES, Kind.MODEL):
            return base
        if base.kind == Kind.GRADS:
            return evolve(base, kind=Kind.TENSOR)
        return self.op(evolve(base, items=None), node, frame)

    def eval_BinOp(self, node: ast.BinOp, frame: Frame) -> Value:
        left, right = self.eval(node.left, frame), self.eval(node.right, frame)
        if Kind.VARIABLES in (left.kind, right.kind) or (left.kind == right.kind == Kind.VARIABLE):
            return Value(kind=Kind.VARIABLES, sources=_variable_sources(left) | _variable_sources(right))
        return self.op(join([left, right]), node, frame)

    def eval_UnaryOp(self, node: ast.UnaryOp, frame: Frame) -> Value:
        operand = self.eval(node.operand, frame)
        if isinstance(node.op, ast.Not):
            return UNKNOWN
        return self.op(operand, node, frame)

    def eval_BoolOp(self, node: ast.BoolOp, frame: Frame) -> Value:
        return join([self.eval(v, frame) for v in node.values])

    def eval_IfExp(self, node: ast.IfExp, frame: Frame) -> Value:
        self.eval(node.test, frame)
        return join([self.eval(node.body, frame), self.eval(node.orelse, frame)])

    def eval_Compare(self, node: ast.Compare, frame: Frame) -> Value:
        operands = [self.eval(node.left, frame)] + [self.eval(c, frame) for c in node.comparators]
        if all(isinstance(op, (ast.Is, ast.IsNot, ast.In, ast.NotIn)) for op in node.ops):
            return UNKNOWN
        site = Site(node, args=operands, doc=self.doc)
        return self._apply_breaks(site, join(operands), frame) or self.op(join(operands), node, frame)

    def eval_Tuple(self, node: ast.AST, frame: Frame) -> Value:
        items = tuple(self.eval(elt.value if isinstance(elt, ast.Starred) else elt, frame) for elt in node.elts)
        if items and all(i.kind in (Kind.VARIABLE, Kind.VARIABLES) for i in items):
            sources = frozenset().union(*(_variable_sources(i) for i in items))
            return Value(kind=Kind.VARIABLES, sources=sources, items=items)
        return evolve(join(items), items=items) if items else UNKNOWN

    eval_List = eval_Tuple
    eval_Set = eval_Tuple

    def eval_Dict(self, node: ast.Dict, frame: Frame) -> Value:
        values = [self.eval(v, frame) for v in node.values]
        for key in node.keys:
            if key is not None:
                self.eval(key, frame)
        return join(values) if values else UNKNOWN

    def eval_Starred(self, node: ast.Starred, frame: Frame) -> Value:
        return self.eval(node.value, frame)

    def eval_NamedExpr(self, node: ast.NamedExpr, frame: Frame) -> Value:
        value = self.eval(node.value, frame)
        self.bind(node.target, value, frame, node.value)
        return value

    def eval_Lambda(self, node: ast.Lambda, frame: Frame) -> Value:
        return Value(kind=Kind.CALLABLE, func=node)

    def _comprehension(self, node: ast.AST, elements: list[ast.AST], frame: Frame) -> Value:
        inner = Frame({}, frame, frame.function, cls=frame.cls, summary=frame.summary, tapes=frame.tapes)
        for generator in node.generators:
            self.bind(generator.target, self._element(self.eval(generator.iter, inner)), inner, None)
            for condition in generator.ifs:
                self.eval(condition, inner)
        values = [self.eval(e, inner) for e in elements]
        frame.returns.extend(inner.returns)
        result = join(values)
        if result.kind in (Kind.VARIABLE, Kind.VARIABLES):
            return Value(kind=Kind.VARIABLES, sources=_variable_sources(result))
        return result

    def eval_ListComp(self, node: ast.AST, frame: Frame) -> Value:
        return self._comprehension(node, [node.elt], frame)

    eval_SetComp = eval_ListComp
    eval_GeneratorExp = eval_ListComp

    def eval_DictComp(self, node: ast.DictComp, frame: Frame) -> Value:
        return self._comprehension(node, [node.value], frame)

    # ----------------------------------------------------------------------------- calls
    def op(self, value: Value, node: ast.AST, frame: Frame) -> Value:
        """A TensorFlow operation runs here: only the tapes active now record it."""
        if frame.summary or not value.live:
            return value
        active = frozenset(t.id for t in frame.tapes)
        live = set()
        changed = False
        for grad in value.live:
            tapes = active if grad.tapes is None else grad.tapes & active
            dropped = grad.dropped_at
            if dropped is None and (grad.tapes is None and not active or grad.tapes is not None and tapes != grad.tapes):
                dropped = self.doc.span(node)
            if tapes == grad.tapes and dropped is grad.dropped_at:
                live.add(grad)  # the common case in a tape: nothing to record, no new object
            else:
                live.add(evolve(grad, tapes=tapes, dropped_at=dropped))
                changed = True
        return evolve(value, live=frozenset(live)) if changed else value

    def eval_Call(self, node: ast.Call, frame: Frame) -> Value:
        func = node.func
        qual = self.imports.qualname(func)
        receiver: Value | None = None
        method = func.attr if isinstance(func, ast.Attribute) else None
        callee = UNKNOWN
        if qual is None:
            if isinstance(func, ast.Attribute):
                callee = self._callee_attribute(func, frame)
                receiver = self._receiver(func, frame)
            else:
                callee = self.eval(func, frame)
        args = [self.eval(a, frame) for a in node.args]
        keywords = {k.arg or "**": self.eval(k.value, frame) for k in node.keywords}
        site = Site(node, qual, method, receiver, args, keywords, self.doc)

        special = self._special_call(site, callee, frame)
        if special is not None:
            return special
        if method in _COLLECTION_ADDERS and isinstance(func, ast.Attribute):
            self._add_to_collection(func.value, site, frame)
        if receiver is not None and receiver.kind == Kind.MODEL and method in _PREDICT_METHODS:
            site.receiver = self._model_output(receiver, node, frame)
        broken = self._apply_breaks(site, None, frame)
        if broken is not None:
            return broken
        return self._ordinary_call(site, callee, frame)

    def _add_to_collection(self, node: ast.AST, site: Site, frame: Frame) -> None:
        """`history.append(q)`: the list now holds whatever `q` carries."""
        key = self._target_key(node)
        added = [v for v in site.args if v.live or v.cut]
        if key is not None and added:
            old = frame.lookup(key) or UNKNOWN
            frame.env[key] = evolve(join([old, *added]), kind=old.kind, items=None)

    def _callee_attribute(self, func: ast.Attribute, frame: Frame) -> Value:
        key = self._target_key(func)
        if key is not None:
            value = frame.lookup(key)
            if value is None and frame.cls is not None:
                value = frame.cls.attrs.get(key)
            if value is not None:
                return value
            if frame.cls is not None:
                method = next((m for m in frame.cls.node.body if getattr(m, "name", None) == func.attr), None)
                if isinstance(method, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    return Value(kind=Kind.CALLABLE, func=method)
        return self.eval(func, frame) if _MODEL_NAME.search(func.attr) else UNKNOWN

    def _receiver(self, func: ast.Attribute, frame: Frame) -> Value:
        return self.eval(func.value, frame)

    def _model_output(self, model: Value, node: ast.Call, frame: Frame) -> Value:
        # A model value can lose track of which model it is (joined from several, returned by a
        # summary); its output still starts a gradient, from a model named after the call.
        origin = model.model or Origin("model", self.doc.short(node.func), f"call:{self.doc.span(node.func)}")
        grad = Grad(origin, self.doc.span(node), None, bootstrap=self._bootstrap_call(node))
        return self.op(Value(frozenset({grad}), kind=Kind.TENSOR), node, frame)

    def _bootstrap_call(self, node: ast.Call) -> bool:
        return any(_NEXT_STATE.search(self.doc.text(arg)) for arg in node.args[:1])

    def _apply_breaks(self, site: Site, default: Value | None, frame: Frame) -> Value | None:
        if not any(v.live for v in site.inputs()):
            return None
        for rule in self.break_rules:
            label = rule.match(site)
            if label is None:
                continue
            cut_values = rule.cut_inputs(site)
            cut_ids = {id(v) for v in cut_values}
            kept = [v for v in site.inputs() if id(v) not in cut_ids]
            value_node = rule.value_node(site) or self._break_value_node(site)
            brk = Break(rule.code, self.doc.span(site.node), label, self.doc.short(value_node), site.node)
            result = cut_by(join(cut_values), brk, rule.absorbs_cuts)
            if kept:
                rest = join(kept)
                result = Value(rest.live, result.cut | rest.cut, Kind.TENSOR)
            if rule.mutates_receiver:
                self._mutate_receiver(site, result, frame)
            return self.op(result, site.node, frame)
        return None

    def _mutate_receiver(self, site: Site, result: Value, frame: Frame) -> None:
        key = self._target_key(site.node.func.value) if isinstance(site.node.func, ast.Attribute) else None
        if key is not None:
            old = frame.lookup(key) or UNKNOWN
            frame.env[key] = evolve(old, cut=old.cut | result.cut)

    def _break_value_node(self, site: Site) -> ast.AST:
        node = site.node
        if isinstance(node, ast.Call):
            if site.receiver is not None and isinstance(node.func, ast.Attribute) and site.method not in _PREDICT_METHODS:
                return node.func.value
            if node.args:
                return node.args[0]
        if isinstance(node, ast.Compare):
            return node.left
        return node

    def _special_call(self, site: Site, callee: Value, frame: Frame) -> Value | None:
        """Calls whose meaning the model knows: constructors, tapes, model calls, helpers."""
        qual, node = site.qualname or "", site.node
        if qual:
            return self._library_call(site, frame) or self._foreign_call(site, frame)
        method = site.method
        receiver = site.receiver
        if receiver is not None and receiver.kind == Kind.TAPE:
            return self._tape_method(site, receiver, frame)
        if receiver is not None and method in _GRADIENT_METHODS and isinstance(node.func, ast.Attribute) \
                and "tape" in self.doc.text(node.func.value).lower():
            return self._tape_method(site, Value(kind=Kind.TAPE), frame)
        if receiver is not None and method == "minimize":
            self.analysis.minimize_calls.append((node, receiver, site.args[0] if site.args else UNKNOWN))
            self._record_minimize_sink(site, frame)
            return UNKNOWN
        if method in ("compute_loss", "compiled_loss") and receiver is not None and receiver.kind == Kind.MODEL:
            self._record_compute_loss_sink(site, receiver, frame)
            return join(site.inputs()[1:]) if site.inputs() else UNKNOWN
        if method == "add_weight" or method == "add_variable":
            trainable = _keyword_constant(node, "trainable", True)
            origin = Origin("new", "", "") if trainable else None
            return Value(kind=Kind.VARIABLE, model=origin)
        if callee.kind == Kind.MODEL or (receiver is not None and receiver.kind == Kind.MODEL and method in ("call", "__call__")):
            model = callee if callee.kind == Kind.MODEL else receiver
            output = self._model_output(model, node, frame)
            return self.op(join([output, *site.args, *site.keywords.values()]), node, frame)
        if callee.kind == Kind.CALLABLE and isinstance(callee.func, ast.ClassDef):
            info = self.classes.get(callee.func.name)
            if info is not None and info.is_keras:
                return Value(kind=Kind.MODEL, model=Origin("new", "", ""))
            return UNKNOWN
        if callee.kind == Kind.CALLABLE and callee.func is not None:
            return self._local_call(site, callee.func, frame)
        if callee.kind == Kind.UNKNOWN and not callee.live and isinstance(node.func, ast.Name) \
                and frame.lookup(node.func.id) is None and (foreign := self._foreign_call(site, frame)):
            return foreign  # a name from `from helpers import *`
        if callee.kind == Kind.UNKNOWN and not callee.live and isinstance(node.func, ast.Attribute) \
                and (frame.tapes or frame.loss_function) and self._inferred_model(node.func):
            key = self._target_key(node.func) or self.doc.text(node.func)
            origin = Origin("model", key, f"attr:{key}", self.doc.span(node.func))
            return self._special_call(site, Value(kind=Kind.MODEL, model=origin), frame)
        if callee.kind == Kind.UNKNOWN and not callee.live and isinstance(node.func, ast.Name) \
                and _MODEL_NAME.search(node.func.id) and frame.lookup(node.func.id) is None:
            origin = Origin("model", node.func.id, f"name:{node.func.id}", self.doc.span(node.func))
            return self._special_call(site, Value(kind=Kind.MODEL, model=origin), frame)
        return None

    def _local_call(self, site: Site, func: ast.AST, frame: Frame) -> Value:
        cls = self.class_of_function.get(id(func))
        summary = self.summary(func, cls)
        if summary is None:
            return self._ordinary_call(site, UNKNOWN, frame)
        if summary.kind == Kind.MODEL:
            return Value(kind=Kind.MODEL, model=Origin("new", "", ""))
        params = self._params(func)
        offset = 1 if cls is not None and params and params[0].arg == "self" else 0
        actuals: dict[int, Value] = {}
        for index, value in enumerate(site.args):
            actuals[index + offset] = value
        names = {p.arg: i for i, p in enumerate(params)}
        for name, value in site.keywords.items():
            if name in names:
                actuals[names[name]] = value
        return self.apply_summary(summary, site.node, actuals, frame)

    def _inferred_model(self, func: ast.Attribute) -> bool:
        """jedi says `agent.tower` is a Keras model (its class is defined in another module).

        Asked only inside a tape or a loss: jedi's type inference is its slowest question, and a
        model called anywhere else does not decide whether a loss gets its gradient."""
        if self.resolver is None or self.budget is None or self.imports.qualname(func) is not None:
            return False
        return self.resolver.is_model(self.doc, func, self.budget, self.depth, self.break_rules)

    def _foreign_call(self, site: Site, frame: Frame) -> Value | None:
        """A call of a function or class defined in another module, when jedi can say which."""
        if self.resolver is None or self.budget is None:
            return None
        foreign = self.resolver.callable_for(self.doc, site.node.func, site.qualname, self.budget, self.depth,
                                               self.break_rules)
        if foreign is None:
            return None
        if foreign.model:
            return Value(kind=Kind.MODEL, model=Origin("new", "", ""))
        if foreign.summary is None:
            return None
        actuals = dict(enumerate(site.args))
        names = {name: index for index, name in enumerate(foreign.params)}
        actuals.update({names[k]: v for k, v in site.keywords.items() if k in names})
        return self.apply_summary(foreign.summary, site.node, actuals, frame, foreign=True)

    def _ordinary_call(self, site: Site, callee: Value, frame: Frame) -> Value:
        qual = site.qualname or ""
        inputs = site.inputs()
        if callee.live:
            inputs.append(callee)
        if isinstance(site.node.func, ast.Name) and site.node.func.id in ("len", "range", "print", "isinstance", "str", "repr", "type", "id", "hash"):
            return UNKNOWN
        value = join(inputs) if inputs else UNKNOWN
        if not is_numpy(qual) and not is_tensorflow(qual):
            value = self._maybe_uses_models(site, value)
        if is_numpy(qual) and not is_differentiable_numpy(qual):
            value = value.with_kind(Kind.NUMPY)
        elif is_tensorflow(qual) or site.receiver is not None and site.receiver.kind == Kind.TENSOR:
            value = value.with_kind(Kind.TENSOR)
        return self.op(evolve(value, items=None) if value.items is not None else value, site.node, frame)

    def _maybe_uses_models(self, site: Site, value: Value) -> Value:
        """A function we cannot see, given a model, may return something computed with it."""
        models = [v.model for v in [*site.args, *site.keywords.values()] if v.kind == Kind.MODEL and v.model]
        if not models:
            return value
        span = self.doc.span(site.node)
        opaque = {Grad(model, span, None, bootstrap=self._bootstrap_call(site.node), opaque=True) for model in models}
        return evolve(value, live=value.live | opaque)

    def _library_call(self, site: Site, frame: Frame) -> Value | None:
        qual, node = site.qualname, site.node
        if qual in ("tensorflow.GradientTape", "tensorflow.autodiff.GradientTape"):
            return Value(kind=Kind.TAPE)
        if qual in ("tensorflow.Variable", "tensorflow.compat.v1.Variable"):
            if any(v.live for v in site.inputs()):
                return None  # re-created from a gradient-carrying value: a break rule's business
            if not _keyword_constant(node, "trainable", True):
                return Value(kind=Kind.TENSOR)
            return Value(kind=Kind.VARIABLE, model=Origin("new", "", "", integer=_integer_variable(node, self.imports)))
        if qual in _KERAS_MODEL_FACTORIES or qual.startswith(_KERAS_MODEL_PREFIXES):
            if qual.startswith("keras.layers.") and qual.split(".")[-1][:1].islower():
                return None  # keras.layers.concatenate(...) and friends are ops, not layers
            return Value(kind=Kind.MODEL, model=Origin("new", "", ""))
        if qual.startswith("keras.optimizers.") or qual.startswith("tensorflow.optimizers."):
            return Value(kind=Kind.OPTIMIZER, keras3=".legacy." not in qual)
        if qual.startswith("tensorflow.compat.v1.train.") or qual.startswith("tensorflow.train."):
            return Value(kind=Kind.OPTIMIZER)
        if qual in ("tensorflow.constant", "tensorflow.convert_to_tensor", "tensorflow.ones", "tensorflow.zeros",
                    "tensorflow.random.normal", "tensorflow.random.uniform", "tensorflow.range"):
            value = join(site.inputs()) if site.inputs() else UNKNOWN
            return self.op(evolve(value, kind=Kind.TENSOR, items=None), node, frame) if not value.cut or value.live else \
                evolve(value, kind=Kind.TENSOR, items=None)
        return None

    def _tape_method(self, site: Site, tape_value: Value, frame: Frame) -> Value:
        node, method = site.node, site.method
        tape = tape_value.tape if isinstance(tape_value.tape, TapeInfo) else None
        if method == "watch" and node.args:
            self._watch(node.args[0], tape, frame)
            return UNKNOWN
        if method in _GRADIENT_METHODS and node.args:
            if tape is not None:
                tape.gradient_calls.append(node)
            self._record_gradient_sink(site, tape, frame)
            return Value(kind=Kind.GRADS)
        return UNKNOWN

    def _watch(self, node: ast.AST, tape: TapeInfo | None, frame: Frame) -> None:
        key = self._target_key(node)
        if key is None:
            return
        value = frame.lookup(key) or UNKNOWN
        span = self.doc.span(node)
        origin = Origin("watched", key, f"watched:{key}", span)
        tapes = frozenset({tape.id}) if tape else None
        frame.env[key] = evolve(value, live=value.live | {Grad(origin, span, tapes)}, watched=True)

    # ----------------------------------------------------------------------------- sinks
    def _record_gradient_sink(self, site: Site, tape: TapeInfo | None, frame: Frame) -> None:
        node = site.node
        if frame.summary:
            return
        target = site.args[0] if site.args else site.keywords.get("target", UNKNOWN)
        source_node = _argument(node, 1, "sources")
        sources = self._source_items(source_node, frame) if source_node is not None else None
        names = self.analysis.gradient_source_names.setdefault(id(frame.function), set())
        if source_node is not None:
            names |= {self._target_key(n) for n in ast.walk(source_node) if self._target_key(n)}
        label = self._sink_label(node)
        self.analysis.sinks.append(Sink("gradient", node, node.args[0], target, sources, tape, label, frame.function))

    def _sink_label(self, node: ast.Call) -> str:
        return f"`{self.doc.short(node.func, 32)}` on line {node.lineno}"

    def _source_items(self, node: ast.AST, frame: Frame) -> list[SourceItem] | None:
        if isinstance(node, (ast.List, ast.Tuple)):
            items = []
            for elt in node.elts:
                sub = self._source_items(elt, frame)
                if sub is None:
                    return None
                items.extend(sub)
            return items
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            left, right = self._source_items(node.left, frame), self._source_items(node.right, frame)
            return None if left is None or right is None else left + right
        value = self.eval(node, frame)
        if value.kind == Kind.VARIABLES and value.sources:
            return [SourceItem(node, value, value.sources)]
        if value.kind == Kind.VARIABLE and value.model is not None:
            return [SourceItem(node, value, frozenset({value.model}))]
        if value.watched:
            return [SourceItem(node, value, frozenset(g.origin for g in value.live if g.origin.kind == "watched"))]
        if value.kind == Kind.TENSOR and not value.live:
            return [SourceItem(node, value, frozenset())]
        return None

    def _record_minimize_sink(self, site: Site, frame: Frame) -> None:
        loss = site.args[0] if site.args else site.keywords.get("loss")
        if frame.summary or loss is None or loss.kind != Kind.CALLABLE or loss.func is None:
            return
        func = loss.func
        inner = Frame({}, frame, func, cls=frame.cls, tapes=frame.tapes)
        if isinstance(func, ast.Lambda):
            inner.returns.append(self.eval(func.body, inner))
        elif isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
            self.exec_block(func.body, inner)
        if not inner.returns:
            return
        node = site.node
        source_node = _argument(node, 1, "var_list")
        sources = self._source_items(source_node, frame) if source_node is not None else None
        label = self._sink_label(node)
        self.analysis.sinks.append(
            Sink("minimize", node, node.args[0] if node.args else node, join(inner.returns), sources, None, label,
                 frame.function))

    def _record_compute_loss_sink(self, site: Site, model: Value, frame: Frame) -> None:
        if frame.summary or model.model is None:
            return
        node = site.node
        index = 2 if site.method == "compute_loss" else 1
        y_pred_node = site.arg_node(index, "y_pred")
        if y_pred_node is None:
            return
        target = self.eval(y_pred_node, frame)
        sources = [SourceItem(node.func, Value(kind=Kind.VARIABLES), frozenset({model.model}))]
        label = self._sink_label(node)
        self.analysis.sinks.append(Sink("compute-loss", node, y_pred_node, target, sources, None, label, frame.function))

    def _record_guard(self, test: ast.AST, frame: Frame) -> None:
        node = test.operand if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not) else test
        if isinstance(node, ast.Compare) and len(node.comparators) == 1:
            node = node.left
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "len" and node.args:
                node = node.args[0]
        key = self._target_key(node)
        if key is None:
            return
        value = frame.lookup(key)
        if value is not None and value.kind == Kind.GRADS:
            self.analysis.guards.append(Guard(test, node, value))


@functools.cache
def _handler(engine: type, prefix: str, kind: type):
    """`Engine.eval_Call` for (Engine, "eval_", ast.Call): looked up once per node type, not per node."""
    return getattr(engine, f"{prefix}{kind.__name__}", None)


def _merge(a: Value, b: Value) -> Value:
    if a == b:
        return a
    if a.kind == b.kind and a.kind in (Kind.MODEL, Kind.VARIABLE, Kind.TAPE, Kind.OPTIMIZER, Kind.CALLABLE):
        return a if a.model is not None or a.tape is not None or a.func is not None else b
    merged = join([a, b])
    kind = a.kind if a.kind == b.kind else (a.kind if b.kind == Kind.UNKNOWN else b.kind if a.kind == Kind.UNKNOWN else merged.kind)
    return evolve(merged, kind=kind)


def _variable_sources(value: Value) -> frozenset[Origin]:
    if value.kind == Kind.VARIABLE and value.model is not None:
        return frozenset({value.model}) | value.sources
    return value.sources


def _argument(node: ast.Call, index: int, keyword: str) -> ast.AST | None:
    if len(node.args) > index:
        return node.args[index]
    return next((k.value for k in node.keywords if k.arg == keyword), None)


def _keyword_constant(node: ast.Call, name: str, default):
    for keyword in node.keywords:
        if keyword.arg == name and isinstance(keyword.value, ast.Constant):
            return keyword.value.value
    return default


def _integer_variable(node: ast.Call, imports) -> bool:
    for keyword in node.keywords:
        if keyword.arg == "dtype":
            text = (imports.qualname(keyword.value) or "") + str(getattr(keyword.value, "value", ""))
            return "int" in text or "bool" in text
    initial = node.args[0] if node.args else next((k.value for k in node.keywords if k.arg == "initial_value"), None)
    return isinstance(initial, ast.Constant) and type(initial.value) is int


# --------------------------------------------------------------------------------- entry point
def analyze_document(doc: Document, break_rules, resolver=None, budget=None) -> Analysis:
    """The finished analysis of `doc`; `break_rules` are the catalogue's `BreakRule`s the
    interpreter consults at every call that a gradient-carrying value goes into."""
    return Engine(doc, break_rules, resolver=resolver, budget=budget).run()


__all__ = ["Analysis", "Engine", "Sink", "SourceItem", "TapeInfo", "analyze_document", "Span"]
