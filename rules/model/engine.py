"""The gradient data-flow model.

One pass over the module's `ast` evaluates every expression to a `Value` (which trainable
things it depends on, differentiably or through a cut), follows values through assignments,
calls of functions defined in the file (by summary), comprehensions and control flow, and
records the *sinks*: what `tape.gradient` differentiates, what a loss function returns, what
`optimizer.minimize` is given. Rules then read the finished `Analysis`.

The interpreter is one class assembled from a part per concern (statements, expressions, calls,
sinks); this module drives it over the module, its classes and functions. It never imports
TensorFlow or the analysed code.
"""
from __future__ import annotations

import ast
import re
from collections.abc import Iterator

from ..diagnostics import Span
from ..source.components import is_shared, statement_binds, statement_text
from ..source.document import Document
from .calls import Calls
from .conventions import DEFAULT, NameConventions
from .effects import Effects
from .expressions import Expressions
from .facts import Analysis, ClassInfo, Sink, SinkKind, SourceItem, TapeInfo
from .frame import Frame
from .freshness import FreeReads
from .layers import Layers
from .objects import FUNCTION_NODES, Objects
from .library import COLLECTION_ADDERS, KERAS_BASES, KERAS_MODEL_PACKAGES, TF_MODULES, is_traced_def
from .record import engine_class
from .sinks import Sinks
from .statements import Statements
from .unknown import Unknown
from .values import (UNKNOWN, Cut, Grad, Kind, Origin, OriginKind, Value, evolve, join, models_reached, recorded_from_here, through,
                     variable_origins)


class Engine(Statements, Expressions, Calls, Unknown, Objects, Layers, Sinks, Effects):
    def __init__(self, doc: Document, break_rules, *, resolver=None, budget=None, depth: int = 0,
                 conventions: NameConventions = DEFAULT) -> None:
        self.doc = doc
        self.resolver = resolver          # inference.JediResolver: callables from other modules
        self.budget = budget
        self.depth = depth
        self.imports = doc.imports
        self.break_rules = break_rules
        self.conventions = conventions    # what may be guessed from names
        self.analysis = Analysis(doc)
        self.functions: dict[str, ast.AST] = {}         # module-level functions by name
        self.class_of_function: dict[int, ClassInfo] = {}
        self.classes: dict[str, ClassInfo] = {}         # by name: the last class of each name (a name read unbound)
        self.class_infos: dict[int, ClassInfo] = {}     # every class, by id of its node (what a value holds)
        self.class_of_origin: dict[str, ClassInfo] = {}  # a model class's origin key → the class
        self.loss_functions: set[int] = set()
        # Loss functions compiled into a model whose layers declare regularizers: Keras adds the
        # penalties (`model.losses`) to what they return, and those depend on the model.
        self.penalized_losses: set[int] = set()
        self.compiled_losses: dict[int, list[ast.AST]] = {}  # by id of a `compile` call: its loss functions
        self.summaries: dict[int, Value | None] = {}
        self.free_reads = FreeReads()  # what each summary read around it, to tell when it is stale
        self.wrappers: dict[int, ast.AST] = {}           # decorated function → the function its decorator returns
        self.mutations: dict[int, dict] = {}              # function → what it adds to collections it does not own
        self._appended: frozenset[str] | None = None      # attribute names anything adds to (effects.py)
        self.effects: dict[int, object] = {}            # ClassInfo → LayerEffect of its `call` (layers.py)
        self.analyzed_methods: set[int] = set()         # `__init__`/`build` analysed early for an effect
        self.stateful_layers: dict[str, str] = {}       # called layers with moving statistics: key → class
        self.regularized_layers: dict[str, tuple] = {}  # called layers declaring a regularizer: key → (span, module)
        self.assigned_cuts: dict[str, frozenset] = {}    # model → cuts assigned into its variables (calls.py)
        self.inferred_models: dict[str, Origin] = {}   # `agent.tower` jedi says is a model, by expression (calls.py)
        self.loss_parts: dict[str, set[Origin]] = {}     # class origin → sub-layer parts its `add_loss` reads
        self.sublayers: dict[str, set[Origin]] = {}      # class origin → sub-layer parts its `call` runs (layers.py)
        self.closures: dict[int, Frame] = {}            # nested function → the frame it was defined in
        self.instantiating: set[int] = set()             # plain classes whose `__init__` runs now (calls.py)
        self._nested: tuple | None = None                # function → what is defined in it (`_nested_definitions`)
        self._analyzed_classes: set[int] = set()
        self._loop_depth = 0
        self.tape_counter = 0
        self.unlisted_tapes = 0                          # tapes of replays and `minimize`: not in analysis.tapes
        self.graph_mode: bool | None = None               # the file is TF1 graph code (library.builds_graphs)
        self.opens_tape: dict[int, bool] = {}            # function → it opens a GradientTape (sinks.py)
        self._rebound_names: frozenset[str] | None = None  # module names bound at the top level more than once (sinks.py)
        self.top_statement: ast.stmt | None = None       # the module's statement being run (statements.py)
        self._statement_binds: dict[int, frozenset[str]] = {}  # top-level statement → the names it binds

    def fresh_origin(self, call: ast.AST) -> Origin:
        """A model or variable made by this call: its own identity until a name is bound to it
        (two calls of one factory make two models)."""
        span = self.doc.span(call)
        return Origin(OriginKind.NEW, self.doc.short(call, 32), f"new:{span.line}:{span.col}", span)

    def sibling(self, doc: Document, budget, depth: int) -> "Engine":
        """An engine for another module (found by jedi), with this one's rules and conventions."""
        return Engine(doc, self.break_rules, resolver=self.resolver, budget=budget, depth=depth,
                      conventions=self.conventions)

    # ----------------------------------------------------------------------------- driver
    def prepare(self) -> Frame:
        """Definitions and the module body: enough to summarise any function (for other modules)."""
        tree = self.doc.tree
        self._collect_definitions(tree)
        module = Frame({}, None, None)
        self.module = module
        for stmt in tree.body:
            self.top_statement = stmt
            self.exec_stmt(stmt, module)
        return module

    def run(self) -> Analysis:
        tree = self.doc.tree
        module = self.prepare()
        for cls in self.class_infos.values():
            if id(cls.node) not in self._nested_definitions()[1]:
                self._analyze_class(cls, module)
        for node in self._module_functions(tree):
            self.analyze_function(node, module)
        for cls in self.class_infos.values():  # in a function no analysis reached (under a module `if`)
            if id(cls.node) not in self._analyzed_classes:
                self._analyze_class(cls, module)
        self.settle_replays()
        return self.analysis

    def _module_functions(self, tree: ast.Module) -> Iterator[ast.AST]:
        for node in tree.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                yield node

    def _collect_definitions(self, tree: ast.Module) -> None:
        # Two classes of one name (a notebook cell defining `Agent` again) are two classes: each is
        # analysed, a value holds its own, and its model's origin is its own (named by its line).
        for node in self.doc.nodes_of(ast.ClassDef):
            self.class_infos[id(node)] = self.classes[node.name] = ClassInfo(node, False, None)
        for cls in self.class_infos.values():
            cls.is_keras = self._derives(cls.node, _is_keras_base)
            cls.is_module = not cls.is_keras and self._derives(cls.node, lambda qual, name: qual in TF_MODULES)
            if cls.has_variables:
                key = f"class:{cls.node.name} @{cls.node.lineno}"
                cls.origin = Origin(OriginKind.MODEL, "self", key, self.doc.span(cls.node))
                self.class_of_origin[key] = cls
            self.analysis.classes.append(cls)
            for item in cls.node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    self.class_of_function[id(item)] = cls
        for node in tree.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                self.functions[node.name] = node
        self._collect_loss_functions(tree)

    def _derives(self, node: ast.ClassDef, is_base, seen: frozenset[str] = frozenset()) -> bool:
        """The class has a base `is_base(qualname, name)` accepts, directly or through classes of
        this file (`class Agent(Base)`, `class Base(keras.Model)`)."""
        for base in node.bases:
            qual = self.imports.qualname(base) or ""
            name = base.attr if isinstance(base, ast.Attribute) else getattr(base, "id", "")
            if is_base(qual, name):
                return True
            local = self.classes.get(name)
            if local and name not in seen and self._derives(local.node, is_base, seen | {name}):
                return True
        return False

    def _collect_loss_functions(self, tree: ast.Module) -> None:
        """Functions given to `compile(loss=...)` and `keras.losses.Loss.call` methods."""
        for node in self.doc.nodes_of(ast.Call):
            if isinstance(node.func, ast.Attribute) and node.func.attr == "compile":
                loss = next((k.value for k in node.keywords if k.arg == "loss"), None)
                if loss is None and len(node.args) >= 2:
                    loss = node.args[1]
                eager = any(k.arg == "run_eagerly" and isinstance(k.value, ast.Constant) and k.value.value is True
                            for k in node.keywords)
                candidates = self.compiled_losses[id(node)] = list(self._loss_candidates(loss))
                for candidate in candidates:
                    self.loss_functions.add(id(candidate))
                    if eager:  # `fit` runs it eagerly: a Python branch is a branch, not a `tf.cond`
                        self.analysis.eager_loss_functions.add(id(candidate))
        for cls in self.class_infos.values():
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
        elif isinstance(node, ast.Name) and (function := self.function_named(node)) is not None:
            yield function
        elif isinstance(node, ast.Lambda):
            yield node
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                and (factory := self.function_named(node.func)) is not None:
            # A loss factory: `compile(loss=weighted_loss(0.5))` returns its inner function.
            for inner in ast.walk(factory):
                if isinstance(inner, (ast.FunctionDef, ast.Lambda)) and inner is not factory:
                    yield inner

    def function_named(self, name: ast.Name) -> ast.AST | None:
        """The module-level function `name` stands for where it is read, found before the module
        runs (for `compile(loss=huber)`): the module's binding of the name before the top-level
        statement it is in, or its last binding when it is read inside a function (which runs
        later); None when that binding is not a `def`. As Python does, and as the editor's parts
        link them (source/components.py): another `def huber` elsewhere is another function."""
        if name.id not in self.functions:
            return None
        top, deferred = name, False
        for child, parent in self.doc.ancestors(name):
            deferred = deferred or isinstance(parent, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
            top = child
        body = self.doc.tree.body
        if deferred or top not in body:
            binder = self._binder_before(name.id, len(body))
        else:
            binder = self._binder_before(name.id, body.index(top))
        found = body[binder] if binder is not None else None
        return found if isinstance(found, (ast.FunctionDef, ast.AsyncFunctionDef)) and found.name == name.id else None

    def _binder_before(self, name: str, index: int) -> int | None:
        """The last of the module's top-level statements before `index` that binds `name`, as the
        editor's parts count bindings (source/components.py's `names_of`); searched backwards,
        asking only the statements whose text holds the name (`names_of` is Python's symbol
        table: too dear to ask of every statement)."""
        body, lines = self.doc.tree.body, self.doc.lines
        word = re.compile(rf"\b{re.escape(name)}\b")
        for i in range(index - 1, -1, -1):
            stmt = body[i]
            if is_shared(stmt, i) or not word.search(statement_text(stmt, lines)):
                continue
            binds = self._statement_binds.get(id(stmt))
            if binds is None:
                binds = self._statement_binds[id(stmt)] = statement_binds(stmt, lines, COLLECTION_ADDERS)
            if name in binds:
                return i
        return None

    # ----------------------------------------------------------------------------- functions
    def analyze_function(self, node: ast.AST, parent: Frame, cls: ClassInfo | None = None) -> None:
        frame = Frame({}, parent, node, cls=cls, loss_function=id(node) in self.loss_functions,
                      traced=is_traced_def(node, self.imports))
        self._bind_entry_params(node, frame)
        if isinstance(node, ast.Lambda):
            frame.returns.append(self.eval(node.body, frame))
        else:
            self.exec_block(node.body, frame)
        if frame.loss_function:
            self._record_loss_function_sink(node, frame)
        for inner in self._nested_definitions()[0].get(id(node), ()):
            if isinstance(inner, ast.ClassDef):
                self._analyze_class(self.class_infos[id(inner)], frame)
            else:
                self.analyze_function(inner, frame)

    def _nested_definitions(self) -> tuple[dict[int, list[ast.AST]], set[int]]:
        """For each function, the functions and classes defined in its body (not inside another
        nested function; a class's methods are its own), in order; and the ids of those classes.
        A method of a class defined in a function is analysed once, with its class (`self`) and the
        function's frame (what it reads of the function's names)."""
        if self._nested is None:
            nested: dict[int, list[ast.AST]] = {}
            parents = self.doc.parents
            for inner in self.doc.nodes_of(ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef):
                outer = parents.get(inner)
                if isinstance(outer, ast.ClassDef) and not isinstance(inner, ast.ClassDef):
                    continue  # a method
                while outer is not None and not isinstance(outer, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    outer = parents.get(outer)
                if outer is not None:
                    nested.setdefault(id(outer), []).append(inner)
            classes = {id(d) for found in nested.values() for d in found if isinstance(d, ast.ClassDef)}
            self._nested = (nested, classes)  # (nodes_of several kinds: in source order)
        return self._nested

    def _params(self, node: ast.AST) -> list[ast.arg]:
        """Every parameter, in the order `Calls.actuals` indexes them: positional, keyword-only,
        then `*args` and `**kwargs`."""
        args = node.args
        return [*args.posonlyargs, *args.args, *args.kwonlyargs,
                *([args.vararg] if args.vararg else []), *([args.kwarg] if args.kwarg else [])]

    def receiver_offset(self, func: ast.AST) -> int:
        """1 for a method of this file's class that takes `self` (a call's first argument is then
        its second parameter), else 0."""
        params = self._params(func)
        return 1 if self.class_of_function.get(id(func)) is not None and params and params[0].arg == "self" else 0

    def _bind_entry_params(self, node: ast.AST, frame: Frame) -> None:
        params = [p for p in self._params(node) if p is not node.args.vararg and p is not node.args.kwarg]
        loss = frame.loss_function
        literal = _literal_defaults(node)
        for index, param in enumerate(params):
            name = param.arg
            span = self.doc.span(param)
            if index == 0 and frame.cls is not None and name == "self":
                frame.env[name] = self._self_value(frame.cls)
            elif loss and (name == "y_pred" or (name not in ("self", "y_true") and index == len(params) - 1)):
                origin = Origin(OriginKind.Y_PRED, name, f"y_pred:{id(node)}", span)
                frame.env[name] = Value(frozenset({Grad(origin, span, None)}), kind=Kind.TENSOR)
            elif self.conventions.model(name) and name not in literal:
                origin = Origin(OriginKind.MODEL, name, f"param:{id(node)}:{name}", span, guessed=True)
                frame.env[name] = Value(kind=Kind.MODEL, model=origin)
            else:
                frame.env[name] = UNKNOWN

    def _self_value(self, cls: ClassInfo) -> Value:
        """A Keras class's `self` is its model; a plain class's is the object its methods set
        attributes on (`outer = self` ... `outer.w` reads the class's `self.w`, expressions.py)."""
        if cls.is_keras:
            return Value(kind=Kind.MODEL, model=cls.origin)
        return Value(role="self", func=cls.node)

    def _analyze_class(self, cls: ClassInfo, parent: Frame) -> None:
        self._analyzed_classes.add(id(cls.node))
        methods = [m for m in cls.node.body if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef))]
        # Attributes first (`__init__`, `build`), so other methods see `self.model`.
        ordered = sorted(methods, key=lambda m: m.name not in ("__init__", "build"))
        for method in ordered:
            if id(method) not in self.analyzed_methods:
                self.analyze_function(method, parent, cls)

    def _record_loss_function_sink(self, node: ast.AST, frame: Frame) -> None:
        if not frame.returns:
            return
        target = join(frame.returns)
        if id(node) in self.penalized_losses:
            # What Keras differentiates is this loss plus the penalties, which depend on the model
            # (an activity penalty on its outputs): cut here, its prediction still gets a gradient.
            target = evolve(target, live=target.live | {recorded_from_here(c.grad) for c in target.cut})
        name = getattr(node, "name", "lambda")
        target_node = node.body if isinstance(node, ast.Lambda) else node
        self.analysis.sinks.append(
            Sink(SinkKind.LOSS_FUNCTION, node, target_node, target, None, None, name, node)
        )

    def _closure_of(self, node: ast.AST, cls: ClassInfo | None) -> Frame:
        """The frame a function reads its free names from: the one it was defined in, for a method
        its class's (a class defined in a function reads that function's names), or the module's."""
        closure = self.closures.get(id(node))
        if closure is None and cls is not None:
            closure = self.closures.get(id(cls.node))
        return closure if closure is not None else self.module

    def summary(self, node: ast.AST, cls: ClassInfo | None, traced: bool = False,
                datasets: frozenset[int] = frozenset(), closure: Frame | None = None) -> Value | None:
        """What calling a function in this file returns, in terms of its parameters; `traced`:
        called through `tf.function(f)`; `datasets`: the parameters given a `tf.data` dataset
        (for a traced function, a `for` over one of them is a `Dataset.reduce`); `closure`: the frame
        it reads its free names from, when the callable value says (`Value.closure`)."""
        traced = traced or is_traced_def(node, self.imports)
        datasets = datasets if traced else frozenset()
        closure = closure or self._closure_of(node, cls)
        key = (id(node), traced, datasets) if traced else id(node)
        if closure is not self.module:
            key = (key, closure)  # what it reads from the enclosing frame is that frame's (kept alive: ids are reused)
        if key in self.summaries and (self.summaries[key] is None or self.free_reads.still(key)):
            self.free_reads.passed(key)  # (None: the recursion guard of a summary being computed)
            return self.summaries[key]
        self.summaries[key] = None  # recursion guard
        self.free_reads.begin()
        try:
            result = self._summarise(node, cls, traced, datasets, closure)
        finally:
            self.free_reads.end(key, node, closure)
        self.summaries[key] = result
        return result

    def param_value(self, param: ast.arg, index: int, dataset: bool = False) -> Value:
        """A parameter of a function being summarised: replaced by the call's argument."""
        origin = Origin(OriginKind.PARAM, param.arg, f"param{index}", self.doc.span(param), index=index)
        return Value(frozenset({Grad(origin, self.doc.span(param), None)}), role="dataset" if dataset else None)

    def _summarise(self, node: ast.AST, cls: ClassInfo | None, traced: bool, datasets: frozenset[int],
                   closure: Frame) -> Value:
        frame = Frame({}, closure, node, cls=cls, summary=True, traced=traced)
        for index, param in enumerate(self._params(node)):
            if index == 0 and cls is not None and param.arg == "self":
                frame.env[param.arg] = self._self_value(cls)
                continue
            frame.env[param.arg] = self.param_value(param, index, dataset=index in datasets)
        if isinstance(node, ast.Lambda):
            frame.returns.append(self.eval(node.body, frame))
        else:
            self.exec_block(node.body, frame)
        result = join(frame.returns) if frame.returns else UNKNOWN
        for constant, guard in frame.constant_returns:  # an early `return tf.constant(0.0)` (GG313)
            if result.live:
                result = self.fall_back(result, constant, None, guard)
        if len(frame.returns) == 1 and frame.returns[0].items:  # `return decoded, z_mean, z_log_var`
            result = evolve(result, items=frame.returns[0].items)
        if frame.returns and all(r.kind == Kind.MODEL for r in frame.returns):
            result = Value(kind=Kind.MODEL, model=frame.returns[0].model, effect=frame.returns[0].effect)
        elif frame.returns and all(r.role == "instance" and r.func is frame.returns[0].func for r in frame.returns):
            # `def make_head(self): return Head()`: the caller gets the object, its class's methods
            # and what its `__init__` set (not what came from this call's parameters: not substituted)
            fields = tuple((name, held) for r in frame.returns for name, held in r.fields or () if not _reads_params(held))
            cls = frame.returns[0].func
            if self.closures.get(id(cls)) is frame:
                # Its class is defined here: its methods read this call's names (`def make_reader(value):
                # class Reader: def read(self): return value`), in the caller's terms once applied.
                captured = join(self._read_by_methods(cls, None))
                result = evolve(result, live=result.live | captured.live, cut=result.cut | captured.cut)
            result = evolve(result, role="instance", func=cls, fields=fields)
        elif frame.returns and all(r.kind == Kind.CALLABLE and r.func is frame.returns[0].func for r in frame.returns):
            result = Value(kind=Kind.CALLABLE, func=frame.returns[0].func)  # (a decorator's wrapper: `note_wrapper`)
        elif frame.returns and all(r.role == "holder" for r in frame.returns):
            # `def make_dist(rate): return Poisson(rate=rate)`: the caller gets a distribution
            result = evolve(result, role="holder", fields=tuple(dict(f for r in frame.returns for f in r.fields or ()).items()))
        wrapper = self.wrappers.get(id(node))
        if wrapper is not None and (around := self.summary(wrapper, None)) is not None:
            # Called by its name, a decorated function runs inside its decorator's wrapper, which
            # may compute with more (`return fn(x) * w`): what the wrapper reads besides its
            # parameters and the decorator's.
            result = evolve(result, live=result.live | {g for g in around.live if g.origin.kind is not OriginKind.PARAM},
                            cut=result.cut | {c for c in around.cut if c.grad.origin.kind is not OriginKind.PARAM})
        return result

    def apply_summary(self, summary: Value, node: ast.Call, actuals: dict[int, Value], frame: Frame,
                      foreign: bool = False, func: ast.AST | None = None) -> Value:
        """Substitute the caller's arguments for the parameters in a function summary.

        `func`, the function summarised: the parameters of a function it is nested in (read from
        its closure, while that function is summarised) are that function's, not this call's.

        A `foreign` summary (another module's function) has spans of another file: its breaks are
        reported at this call, and the gradients it starts itself start at this call too.
        """
        call_span = self.doc.span(node)
        live: set[Grad] = set()
        cut: set[Cut] = set()
        called: dict[int, Value] = {}

        def called_back(index: int) -> Value:
            """A function handed in for a parameter the result depends on (`solve(lambda s: rate *
            s, y0)` calling its `fn`): what it returns, given anything the call was given."""
            if index not in called:
                called[index] = UNKNOWN
                given = join([v for v in actuals.values() if v.kind != Kind.CALLABLE])
                function = actuals[index]
                result = self._callback_result(function, [given] * len(self._params(function.func)), node, frame)
                called[index] = result if result is not None else UNKNOWN
            return called[index]

        def actual_grads(grad: Grad) -> set[Grad]:
            actual = actuals.get(grad.origin.index, UNKNOWN)
            if actual.kind == Kind.CALLABLE and isinstance(actual.func, FUNCTION_NODES):
                return set(called_back(grad.origin.index).live)
            grads = set(actual.live)
            if actual.kind == Kind.MODEL and actual.model is not None and not _weightless(actual):
                grads.add(Grad(actual.model, call_span, None, bootstrap=self._bootstrap_call(node)))
            elif actual.kind in (Kind.VARIABLES, Kind.VARIABLE) and not actual.live:
                # Variables handed in (`critic(variables, x)`) are read by the function's body.
                grads |= {Grad(origin, call_span, None) for origin in variable_origins(actual)}
            elif actual.model is None:
                # Models held in what was given (`run_all([tower_a, tower_b], x)`): the function may
                # call any of them, or none.
                grads |= {Grad(origin, call_span, None, opaque=True) for origin in models_reached(actual)}
            return grads

        own = None if func is None else {self.doc.span(p) for p in self._params(func)}

        def is_param(origin: Origin) -> bool:
            return origin.kind is OriginKind.PARAM and (own is None or origin.span in own)

        for grad in summary.live:
            if is_param(grad.origin):
                live |= actual_grads(grad)
                cut |= actuals.get(grad.origin.index, UNKNOWN).cut | called.get(grad.origin.index, UNKNOWN).cut
            else:
                live.add(evolve(grad, site=call_span) if foreign else grad)
        # A lambda written in the call (`map(lambda t: t.numpy(), xs)`) is used there only: its
        # breaks are fixed where they are, not left to the user as a helper's would be.
        inline = isinstance(func, ast.Lambda) and call_span.contains(self.doc.span(func))
        for c in summary.cut:
            if is_param(c.grad.origin):
                brk = evolve(c.brk, via=call_span, value_text=self.doc.short(node),
                             inside=c.brk.inside or ("the lambda" if inline else None))
                cut |= {Cut(brk, g) for g in actual_grads(c.grad)}
                cut |= actuals.get(c.grad.origin.index, UNKNOWN).cut
            elif foreign:
                cut.add(Cut(evolve(c.brk, via=call_span, value_text=self.doc.short(node)), evolve(c.grad, site=call_span)))
            else:
                cut.add(c)
        value = Value(frozenset(live), frozenset(cut), summary.kind)
        if summary.kind == Kind.CALLABLE and summary.func is not None and not foreign:
            # `def pick(): return relu`: the function it returns (another module's is no node of this file)
            value = evolve(value, func=summary.func)
        if summary.vanish and self.doc.loop_around(node) is None:
            # A constant fallback in the function: what it loses, in the caller's terms, on the path
            # through this call's fallback (each call takes the branch or not on its own). A call
            # in a loop is several calls, some of which may not take it: nothing is proven then.
            value = evolve(value, vanish=frozenset(
                (through(span, call_span), frozenset(g for grad in lost for g in (actual_grads(grad) if is_param(grad.origin)
                                                       else {evolve(grad, site=call_span) if foreign else grad})))
                for span, lost in summary.vanish))
        if summary.items is not None and len(summary.items) <= _MAX_ITEMS \
                and all(item.kind in _COMPUTED for item in summary.items):
            # `return total, parts`: a tuple, each element in the caller's terms (`losses[0]` reads
            # the first; it is no op, as it would be on a tensor).
            value = evolve(value, items=tuple(self.apply_summary(item, node, actuals, frame, foreign, func)
                                              for item in summary.items))
        if summary.role == "holder":  # a distribution made by the function: evaluated later, where it is used
            return evolve(value, role="holder", fields=self._references_at_call(summary, node, func))
        if summary.role == "instance":
            return evolve(self.op(value, node, frame), role="instance", func=summary.func, fields=summary.fields)
        return self.op(value, node, frame)

    def _references_at_call(self, summary: Value, node: ast.Call, func: ast.AST | None) -> tuple:
        """The names a returned TF Probability object reads, as the caller spells them: a parameter
        is the name the call passes for it (`make_poisson(rate)`), another name stays."""
        params = [p.arg for p in self._params(func)] if func is not None else []
        given = {p: a for p, a in zip(params, node.args)} | {k.arg: k.value for k in node.keywords if k.arg}
        names = []
        for name, value in summary.fields or ():
            if name in params:
                if isinstance(given.get(name), ast.Name):
                    names.append((given[name].id, value))
            else:
                names.append((name, value))
        return tuple(names)


# The elements of a tuple a function returns that are followed one by one (a longer one is joined),
# when each is a value computed (a model or variable it makes is a new one per call: not substituted).
_MAX_ITEMS = 16
_COMPUTED = (Kind.TENSOR, Kind.NUMPY, Kind.NUMBER, Kind.UNKNOWN)


def _reads_params(value: Value) -> bool:
    """The value is in terms of the parameters of the function summarised."""
    grads = [*value.live, *(c.grad for c in value.cut)]
    return any(g.origin.kind is OriginKind.PARAM for g in grads) or any(o.kind is OriginKind.PARAM for o in value.sources) \
        or (value.model is not None and value.model.kind is OriginKind.PARAM)


def _is_keras_base(qual: str, name: str) -> bool:
    """`keras.Model`, `keras.layers.Layer`, ...; a bare `Model` the imports do not resolve too."""
    return _keras_model_base(qual) or (qual == "" and name in KERAS_BASES)


def _keras_model_base(qual: str) -> bool:
    """`keras.Model`, `keras.layers.Dense`, `keras.src.layers.Layer`: a base that makes a model or
    layer; not every class of the keras package (`keras.callbacks.Callback`, `keras.src.testing.TestCase`)."""
    if not qual.startswith("keras."):
        return False
    return qual.rsplit(".", 1)[-1] in KERAS_BASES or qual.startswith(KERAS_MODEL_PACKAGES)


def _literal_defaults(node: ast.AST) -> set[str]:
    """Parameters whose default is a literal (`units=(256, 256)`, `lr=1e-3`): whatever their name,
    not models (a default of None leaves the question open)."""
    args = node.args
    positional = [*args.posonlyargs, *args.args]
    pairs = [*zip(positional[len(positional) - len(args.defaults):], args.defaults),
             *zip(args.kwonlyargs, args.kw_defaults)]
    return {param.arg for param, default in pairs if default is not None and _is_literal(default)}


def _is_literal(node: ast.AST) -> bool:
    if isinstance(node, ast.Constant):
        return node.value is not None
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return _is_literal(node.operand)
    return isinstance(node, (ast.Tuple, ast.List, ast.Set)) and all(_is_literal(e) for e in node.elts)


# --------------------------------------------------------------------------------- entry point
def analyze_document(doc: Document, break_rules, resolver=None, budget=None,
                     conventions: NameConventions = DEFAULT) -> Analysis:
    """The finished analysis of `doc`; `break_rules` are the catalogue's `BreakRule`s the
    interpreter consults at every call that a gradient-carrying value goes into."""
    engine = engine_class(Engine)  # a recording engine inside record.recording() (the lens)
    return engine(doc, break_rules, resolver=resolver, budget=budget, conventions=conventions).run()


__all__ = ["Analysis", "Engine", "Sink", "SourceItem", "TapeInfo", "analyze_document", "Span"]


def _weightless(model: Value) -> bool:
    """A layer with nothing of its own to train (`keras.Input(...)`, `Flatten()`), handed to a
    function: what the function computes with it starts no gradient of it."""
    effect = model.effect
    return effect is not None and effect.weightless and not effect.contains and not effect.reads
