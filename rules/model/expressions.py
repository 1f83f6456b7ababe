"""Expressions other than calls: names, attributes, operators, literals, comprehensions."""
from __future__ import annotations

import ast

from . import no_gradient
from .facts import ConstantFallback, TapeInfo, attribute_key, name_key
from .frame import Frame, _handler
from .library import (COLLECTION_ADDERS, MODEL_ATTRS_WITHOUT_GRADIENT, NOT_FORWARD_METHODS, PREDICT_METHODS, TENSOR_ATTRS_WITHOUT_GRADIENT,
                      VARIABLE_ATTRS, WEIGHT_ATTRS, spelled_constant)
from .objects import holder_variables
from .unknown import ALIASES
from .values import (UNKNOWN, Grad, Kind, Origin, OriginKind, Site, Value, evolve, held, held_paths, join, variable_origins,
                     with_fallback)


class Expressions:
    def eval(self, node: ast.AST, frame: Frame) -> Value:
        method = _handler(type(self), "eval_", type(node))
        if method is None:
            values = [self.eval(child, frame) for child in ast.iter_child_nodes(node) if isinstance(child, ast.expr)]
            return join(values) if values else UNKNOWN
        return method(self, node, frame)

    def eval_Constant(self, node: ast.Constant, frame: Frame) -> Value:
        return Value(kind=Kind.NUMBER if isinstance(node.value, (int, float)) else Kind.UNKNOWN, constant=node.value)

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
        """Reading a variable starts a gradient dependency on it (on the model it belongs to, for
        one taken out of `model.trainable_variables`)."""
        if value.kind != Kind.VARIABLE:
            return value
        origins = [value.model] if value.model is not None else sorted(value.sources, key=lambda o: o.key)
        # Already read (the dependency starts at the first read); a watched variable carries the
        # watch's dependency and still its own.
        present = {g.origin for g in value.live}
        missing = [origin for origin in origins if origin not in present]
        if not missing:
            return value
        span = self.doc.span(node)
        weights = value.model is None  # a model's variable: its prediction is not involved
        return evolve(value, live=value.live | {Grad(origin, span, None, weights=weights) for origin in missing})

    def _penalized(self, model: Value) -> bool:
        """`model.losses` holds penalties of the model: its layers declare a regularizer (in this
        module or, followed by jedi, in another), or it is a model known only by its name. One
        whose layers the analysis sees declaring none has an empty list: nothing to depend on."""
        effect = self.effect_of(model)
        return effect is not None and effect.regularized is not None or model.model.guessed

    def _may_be_self(self, instance: Value, frame: Frame) -> bool:
        """An instance of the class (or of a class of this file derived from it) whose method this
        frame runs, other than `self` itself: which object `self` is, a method cannot tell."""
        cls = frame.enclosing_class()
        if cls is None or not isinstance(instance.func, ast.ClassDef) or instance.model == cls.origin:
            return False
        return any(node is cls.node for node in self.classes_up_from(instance.func))

    def eval_Attribute(self, node: ast.Attribute, frame: Frame) -> Value:
        key = name_key(node)
        if key is not None and (value := frame.lookup(key)) is not None:
            return self._read(value, node)
        cls = frame.enclosing_class()
        if key is not None and cls is not None and key in cls.attrs:
            return self._read(self.attribute_read(cls, key, cls.attrs[key], node), node)
        if key is None and (dotted := attribute_key(node)) is not None and (value := frame.lookup(dotted)) is not None:
            return self._read(value, node)  # assigned before: `store.value = h`
        if (qualname := self.imports.qualname(node)) is not None:
            return Value(constant=qualname)  # `tf.float32`, `np.pi`: module constants carry no gradient
        base = self.eval(node.value, frame)
        if node.attr in COLLECTION_ADDERS and (base_key := name_key(node.value)) is not None \
                and base.kind not in (Kind.TENSOR, Kind.VARIABLE, Kind.MODEL, Kind.TAPE):
            return Value(role=(ALIASES, base_key))  # `history.append` handed on: whoever calls it adds to `history`
        if base.role == "instance" and (attribute := held(base, node.attr)) is not None:
            return self._read(attribute, node)  # `agent.net`: what the object's `__init__` set
        if base.role == "instance" and _defines(base.func, node.attr):
            # A property (`g.std`, computed from `self.log_std`) or a method bound for later: its
            # class's method, not followed, may read all the object holds.
            return self.object_reads(UNKNOWN, [base], node.attr, [], node)
        if base.role == "self":  # `trainer = self`, read in a class defined in the method: its `self.w`
            info = self.class_infos.get(id(base.func))
            attribute = info.attrs.get(f"self.{node.attr}") if info is not None else None
            if attribute is not None:
                return self._read(attribute, node)
            base = evolve(base, role=None, func=None)  # (what an attribute of it holds is not known)
        if base.items and isinstance(node.value, ast.Call):
            listed = no_gradient.outputs(self.imports.qualname(node.value.func))
            if node.attr in listed and listed[node.attr]["position"] < len(base.items):
                return base.items[listed[node.attr]["position"]]  # `tf.math.top_k(x).indices`
        if node.attr in VARIABLE_ATTRS and base.kind not in (Kind.MODEL, Kind.VARIABLE, Kind.VARIABLES) \
                and isinstance(node.value, ast.Attribute) and (inferred := self.inferred_called(node.value)):
            # `agent.scorer.trainable_variables` of the `agent.scorer` jedi said is a model when it was called
            return Value(kind=Kind.VARIABLES, sources=frozenset({inferred}))
        if base.kind == Kind.TAPE:
            # `tape.watch` handed on (`map(tape.watch, xs)`): whoever calls it may watch anything
            if isinstance(base.tape, TapeInfo):
                base.tape.watches_untracked = True
            return Value(tape=base.tape)
        if base.kind == Kind.MODEL:
            if node.attr in VARIABLE_ATTRS and base.model is not None and self._may_be_self(base, frame):
                # `model.trainable_variables` in a method of `model`'s class (a tutorial's
                # `train_step` reading the module's `model`): that object may be `self`.
                return Value(kind=Kind.VARIABLES)
            if node.attr in VARIABLE_ATTRS and base.model is not None:
                effect = self.effect_of(base) if node.attr in ("variables", "weights") else None
                return Value(kind=Kind.VARIABLES, sources=frozenset({base.model}),
                             effect=effect if effect is not None and effect.stateful else None)
            if node.attr in WEIGHT_ATTRS and base.model is not None:
                return self._read(Value(kind=Kind.VARIABLE, sources=frozenset({base.model})), node)
            if node.attr == "losses" and base.model is not None and self._penalized(base):
                # The penalties of its regularizers: of its weights, and of its outputs (an
                # activity regularizer), as they were at its last call.
                return Value(frozenset({Grad(base.model, self.doc.span(node), None, weights=True)}))
            if node.attr == "layers":
                # Some of the model's layers: their variables are the model's, but what calling
                # one of them cuts is not the whole model's (`for layer in model.layers[1:]`
                # leaves out its Embedding).
                return evolve(base, effect=None)
            if node.attr in ("output", "outputs") and base.model is not None:
                # The symbolic output a functional model is built on: it carries the model's variables.
                return Value(frozenset({Grad(base.model, self.doc.span(node), None)}), kind=Kind.TENSOR,
                             role="symbolic")
            if node.attr in ("input", "inputs"):
                # A functional model's placeholders (KerasTensors): no batch ever flows through them
                # eagerly, so a tape can neither watch nor differentiate them (GG312).
                return Value(kind=Kind.TENSOR, role="symbolic")
            if key is not None and cls is not None and cls.is_keras and self.conventions.model(node.attr):
                return base
        if key is not None and self.conventions.model(node.attr) and not (cls and cls.is_keras):
            origin = Origin(OriginKind.MODEL, key, f"attr:{key}", self.doc.span(node), guessed=True)
            return Value(kind=Kind.MODEL, model=origin)
        if node.attr in TENSOR_ATTRS_WITHOUT_GRADIENT:
            return UNKNOWN
        if base.kind == Kind.MODEL and base.model is not None and self._sets_variable(base, node.attr):
            return self._read(Value(kind=Kind.VARIABLE, sources=frozenset({base.model})), node)  # `critic.w`
        if base.kind == Kind.MODEL and base.model is not None and _may_read_weights(node.attr):
            # `critic.w` of a `tf.Module`, `value_fn = critic.value`: the model cannot see what it
            # is, so it may read the model's variables (never proof of a break: opaque).
            held_by_it = frozenset(evolve(g, opaque=True) for g in held_paths(base))  # (and what it holds)
            return Value(frozenset({Grad(base.model, self.doc.span(node), None, opaque=True)}) | held_by_it)
        if base.kind == Kind.MODEL and base.model is None and base.sources and node.attr in VARIABLE_ATTRS:
            return Value(kind=Kind.VARIABLES, sources=base.sources)  # `m.trainable_variables` for m in models
        if node.attr == "trainable_variables" and (variables := holder_variables(base)) is not None:
            return variables  # `list(dist.trainable_variables)`: the variables it was built from
        if node.attr in VARIABLE_ATTRS and base.kind not in (Kind.VARIABLES, Kind.VARIABLE):
            # No tensor has `trainable_variables`: whatever `base` is, these are some model's
            # variables, the model unknown (`tf.keras.load_model(path).trainable_variables`).
            return Value(kind=Kind.VARIABLES)
        return evolve(base, kind=Kind.UNKNOWN if base.kind in (Kind.MODEL, Kind.CALLABLE) else base.kind, items=None)

    def _sets_variable(self, model: Value, attribute: str) -> bool:
        """The model is an instance of a class of this file whose methods set `self.<attribute>` to a
        variable (`self.w = tf.Variable(...)` in a `tf.Module`, `self.add_weight(...)` in a layer)."""
        info = self.class_infos.get(id(model.func)) if isinstance(model.func, ast.ClassDef) else None
        if info is None:
            return False
        self.ensure_attributes(info)
        held_value = info.attrs.get(f"self.{attribute}")
        return held_value is not None and held_value.kind == Kind.VARIABLE

    def eval_Subscript(self, node: ast.Subscript, frame: Frame) -> Value:
        base = self.eval(node.value, frame)
        self.eval(node.slice, frame)
        if base.items and isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, int):
            if -len(base.items) <= node.slice.value < len(base.items):
                return self._read(base.items[node.slice.value], node)  # `variables[0] * 2.0` reads it
        if base.fields and base.role not in ("instance", "holder") and isinstance(node.slice, ast.Constant):
            entry = held(base, node.slice.value)
            if entry is not None:
                return self._read(entry, node)  # `agent_infos["log_std"]`: that key's value
        if base.kind == Kind.VARIABLES and not isinstance(node.slice, ast.Slice):  # one of the variables, read
            return self._read(Value(kind=Kind.VARIABLE, sources=variable_origins(base)), node)
        if base.kind in (Kind.VARIABLES, Kind.MODEL):
            return base
        if base.kind == Kind.GRADS:
            return evolve(base, kind=Kind.TENSOR)
        if base.role == "holder" or base.kind == Kind.UNKNOWN:
            # `dist[:5]`: another distribution on the same variables; `results.states[0]` of an
            # object nobody can see: maybe a Python tuple. Neither is known to be an op here.
            return evolve(base, items=None)
        return self.op(evolve(base, items=None), node, frame)

    def eval_BinOp(self, node: ast.BinOp, frame: Frame) -> Value:
        left, right = self.eval(node.left, frame), self.eval(node.right, frame)
        if _joins_lists(node, left, right):  # `model.trainable_variables + [w]`, `[w] * 2`
            parts = [_list_parts(left, node.left), _list_parts(right, node.right)]
            items, elements = (None, None) if None in parts or not isinstance(node.op, ast.Add) else \
                (parts[0][0] + parts[1][0], parts[0][1] + parts[1][1])
            return Value(kind=Kind.VARIABLES, sources=variable_origins(left) | variable_origins(right), items=items,
                         elements=elements)
        parent = self.doc.parents.get(node)
        if isinstance(node.op, (ast.Add, ast.Sub)) and isinstance(parent, ast.Assign) and parent.value is node \
                and len(parent.targets) == 1:
            self.note_dead_term(name_key(parent.targets[0]), left, right, frame)
        result = self.op(_computed(join([left, right])), node, frame)  # arithmetic: `w * w` depends on `w`
        if isinstance(node.op, ast.Sub) and not left.live and right.live and frame.tapes:
            return evolve(result, role=("advantage", node.right))  # `ret - value`
        if isinstance(node.op, ast.Mult) and frame.tapes and frame.replaying() is None:
            self._note_unstopped_advantage(left, right)
        return result

    def _note_unstopped_advantage(self, left: Value, right: Value) -> None:
        """`-log_prob * advantage` where the advantage subtracts a prediction of the model being
        trained, not stopped: the policy's loss trains the critic too."""
        for logp, advantage in ((left, right), (right, left)):
            if logp.role == "log" and isinstance(advantage.role, tuple) and advantage.role[0] == "advantage":
                prediction = advantage.role[1]
                if not any(node is prediction for node, _ in self.analysis.unstopped_advantages):
                    self.analysis.unstopped_advantages.append((prediction, advantage))

    def note_dead_term(self, loss: str | None, left: Value, right: Value, frame: Frame) -> None:
        """`loss = mse + 0.01 * np.mean(entropy)` in the tape: the term adds nothing to the gradient.

        Only the terms of the sum that is assigned to the loss itself: a target or an advantage
        made constant with numpy is compared with the prediction inside the loss
        (`tf.square(target - q)`), a mask or an index multiplies or selects; neither is a term of
        the sum. A term cut on purpose (`tf.stop_gradient`) or a TD target is not dead either."""
        if loss is None or not (frame.tapes or frame.loss_function) or frame.replaying() is not None:
            return
        for term, other in ((left, right), (right, left)):
            if other.live and not term.live and term.cut:
                spans = {c.brk.span for c in term.cut if not c.brk.deliberate and not c.grad.bootstrap}
                if spans:
                    self.analysis.dead_terms.setdefault(loss, set()).update(spans)

    def eval_UnaryOp(self, node: ast.UnaryOp, frame: Frame) -> Value:
        operand = self.eval(node.operand, frame)
        if isinstance(node.op, ast.Not):
            return UNKNOWN
        return self.op(_computed(operand), node, frame)  # `-log_prob` keeps its role

    def eval_BoolOp(self, node: ast.BoolOp, frame: Frame) -> Value:
        values = [self.eval(v, frame) for v in node.values]
        # `critic_2 or critic.copy()`: one of the models, whichever it is.
        return next((v for v in values if v.kind == Kind.MODEL), None) or join(values)

    def eval_IfExp(self, node: ast.IfExp, frame: Frame) -> Value:
        self.eval(node.test, frame)
        body, orelse = self.eval(node.body, frame), self.eval(node.orelse, frame)
        value = join([body, orelse])
        if frame.in_trace():  # AutoGraph makes it a `tf.cond`, differentiated through both arms
            return value
        for arm, arm_value, other in ((node.body, body, orelse), (node.orelse, orelse, body)):
            # `tf.reduce_mean(l) if tf.size(l) > 0 else tf.constant(0.0)`: GG313, as for the
            # branches of an `if` statement (statements.py).
            if other.live and not arm_value.live and not arm_value.cut and spelled_constant(arm, self.imports):
                value = self.fall_back(value, arm, _bound_to(self.doc, node), node, arm_value)
        return value

    def fall_back(self, value: Value, constant: ast.expr, name: str | None, branch: ast.AST,
                  taken: Value = UNKNOWN) -> Value:
        """`value` where, on the path through the spelled `constant` (`taken` there), it loses what
        the constant does not carry; the constant recorded for GG313's messages and fixes."""
        span = self.doc.span(constant)
        self.analysis.constant_fallbacks.setdefault(span, ConstantFallback(constant, name, branch))
        return with_fallback(value, span, taken)

    def eval_Compare(self, node: ast.Compare, frame: Frame) -> Value:
        operands = [self.eval(node.left, frame)] + [self.eval(c, frame) for c in node.comparators]
        if all(isinstance(op, (ast.Is, ast.IsNot, ast.In, ast.NotIn)) for op in node.ops):
            return UNKNOWN
        site = Site(node, args=operands, doc=self.doc)
        return self._apply_breaks(site, join(operands), frame) or self.op(join(operands), node, frame)

    def eval_Tuple(self, node: ast.AST, frame: Frame) -> Value:
        items = tuple(self.eval(elt.value if isinstance(elt, ast.Starred) else elt, frame) for elt in node.elts)
        if items and all(i.kind in (Kind.VARIABLE, Kind.VARIABLES) for i in items):
            sources = frozenset().union(*(variable_origins(i) for i in items))
            # The variables written in the list were read (`tf.stack([v1, v2])` depends on both);
            # as `tape.gradient`'s sources the list is its variables.
            return Value(join(items).live, kind=Kind.VARIABLES, sources=sources, items=items)
        if items and all(i.kind == Kind.MODEL for i in items):
            # `[actor, critic]`: each element one of the models (`for m in models: m(x)` calls each).
            return Value(kind=Kind.MODEL, sources=models_of(items), items=items)
        return evolve(join(items), items=items) if items else UNKNOWN

    eval_List = eval_Tuple
    eval_Set = eval_Tuple

    def eval_Dict(self, node: ast.Dict, frame: Frame) -> Value:
        values = [self.eval(v, frame) for v in node.values]
        for key in node.keys:
            if key is not None:
                self.eval(key, frame)
        if not values:
            return UNKNOWN
        if all(isinstance(k, ast.Constant) and isinstance(k.value, str) for k in node.keys):
            return evolve(join(values), fields=tuple(zip((k.value for k in node.keys), values)))
        return join(values)

    def eval_Starred(self, node: ast.Starred, frame: Frame) -> Value:
        return self.eval(node.value, frame)

    def eval_NamedExpr(self, node: ast.NamedExpr, frame: Frame) -> Value:
        value = self.eval(node.value, frame)
        self.bind(node.target, value, frame, node.value)
        return value

    def eval_Yield(self, node: ast.Yield, frame: Frame) -> Value:
        """A generator's elements are what it yields: in its summary, its results."""
        if node.value is not None:
            frame.returns.append(self.eval(node.value, frame))
        return UNKNOWN  # what the caller sends back

    def eval_Lambda(self, node: ast.Lambda, frame: Frame) -> Value:
        if frame is not self.module:
            self.closures[id(node)] = frame  # `lambda: h * h` reads the `h` of the function it is in
        return Value(kind=Kind.CALLABLE, func=node)

    def _comprehension(self, node: ast.AST, elements: list[ast.AST], frame: Frame) -> Value:
        if (flat := self._flattened(node, frame)) is not None:
            return flat
        inner = Frame({}, frame, frame.function, cls=frame.cls, summary=frame.summary, tapes=frame.tapes)
        for generator in node.generators:
            self.bind(generator.target, self._element(self.eval(generator.iter, inner)), inner, None)
            for condition in generator.ifs:
                self.eval(condition, inner)
        values = [self.eval(e, inner) for e in elements]
        frame.returns.extend(inner.returns)
        result = join(values)
        if result.kind in (Kind.VARIABLE, Kind.VARIABLES):
            # `[v for v in model.trainable_variables if "pooler" not in v.path]`: some of them, not
            # known which (a sink asking for them does not ask for every layer of the model).
            subset = any(generator.ifs for generator in node.generators)
            return Value(kind=Kind.VARIABLES, sources=variable_origins(result), role="subset" if subset else None)
        return result

    def _flattened(self, node: ast.AST, frame: Frame) -> Value | None:
        """`[v for group in (a.trainable_variables, [w]) for v in group]`: the lists written out,
        joined, as `a.trainable_variables + [w]` is (each element judged as it is, `w` a watched
        tensor too); None for any other comprehension."""
        if not isinstance(node, ast.ListComp) or len(node.generators) != 2 or any(g.ifs for g in node.generators):
            return None
        outer, inner = node.generators
        if not (isinstance(outer.target, ast.Name) and isinstance(inner.target, ast.Name)
                and isinstance(inner.iter, ast.Name) and inner.iter.id == outer.target.id
                and isinstance(node.elt, ast.Name) and node.elt.id == inner.target.id
                and isinstance(outer.iter, (ast.Tuple, ast.List)) and outer.iter.elts):
            return None
        values = [self.eval(group, frame) for group in outer.iter.elts]
        parts = [_list_parts(v, group) if v.kind == Kind.VARIABLES or isinstance(group, (ast.List, ast.Tuple)) else None
                 for v, group in zip(values, outer.iter.elts)]
        if None in parts:
            return None
        return Value(kind=Kind.VARIABLES, sources=frozenset().union(*map(variable_origins, values)),
                     items=sum((p[0] for p in parts), ()), elements=sum((p[1] for p in parts), ()))

    def eval_ListComp(self, node: ast.AST, frame: Frame) -> Value:
        return self._comprehension(node, [node.elt], frame)

    eval_SetComp = eval_ListComp
    eval_GeneratorExp = eval_ListComp

    def eval_DictComp(self, node: ast.DictComp, frame: Frame) -> Value:
        return self._comprehension(node, [node.value], frame)


_LIST_OPERANDS = {Kind.VARIABLES, Kind.UNKNOWN, Kind.NUMBER}


def _list_parts(value: Value, node: ast.AST) -> tuple[tuple, tuple] | None:
    """What one side of `a + [w]` contributes to the joined list: the elements of a list written
    out (and their expressions), or a list of variables as one part; None when unknown."""
    if isinstance(node, (ast.List, ast.Tuple)) and value.items is not None and len(value.items) == len(node.elts):
        return value.items, tuple(node.elts)
    if value.elements is not None and value.items is not None:
        return value.items, value.elements
    if value.kind == Kind.VARIABLES:
        return (value,), (None,)
    return None


def _defines(cls: object, name: str) -> bool:
    """The class (of this file) defines a method `name`."""
    return isinstance(cls, ast.ClassDef) and any(
        isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) and item.name == name for item in cls.body)


def _may_read_weights(attribute: str) -> bool:
    """An attribute of a model that is not known to be anything but one of its tensors or methods."""
    return attribute not in MODEL_ATTRS_WITHOUT_GRADIENT and attribute not in NOT_FORWARD_METHODS \
        and attribute not in PREDICT_METHODS and not attribute.startswith("__")


def _computed(value: Value) -> Value:
    """The result of arithmetic: a tensor, whatever its operands were (`v1 * v2` is no variable,
    and a function returning it is no factory of variables)."""
    return value.with_kind(Kind.TENSOR) if value.kind in (Kind.VARIABLE, Kind.VARIABLES) else value


def models_of(values) -> frozenset:
    """The models a value made of several stands for: their origins (one each)."""
    out = set()
    for value in values:
        if value.model is not None:
            out.add(value.model)
        out |= value.sources if value.kind == Kind.MODEL else set()
    return frozenset(out)


def _joins_lists(node: ast.BinOp, left: Value, right: Value) -> bool:
    """Lists of variables concatenated or repeated, not variables computed with."""
    kinds = {left.kind, right.kind}
    if not isinstance(node.op, (ast.Add, ast.Mult)) or Kind.VARIABLES not in kinds:
        return False
    # `a.trainable_variables + b.trainable_variables` where `b` is not known to be a model is still
    # a list, and so is a list written out (`model.trainable_variables + [w]`, `w` a watched
    # tensor); a variable or a tensor on either side would be arithmetic.
    displays = (ast.List, ast.Tuple, ast.ListComp)
    return kinds <= _LIST_OPERANDS or isinstance(node.left, displays) or isinstance(node.right, displays)


def _bound_to(doc, node: ast.AST) -> str | None:
    """The name `node` is assigned to (`loss = ... if ... else 0.0`), or None."""
    parent = doc.parents.get(node)
    if isinstance(parent, ast.Assign) and len(parent.targets) == 1 and isinstance(parent.targets[0], ast.Name):
        return parent.targets[0].id
    return None
