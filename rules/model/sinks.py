"""Sinks: what is differentiated (`tape.gradient`, `minimize`, `compute_loss`, a loss function's
return value), and the tape methods that decide it (`watch`)."""
from __future__ import annotations

import ast

from ..source.questions import ModuleQuestion
from ..source.walk import walk
from .freshness import body_names
from .facts import Sink, SinkKind, SourceItem, TapeInfo, name_key, watched_key
from .frame import Frame
from .library import FIT_METHODS, GRADIENT_METHODS, builds_graphs, is_traced_def
from .values import UNKNOWN, Grad, Kind, Origin, OriginKind, Site, Value, evolve, join


class Sinks:
    def _tape_method(self, site: Site, tape_value: Value, frame: Frame, guessed: bool = False) -> Value:
        """`tape.watch`, `tape.gradient`; `guessed`: the receiver is taken for a tape from its name."""
        node, method = site.node, site.method
        tape = tape_value.tape if isinstance(tape_value.tape, TapeInfo) else None
        if method == "watch" and node.args:
            for watched, value in zip(node.args, site.args):
                if value.role == "symbolic" and not frame.summary:
                    self.analysis.symbolic_watches.setdefault(id(watched), (watched, tape))
                self._watch(watched, tape, frame)
            return UNKNOWN
        if method in GRADIENT_METHODS and node.args:
            if tape is not None:
                tape.record_gradient_call(node)
            self._record_gradient_sink(site, tape, frame, guessed, zeros=asks_for_zeros(node))
            # The gradient depends on what the loss depended on, through operations the tapes still
            # recording now record too: an outer tape can differentiate it (second-order gradients,
            # gradient penalties, MAML).
            target = site.args[0] if site.args else UNKNOWN
            # `tape.gradient(loss, w)` for one variable or tensor returns one tensor (or None), not a
            # list: only a list is what `if grads:` cannot test.
            sources = site.args[1] if len(site.args) > 1 else site.keywords.get("sources", UNKNOWN)
            one = sources.kind in (Kind.VARIABLE, Kind.TENSOR) and sources.items is None
            # Only sources known to be a list give a list; with `unconnected_gradients=ZERO` no
            # element is None: `if not grads` tests emptiness.
            many = sources.kind == Kind.VARIABLES or sources.items is not None
            listed = Kind.GRADS if many and not asks_for_zeros(node) else Kind.UNKNOWN
            return self.op(Value(target.live, kind=Kind.TENSOR if one else listed), node, frame)
        return UNKNOWN

    def _watch(self, node: ast.AST, tape: TapeInfo | None, frame: Frame) -> None:
        if isinstance(node, (ast.List, ast.Tuple)):  # `tape.watch([x, y])`
            for element in node.elts:
                self._watch(element, tape, frame)
            return
        key = name_key(node)
        value = (frame.lookup(key) if key is not None else None) or UNKNOWN
        if tape is not None and (key is None or self._in_loop(node, tape) or _container(value)):
            # A loop variable, `inputs[0]`, a list of tensors or variables (`tape.watch([self.log_alpha])`
            # bound to a name): what is watched is more than the model can follow by name.
            tape.watches_untracked = True
        if key is None:
            return
        span = self.doc.span(node)
        origin = Origin(OriginKind.WATCHED, key, watched_key(tape, key), span)
        tapes = frozenset({tape.id}) if tape else None
        frame.env[key] = evolve(value, live=value.live | {Grad(origin, span, tapes)}, watched=True)

    def _in_loop(self, node: ast.AST, tape: TapeInfo) -> bool:
        """`node` is inside a loop or comprehension within the tape's `with` block (its value varies)."""
        parents = self.doc.parents
        current = parents.get(node)
        while current is not None and current is not tape.with_node:
            if isinstance(current, (ast.For, ast.AsyncFor, ast.While, ast.comprehension, ast.ListComp,
                                    ast.SetComp, ast.GeneratorExp, ast.DictComp, ast.Lambda)):
                return True
            current = parents.get(current)
        return False

    # ----------------------------------------------------------------------------- sinks
    def _record_gradient_sink(self, site: Site, tape: TapeInfo | None, frame: Frame, guessed_tape: bool,
                              zeros: bool = False) -> None:
        node = site.node
        if frame.summary:
            return
        target = site.args[0] if site.args else site.keywords.get("target", UNKNOWN)
        source_node = _argument(node, 1, "sources")
        sources = self._source_items(source_node, frame, tape) if source_node is not None else None
        (self.analysis.zero_sinks if zeros else self.analysis.sinks).append(Sink(SinkKind.GRADIENT, node, node.args[0], target, sources, tape,
                                        self._callee(node), frame.function, source_node, guessed_tape,
                                        call_site=frame.replaying()))

    def _callee(self, node: ast.Call) -> str:
        return self.doc.short(node.func, 32)

    def _source_items(self, node: ast.AST, frame: Frame, tape: TapeInfo | None = None) -> list[SourceItem] | None:
        if isinstance(node, (ast.List, ast.Tuple, ast.Dict)):  # `{"x": x, "y": y}`: its values
            items = []
            for elt in (node.values if isinstance(node, ast.Dict) else node.elts):
                sub = self._source_items(elt, frame, tape)
                if sub is None:
                    return None
                items.extend(sub)
            return items
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            left, right = self._source_items(node.left, frame, tape), self._source_items(node.right, frame, tape)
            return None if left is None or right is None else left + right
        return self._value_items(node, self.eval(node, frame), tape, frame)

    def _element_now(self, element: ast.AST | None, captured: Value, frame: Frame) -> Value | None:
        """The value of a list element's name now, when it still holds what the list captured
        (watching it since is allowed: the tape watches that very tensor); else None."""
        if not isinstance(element, ast.Name) or (now := frame.lookup(element.id)) is None:
            return None
        unwatched = evolve(now, watched=captured.watched,
                           live=frozenset(g for g in now.live if g.origin.kind is not OriginKind.WATCHED) |
                           frozenset(g for g in captured.live if g.origin.kind is OriginKind.WATCHED))
        return now if unwatched == captured else None

    def _value_items(self, node: ast.AST, value: Value, tape: TapeInfo | None, frame: Frame) -> list[SourceItem] | None:
        """The source items of one value (`node` is where it is written)."""
        if value.items and (value.kind not in (Kind.VARIABLES, Kind.MODEL)
                            or value.kind == Kind.VARIABLES and not value.sources
                            or value.elements is not None and any(i.kind == Kind.TENSOR for i in value.items)):
            # `params = [x, target_net]` bound before: each element is a source, written as `params`.
            items = []
            for index, item in enumerate(value.items):
                element = value.elements[index] if value.elements else None
                now = self._element_now(element, item, frame)
                if now is not None:  # `w` of `params = [w, net]`, still that tensor: as if written here
                    sub = self._value_items(element, now, tape, frame)
                    if sub is None:
                        return None
                    items.extend(sub)
                    continue
                sub = self._value_items(node, item, tape, frame)
                if sub is None:
                    return None
                # A tensor in the list: whether it is watched is known by its name, not here (the
                # list may be built before `tape.watch`): no source of its own to claim about.
                items.extend(SourceItem(node, i.value, i.origins, element=True) if i.value.kind != Kind.TENSOR
                             else SourceItem(node, value, frozenset(), element=True) for i in sub)
            return items
        if value.kind == Kind.VARIABLES and value.sources:
            return [SourceItem(node, value, value.sources)]
        if value.role == "symbolic":  # `layer.output`: a KerasTensor, no source of the tape's (GG312)
            return [SourceItem(node, value, frozenset())]
        if value.kind == Kind.VARIABLE and value.model is not None:
            return [SourceItem(node, value, frozenset({value.model}))]
        if value.kind == Kind.VARIABLE and value.sources:  # `model.trainable_variables[0]`
            return [SourceItem(node, value, value.sources)]
        if value.watched and value.kind != Kind.UNKNOWN:  # an unknown value watched may be variables
            mine = watched_key(tape, "") if tape is not None else "watched:"
            return [SourceItem(node, value, frozenset(g.origin for g in value.live
                                                      if g.origin.kind is OriginKind.WATCHED and g.origin.key.startswith(mine)))]
        if value.kind == Kind.TENSOR and not value.live:
            return [SourceItem(node, value, frozenset())]
        if value.kind == Kind.MODEL and not (value.model is not None and value.model.guessed):
            return [SourceItem(node, value, frozenset())]  # `tape.gradient(loss, model)`: a rule's business
        if value.kind == Kind.VARIABLES:
            # Variables of something unknown (`list(bijector.trainable_variables)`): no origin to
            # claim about; the other items still are what they are (status.differentiated).
            return [SourceItem(node, value, frozenset())]
        if value.kind == Kind.UNKNOWN and not value.watched and all(g.opaque for g in value.live):
            # Sources nobody can follow (`params` from another module, `_opaque(variables)`): they
            # may be exactly what the loss still differentiates, or anything else; no claim rests
            # on which.
            return [SourceItem(node, value, frozenset())]
        return None

    def _record_minimize_sink(self, site: Site, frame: Frame) -> None:
        loss = site.args[0] if site.args else site.keywords.get("loss")
        if not frame.records_facts or loss is None or loss.kind != Kind.CALLABLE or loss.func is None:
            return
        func = loss.func
        tape = self._minimize_tape(site)
        inner = Frame({}, frame, func, cls=frame.cls, tapes=frame.tapes + ((tape,) if tape else ()))
        if isinstance(func, ast.Lambda):
            inner.returns.append(self.eval(func.body, inner))
        elif isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
            self.exec_block(func.body, inner)
        if not inner.returns:
            return
        node = site.node
        source_node = _argument(node, 1, "var_list")
        sources = self._source_items(source_node, frame) if source_node is not None else None
        self.analysis.sinks.append(
            Sink(SinkKind.MINIMIZE, node, node.args[0] if node.args else node, join(inner.returns), sources, tape,
                 _minimize_callee(self.doc, node), frame.function, source_node))

    def _minimize_tape(self, site: Site) -> TapeInfo | None:
        """`optimizer.minimize(loss_fn)` calls `loss_fn` under a tape of its own: what `loss_fn`
        reads that was computed before (`output = model(x)` earlier) was never recorded. A Keras 3
        optimizer has no `minimize` at all (GG308 says so): no tape."""
        optimizer = site.receiver
        if optimizer is None or optimizer.kind == Kind.OPTIMIZER and optimizer.keras3 or self._graph_mode():
            return None  # graph code (TF1 sessions): `minimize` builds `tf.gradients` over the whole graph
        self.unlisted_tapes += 1
        return TapeInfo(f"minimize#{self.unlisted_tapes}", "minimize", False, None, site.node)

    def _graph_mode(self) -> bool:
        if self.graph_mode is None:
            self.graph_mode = self.doc.ask(builds_graphs)
        return self.graph_mode

    def _record_compute_loss_sink(self, site: Site, model: Value, frame: Frame) -> None:
        if not frame.records_facts or model.model is None:
            return
        node = site.node
        index = 2 if site.method == "compute_loss" else 1
        y_pred_node = site.arg_node(index, "y_pred")
        if y_pred_node is None:
            return
        target = self.eval(y_pred_node, frame)
        sources = [SourceItem(node.func, Value(kind=Kind.VARIABLES), frozenset({model.model}))]
        self.analysis.sinks.append(Sink(SinkKind.COMPUTE_LOSS, node, y_pred_node, target, sources, None,
                                        self._callee(node), frame.function))

    # ----------------------------------------------------------------------------- replays
    def replays(self, func: ast.AST, actuals: dict[int, Value], frame: Frame, traced: bool = False) -> bool:
        """`train_step(logits, labels)` is worth replaying: the function opens a tape of its own,
        and an argument was computed from a model before the call, so that tape cannot have
        recorded it; or the function is traced and given a dataset, which a `for` inside it runs
        as `Dataset.reduce`. (Data, and variables handed in unread, are the common case: no replay.)"""
        if not (frame.records_facts and isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef))):
            return False
        computed = any(g.tapes is not None for value in actuals.values() for g in value.live) \
            or any(_known_model(value) for value in actuals.values()) \
            or frame.function is None and self._reads_rebound(func)
        datasets = any(value.role == "dataset" for value in actuals.values()) \
            and (traced or is_traced_def(func, self.imports))
        return (computed or datasets) and self._opens_tape(func)

    def _reads_rebound(self, func: ast.AST) -> bool:
        """`training_step` reads the module's `model`, which a later cell binds again (a notebook's
        `def model(x)`, then `model = keras.Sequential(...)`): its own analysis, run after the
        module, sees the last binding; a call from the module's code sees the binding then."""
        if self._rebound_names is None:
            self._rebound_names = self.doc.ask(rebound_at_top_level)
        return bool(self._rebound_names) and not self._rebound_names.isdisjoint(body_names(func).loaded)

    def _opens_tape(self, func: ast.AST) -> bool:
        known = self.opens_tape.get(id(func))
        if known is None:
            known = self.opens_tape[id(func)] = any(
                isinstance(node, (ast.With, ast.AsyncWith)) and any(
                    isinstance(item.context_expr, ast.Call)
                    and (self.imports.qualname(item.context_expr.func) or "").endswith("GradientTape")
                    for item in node.items)
                for node in walk(func))
        return known

    def replay_call(self, func: ast.AST, cls, call: ast.Call, actuals: dict[int, Value], frame: Frame,
                    traced: bool = False) -> None:
        """Run the function's body again with this call's arguments for its parameters, keeping
        only the gradient sinks, each tagged with the call. The function's own analysis cannot
        see the argument's history: there its parameters stand for any argument."""
        replay = Frame({}, self.closures.get(id(func), self.module), func, cls=cls, tapes=frame.tapes, call_site=call,
                       traced=traced or is_traced_def(func, self.imports))
        for index, param in enumerate(self._params(func)):
            if index == 0 and cls is not None and param.arg == "self":
                replay.env[param.arg] = self._self_value(cls)
            else:
                replay.env[param.arg] = actuals.get(index, UNKNOWN)
        self.exec_block(func.body, replay)

    def settle_replays(self) -> None:
        """A sink replayed for its calls is judged by those replays, not by its function's own
        analysis (which could not tell what `logits` was). A call in a loop is replayed once per
        walk of the loop: the last walk's, which has flowed around the loop, is kept."""
        sinks = self.analysis.sinks
        replayed = {id(s.node) for s in sinks if s.call_site is not None}
        if not replayed:
            return
        kept, seen = [], set()
        for sink in reversed(sinks):
            key = (id(sink.call_site), id(sink.node))
            if sink.call_site is None and id(sink.node) in replayed or sink.call_site is not None and key in seen:
                continue
            seen.add(key)
            kept.append(sink)
        sinks[:] = reversed(kept)

    def _record_truth_test(self, test: ast.AST, frame: Frame) -> None:
        if frame.replaying() is not None:
            return
        node = test.operand if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not) else test
        if isinstance(node, ast.Compare) and len(node.comparators) == 1:
            node = node.left
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "len" and node.args:
                node = node.args[0]
        key = name_key(node)
        if key is None:
            return
        value = frame.lookup(key)
        if value is not None:
            self.analysis.record_truth_test(test, node, value)


def _minimize_callee(doc, node: ast.Call) -> str:
    """`optimizer.minimize`; `minimize` when the optimizer is built in the call itself
    (`tf.compat.v1.train.AdamOptimizer(0.4).minimize`)."""
    text = doc.short(node.func, 32)
    return text if len(text) <= 32 and not isinstance(node.func.value, ast.Call) else "minimize"


def _argument(node: ast.Call, index: int, keyword: str) -> ast.AST | None:
    if len(node.args) > index:
        return node.args[index]
    return next((k.value for k in node.keywords if k.arg == keyword), None)


def _zero_facts(nodes: list[ast.AST], imports) -> tuple[bool, frozenset[str], bool, tuple]:
    """What `asks_only_zeros` needs of some of the module's nodes: whether a call is `fit` or
    `minimize`, the names given to `watch`, whether a gradient call asks for zeros, and the second
    argument (a name, or None) of each gradient call that does not."""
    blocks, zeros, watched, others = False, False, set(), []
    for call in nodes:
        if not isinstance(call, ast.Call) or not isinstance(call.func, ast.Attribute):
            continue
        method = call.func.attr
        if method in FIT_METHODS or method == "minimize":
            blocks = True
        elif method == "watch":
            watched.update(a.id for a in call.args if isinstance(a, ast.Name))
        elif method in GRADIENT_METHODS and call.args:
            if asks_for_zeros(call):
                zeros = True
            else:
                second = call.args[1] if len(call.args) > 1 else None
                others.append(second.id if isinstance(second, ast.Name) else None)
    return blocks, frozenset(watched), zeros, tuple(others)


def _only_zeros(facts: list[tuple[bool, frozenset[str], bool, tuple]], imports) -> bool:
    if any(blocks for blocks, _, _, _ in facts):
        return False
    watched = frozenset().union(*(names for _, names, _, _ in facts))
    if any(name is None or name not in watched for _, _, _, others in facts for name in others):
        return False
    return any(zeros for _, _, zeros, _ in facts)


# The module asks for gradients, and every call that may ask for variables' passes
# `unconnected_gradients=ZERO` (`tape.gradient(score, x)` of a tensor `x` the module watches asks
# for none); no `fit`, `minimize` or `train_on_batch`, whose gradients Keras asks without it.
asks_only_zeros = ModuleQuestion("asks_only_zeros", _zero_facts, _only_zeros, neutral=(False, frozenset(), False, ()))


def asks_for_zeros(call: ast.Call) -> bool:
    """`unconnected_gradients=tf.UnconnectedGradients.ZERO` (or "zero"): zeros, never None."""
    option = next((k.value for k in call.keywords if k.arg == "unconnected_gradients"), None)
    if isinstance(option, ast.Constant):
        return str(option.value).lower() == "zero"
    return isinstance(option, ast.Attribute) and option.attr == "ZERO"


def _container(value: Value) -> bool:
    return value.items is not None or value.kind == Kind.VARIABLES


def _known_model(value: Value) -> bool:
    """A model the file builds (its layers known), given to a function that opens a tape: what its
    call there cuts is known at this call, not in the function's own analysis."""
    return value.kind == Kind.MODEL and value.model is not None and not value.model.guessed \
        and value.effect is not None


def _top_level_binds(nodes: list[ast.AST], imports) -> tuple[str, ...]:
    """The names the top-level statements among `nodes` (one statement's, or the whole module's)
    bind by assignment or definition (imports aside), once per statement."""
    roots = nodes[0].body if nodes and isinstance(nodes[0], ast.Module) else nodes[:1]
    names: list[str] = []
    for stmt in roots:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.append(stmt.name)
            continue
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target] \
            if isinstance(stmt, (ast.AnnAssign, ast.AugAssign, ast.For, ast.AsyncFor)) else []
        names += sorted({n.id for target in targets for n in walk(target) if isinstance(n, ast.Name)})
    return tuple(names)


def _bound_twice(facts: list[tuple[str, ...]], imports) -> frozenset[str]:
    seen, twice = set(), set()
    for name in (name for names in facts for name in names):
        (twice if name in seen else seen).add(name)
    return frozenset(twice)


# The module names its top-level statements bind more than once (a notebook's `model`).
rebound_at_top_level = ModuleQuestion("rebound_at_top_level", _top_level_binds, _bound_twice, neutral=())
