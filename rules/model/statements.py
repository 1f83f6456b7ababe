"""Statements: assignments and binding, control flow (each loop walked twice so values flow around
it), and `with` blocks that open a gradient tape."""
from __future__ import annotations

import ast
from collections.abc import Iterator

from .facts import Rebinding, TapeInfo, attribute_key, name_key
from .frame import Frame, _handler
from .library import TAPE_MADE, spelled_constant
from .objects import refers, rename_in
from ..diagnostics import Span
from .unknown import aliases
from .values import UNKNOWN, Break, Cut, Grad, Kind, Origin, OriginKind, Value, evolve, join

_MAX_DOUBLED_LOOPS = 4  # nested loops deeper than this are walked once per level


class Statements:
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
        if frame.function is not None:
            self.closures[id(stmt)] = frame  # a nested function sees its enclosing function's names
        if stmt.decorator_list:
            self.note_wrapper(stmt, frame)

    exec_AsyncFunctionDef = exec_FunctionDef

    def exec_ClassDef(self, stmt: ast.ClassDef, frame: Frame) -> None:
        frame.env[stmt.name] = Value(kind=Kind.CALLABLE, func=stmt)
        if frame.function is not None:
            self.closures[id(stmt)] = frame  # its methods see the enclosing function's names

    def exec_Import(self, stmt: ast.AST, frame: Frame) -> None:
        pass

    exec_ImportFrom = exec_Import

    def exec_Expr(self, stmt: ast.Expr, frame: Frame) -> None:
        self.eval(stmt.value, frame)

    def exec_Return(self, stmt: ast.Return, frame: Frame) -> None:
        if stmt.value is not None:
            frame.returns.append(self.eval(stmt.value, frame))
            if frame.function is not None and not frame.in_trace() and spelled_constant(stmt.value, self.imports):
                guard = self.doc.parents.get(stmt)  # `if not positives: return tf.constant(0.0)`
                frame.constant_returns.append((stmt.value, guard if isinstance(guard, ast.If) else stmt))

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
        target, added = self.eval(stmt.target, frame), self.eval(stmt.value, frame)
        if isinstance(stmt.op, (ast.Add, ast.Sub)):
            self.note_dead_term(name_key(stmt.target), target, added, frame)  # `loss += 0.01 * entropy`
        value = self.op(join([target, added]), stmt, frame)
        self.bind(stmt.target, value, frame, None)

    def exec_If(self, stmt: ast.If, frame: Frame) -> None:
        self._record_truth_test(stmt.test, frame)
        ends = self._branches([stmt.body, stmt.orelse], frame)
        if stmt.orelse and not frame.in_trace():
            self._note_constant_fallbacks(stmt, [stmt.body, stmt.orelse], ends, frame)

    def _note_constant_fallbacks(self, stmt: ast.If, blocks: list[list[ast.stmt]], ends: list[dict],
                                 frame: Frame) -> None:
        """`if ...: loss = model_loss else: loss = tf.constant(0.0)`: on one branch the name holds a
        constant the file spells, on another a value carrying a gradient. Eagerly (not traced into a
        `tf.cond`, which differentiates both branches), the branch taken decides, and on the
        constant's branch the value loses every gradient it carries (`Value.vanish`, GG313)."""
        for block, env in zip(blocks, ends):
            for name, assign in _constant_assignments(block, self.imports).items():
                constant, merged = env.get(name), frame.env.get(name)
                if constant is None or constant.live or constant.cut or merged is None:
                    continue
                if any(other is not env and (v := other.get(name)) is not None and v.live for other in ends):
                    frame.env[name] = self.fall_back(merged, assign.value, name, stmt, constant)

    def exec_While(self, stmt: ast.While, frame: Frame) -> None:
        self._record_truth_test(stmt.test, frame)
        for _ in self._loop_rounds():  # twice: values flow around the loop once
            self.exec_block(stmt.body, frame)
        self.exec_block(stmt.orelse, frame)

    def exec_For(self, stmt: ast.For, frame: Frame) -> None:
        iterable = self.eval(stmt.iter, frame)
        for _ in self._loop_rounds():
            self.bind(stmt.target, self._element(iterable), frame, None)
            self.exec_block(stmt.body, frame)
        if iterable.role == "dataset" and frame.in_trace():
            self._reduced_by_dataset(stmt, frame)
        self.exec_block(stmt.orelse, frame)

    def _reduced_by_dataset(self, stmt: ast.For, frame: Frame) -> None:
        """`for x in dataset:` in a traced function: AutoGraph runs the loop as `Dataset.reduce`,
        whose body is traced into the dataset's own graph, so what the loop computes reaches the
        code after it with no gradient (even to a tape opened around the loop)."""
        iterable = self.doc.text(stmt.iter)
        label = (f"the `for` loop over `{self.doc.short(stmt.iter)}` in a traced function, which AutoGraph runs "
                 f"as `{iterable}.reduce` in the dataset's graph")
        span = self.doc.span(stmt.iter)
        where = Span(stmt.lineno, self.doc.span(stmt).col, span.end_line, span.end_col)
        for key in _assigned_in(stmt.body):
            value = frame.env.get(key)
            if value is not None and value.live:
                brk = Break("GG406", where, label, key, stmt)
                frame.env[key] = Value(frozenset(), value.cut | {Cut(brk, g) for g in value.live}, value.kind)

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
                tape = self._open_tape(stmt, item, value, frame)
                opened.append(tape)
                value = Value(kind=Kind.TAPE, tape=tape)
            if item.optional_vars is not None:
                self.bind(item.optional_vars, value, frame, None)
        saved = frame.tapes
        frame.tapes = saved + tuple(opened)
        collectors = [item.optional_vars.id for item in stmt.items if _collects(item, self.imports)]
        before = dict(frame.env) if collectors else None
        self.exec_block(stmt.body, frame)
        frame.tapes = saved
        if collectors:
            self._fill_collectors(collectors, before, frame)

    def set_field(self, name: str, attr: str, value: Value, frame: Frame) -> None:
        """`variational.parameters -= step`, `name` an object of a plain class of this file: its
        methods read `self.parameters` as it is now (the object's fields), not as `__init__` set it."""
        held = frame.lookup(name)
        if held is None or held.role != "instance" or held.fields is None:
            return
        fields = tuple((a, value if a == attr else v) for a, v in held.fields)
        if all(a != attr for a, _ in held.fields):
            fields += ((attr, value),)
        if name not in frame.env and frame.parent is not None:
            frame.changed_outer = frame.changed_outer | {name}  # (an object of a frame around this one)
        frame.env[name] = evolve(held, fields=fields)

    def _fill_collectors(self, names: list[str], before: dict, frame: Frame) -> None:
        """`with ed.trace() as recorded:` a context manager nobody can see into may record what
        runs in its block (edward2's tracer: `recorded.values()` are the random variables the
        block made): what it yields later may depend on every value the block bound. Opaquely:
        no proof that it does."""
        made = [v for k, v in frame.env.items() if before.get(k) is not v and k not in names]
        grads = frozenset(evolve(g, opaque=True) for v in made for g in v.live)
        if grads:
            for name in names:
                old = frame.env.get(name, UNKNOWN)
                frame.env[name] = evolve(old, live=old.live | grads)

    exec_AsyncWith = exec_With

    def _open_tape(self, stmt: ast.With, item: ast.withitem, value: Value, frame: Frame) -> TapeInfo:
        call = item.context_expr if isinstance(item.context_expr, ast.Call) else None
        existing = value.tape if isinstance(value.tape, TapeInfo) else None
        if existing is not None:
            existing.with_node = stmt
            return existing
        name = item.optional_vars.id if isinstance(item.optional_vars, ast.Name) else "tape"
        # Whether it is persistent, as made (`tf.GradientTape(persistent=True)`, here or bound
        # before); a tape nobody saw made may be: no claim that it is not.
        made = value.role[1] if isinstance(value.role, tuple) and value.role[:1] == (TAPE_MADE,) else None
        persistent = made if made is not None else True
        if frame.replaying() is not None:  # the tape of one call's replay: the file's tapes are the function's
            self.unlisted_tapes += 1
            return TapeInfo(f"{name}#replay{self.unlisted_tapes}", name, persistent, stmt, call)
        self.tape_counter += 1
        tape = TapeInfo(f"{name}#{self.tape_counter}", name, persistent, stmt, call)
        self.analysis.tapes.append(tape)
        return tape

    def _branches(self, blocks: list[list[ast.stmt]], frame: Frame) -> list[dict[str, Value]]:
        """Run each branch from the same state and join the results; returns each branch's state at its end."""
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
        return results[:len(blocks)]

    # ----------------------------------------------------------------------------- binding
    def bind(self, target: ast.AST, value: Value, frame: Frame, value_node: ast.AST | None) -> None:
        if isinstance(target, (ast.Tuple, ast.List)):
            elements = value.items if value.items and len(value.items) == len(target.elts) else None
            # `q_net, target_net = build(), build()`: each name is bound to its own call.
            nodes = value_node.elts if isinstance(value_node, (ast.Tuple, ast.List)) \
                and len(value_node.elts) == len(target.elts) and elements else [None] * len(target.elts)
            for index, elt in enumerate(target.elts):
                element = elements[index] if elements else evolve(value, items=None)
                self.bind(elt.value if isinstance(elt, ast.Starred) else elt, element, frame, nodes[index])
            return
        key = name_key(target)
        if key is None:
            if isinstance(target, ast.Attribute) and (dotted := attribute_key(target)) is not None:
                if isinstance(target.value, ast.Name):
                    self.note_mutation(dotted, value, frame)  # (a function setting a module object's attribute)
                    self.set_field(target.value.id, target.attr, value, frame)
                frame.env[dotted] = value  # `store.value = h`: read back as `store.value`
                return
            if isinstance(target, ast.Attribute):  # `_opaque(store).value = h`: may set `store.value`
                for alias in aliases(self.eval(target.value, frame)):
                    dotted = f"{alias}.{target.attr}"
                    frame.env[dotted] = join([frame.lookup(dotted) or UNKNOWN, value])
                return
            if isinstance(target, ast.Subscript):
                base = name_key(target.value)
                if base is not None:
                    old = frame.lookup(base) or UNKNOWN
                    frame.env[base] = evolve(join([old, value]), kind=old.kind if old.kind != Kind.UNKNOWN else value.kind)
            return
        value = self._name_new_origin(key, value, frame, value_node)
        if value.role == "instance" and isinstance(value_node, ast.Call):
            value = _name_instance(key, value)
        if value.items and isinstance(value_node, (ast.List, ast.Tuple)):
            value = self._name_new_items(key, value, frame, value_node)
            if len(value_node.elts) == len(value.items):
                value = evolve(value, elements=tuple(value_node.elts))
        if key.startswith("self.") and frame.cls is not None:
            # An attribute may be set in several places (branches of `__init__`, other methods):
            # the other methods may see any of those values.
            known = frame.cls.attrs.get(key)
            frame.cls.attrs[key] = value if known is None else _merge(known, value)
        if frame.summary and isinstance(target, ast.Name) and key in self.declared_outer(frame.function):
            self.note_mutation(key, value, frame, rebound=True)  # `nonlocal total; total = total + x`
        frame.env[key] = value

    def _name_new_origin(self, key: str, value: Value, frame: Frame, value_node: ast.AST | None) -> Value:
        """A model or variable created by this statement is named after its target; one stored on
        a Keras model's `self` is tracked by it (its variables are the model's)."""
        tracked = key.startswith("self.") and frame.cls is not None and frame.cls.has_variables
        if tracked and value.kind in (Kind.MODEL, Kind.VARIABLE) and value.model is not None \
                and value.model.kind is OriginKind.MODEL and not isinstance(value_node, ast.Call):
            return evolve(value, model=frame.cls.origin)  # `self.encoder = encoder` in `__init__`
        fresh = isinstance(value_node, ast.Call) and value.kind in (Kind.MODEL, Kind.VARIABLE)
        if not fresh or (value.model is not None and value.model.kind is not OriginKind.NEW):
            return value
        if key.startswith("self.") and frame.cls is not None and frame.cls.has_variables:
            return evolve(value, model=frame.cls.origin)  # sub-layers and weights belong to the model
        if value.model is None:
            return value  # e.g. a non-trainable variable
        kind = OriginKind.VARIABLE if value.kind == Kind.VARIABLE else OriginKind.MODEL
        origin = Origin(kind, key, self._binding_key(key, frame), self.doc.span(value_node), integer=value.model.integer)
        return evolve(value, model=origin)

    def _binding_key(self, key: str, frame: Frame) -> str:
        """The identity of what a binding of `key` creates: in a function, its name there (every
        call of the function makes "the same" model); at the top level, its name and the module's
        statement that binds it, since two cells of a notebook that each build `model` build two
        models, and an editor analyses statements that share no value apart (report/parts.py).
        The statement's line follows a space, which sorts before any character of a name, so
        origins still sort by name first."""
        if frame.function is None and self.top_statement is not None:
            return f"module:{key} @{self.top_statement.lineno}"
        return f"{getattr(frame.function, 'name', 'module')}:{key}"

    def _name_new_items(self, key: str, value: Value, frame: Frame, value_node: ast.AST) -> Value:
        """`variables = [tf.Variable(a), tf.Variable(b)]`: the elements are `variables[0]`, `variables[1]`."""
        if len(value.items) != len(value_node.elts):
            return value
        items = tuple(self._name_new_origin(f"{key}[{index}]", item, frame, node)
                      for index, (item, node) in enumerate(zip(value.items, value_node.elts)))
        if items == value.items:
            return value
        renamed = {old.model: new.model for old, new in zip(value.items, items) if old.model is not new.model}
        sources = frozenset(renamed.get(origin, origin) for origin in value.sources)
        return evolve(value, items=items, sources=sources)

    def _check_rebind(self, stmt: ast.stmt, target: ast.AST, value_node: ast.AST, frame: Frame) -> None:
        key = name_key(target)
        if key is None:
            return
        old = frame.lookup(key)
        if old is None or old.kind != Kind.VARIABLE or old.model is None or frame.replaying() is not None:
            return
        reads_itself = isinstance(stmt, ast.AugAssign) or any(name_key(n) == key for n in ast.walk(value_node))
        self.analysis.record_rebinding(Rebinding(stmt, target, old.model, reads_itself, frame.function))

    def _element(self, iterable: Value) -> Value:
        if iterable.kind == Kind.VARIABLES:
            return Value(kind=Kind.VARIABLE, sources=iterable.sources)
        if iterable.kind == Kind.GRADS:  # one gradient of the list: a tensor or None
            return evolve(iterable, kind=Kind.TENSOR, items=None)
        if iterable.role == "zip" and iterable.items:  # `for log_prob, value in zip(a, b)`
            items = tuple(self._element(item) for item in iterable.items)
            return evolve(join(items), items=items)
        if iterable.items and len(set(iterable.items)) == 1 and iterable.items[0].kind == Kind.MODEL:
            return iterable.items[0]  # `for m in [model]`, `[net] * 2`: that model, with all it knows
        return evolve(iterable, items=None, role=iterable.role if iterable.role != "zip" else None)


_OBJECTS = (Kind.MODEL, Kind.VARIABLE, Kind.TAPE, Kind.OPTIMIZER, Kind.CALLABLE)


def _name_instance(key: str, value: Value) -> Value:
    """`agent = Agent()`: the models and variables the object made are `agent.net`, `agent.w`."""
    fields, renamed = [], {}
    for attr, held in value.fields:
        if held.model is not None and held.model.key.startswith("instance:"):
            renamed[held.model] = evolve(held.model, name=f"{key}.{attr}")
            held = evolve(held, model=renamed[held.model])
        fields.append((attr, held))
    for _, held in fields:
        if held.closure is not None:  # (the frame of this object's `__init__`: its own)
            rename_in(held.closure, renamed)
    return evolve(value, fields=tuple(fields))


def _merge(a: Value, b: Value) -> Value:
    """The value of a name after branches that bound it differently."""
    if a == b:
        return a
    if a.kind == b.kind and a.kind in _OBJECTS:
        return a if a.model is not None or a.tape is not None or a.func is not None else b
    # `self.alpha = DeferredTensor(log_alpha)` in one branch, `self.alpha = alpha` in the other:
    # the object the model knows is what the name may hold.
    for known, other in ((a, b), (b, a)):
        if known.kind in _OBJECTS and other.kind == Kind.UNKNOWN and not other.live and not other.cut:
            return known
    merged = join([a, b])
    kind = a.kind if a.kind == b.kind else (a.kind if b.kind == Kind.UNKNOWN else b.kind if a.kind == Kind.UNKNOWN else merged.kind)
    if kind == Kind.TENSOR and Kind.UNKNOWN in (a.kind, b.kind):
        kind = Kind.UNKNOWN  # `if var_list is None: var_list = tf.ones(3)`: a tensor only maybe (GG306 claims one)
    if kind != a.kind or kind != b.kind:
        # A model in one branch and something else in the other (`network = network_` or a lambda
        # around it): what is made from it later may read that model (opaquely: it may not).
        maybe = frozenset(Grad(v.model, v.model.span, None, opaque=True) for v in (a, b)
                          if v.kind == Kind.MODEL and v.model is not None and v.model.span is not None)
        merged = evolve(merged, live=merged.live | maybe) if maybe else merged
    if refers(a) or refers(b):  # a TF Probability object in one branch: it may be one (objects.py)
        return evolve(merged, kind=kind, role="holder", fields=(a.fields or ()) + (b.fields or ()))
    return evolve(merged, kind=kind)


def _assigned_in(body: list[ast.stmt]) -> list[str]:
    """The names a loop body assigns (`total += ...`, `x = x * d`), outside nested functions."""
    found: list[str] = []
    stack = list(body)
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        if isinstance(node, (ast.Name, ast.Attribute)) and isinstance(getattr(node, "ctx", None), ast.Store):
            key = name_key(node)
            if key is not None and key not in found:
                found.append(key)
        stack.extend(ast.iter_child_nodes(node))
    return found


def _constant_assignments(block: list[ast.stmt], imports) -> dict[str, ast.Assign]:
    """The names a block ends up binding to a constant written out (`loss = 0.0`,
    `loss = tf.constant(0.)`), by their last assignment in the block, when the block falls through
    (no `return`, `continue`, `break` or `raise` after it)."""
    found: dict[str, ast.Assign] = {}
    if not any(isinstance(stmt, ast.Assign) and spelled_constant(stmt.value, imports) for stmt in block):
        return found  # (most blocks: nothing to walk)
    if any(isinstance(n, (ast.Return, ast.Continue, ast.Break, ast.Raise)) for stmt in block for n in ast.walk(stmt)):
        return {}
    for stmt in block:
        if not isinstance(stmt, ast.Assign) or len(stmt.targets) != 1 or not isinstance(stmt.targets[0], ast.Name):
            for target in _bound_names(stmt):
                found.pop(target, None)
            continue
        name = stmt.targets[0].id
        if spelled_constant(stmt.value, imports):
            found[name] = stmt
        else:
            found.pop(name, None)
    return found


def _bound_names(stmt: ast.stmt) -> set[str]:
    return {n.id for n in ast.walk(stmt) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}


def _collects(item: ast.withitem, imports) -> bool:
    """`with recorder() as r:` bound to a name, the manager a call of something not TensorFlow's
    (`tf.GradientTape`, `tf.name_scope`, `tf.device` record nothing a later read returns)."""
    call = item.context_expr
    if not isinstance(item.optional_vars, ast.Name) or not isinstance(call, ast.Call):
        return False
    qual = imports.qualname(call.func) or (call.func.id if isinstance(call.func, ast.Name) else "")
    return not qual.startswith(("tensorflow.", "keras.", "numpy.")) and qual not in _NOT_COLLECTORS


# Context managers of the standard library that record nothing a model computes.
_NOT_COLLECTORS = {"open", "contextlib.suppress", "warnings.catch_warnings", "tempfile.TemporaryDirectory",
                   "unittest.mock.patch", "zipfile.ZipFile", "tarfile.open"}
