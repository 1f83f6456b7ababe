"""Calls: what the model knows a call means (library constructors, model calls, functions of this
file by summary, other modules' by jedi), and the break rules consulted at each one."""
from __future__ import annotations

import ast

from ..source.imports import is_differentiable_numpy, is_numpy, is_tensorflow
from . import no_gradient
from .custom_gradients import inspect as inspect_custom_gradient, is_custom_gradient_def
from .facts import MinimizeCall, attribute_key, name_key
from .binding import bind
from .frame import Frame
from .library import (TAPE_MADE, UNTRAINABLE, keyword_constant, persistent_tape, spelled_constant, TF_FUNCTION, VARIABLE_CONSTRUCTORS, NUMPY_FUNCTIONS, COLLECTION_ADDERS, FIT_METHODS, is_integer_dtype, GRADIENT_METHODS, KERAS_MODEL_FACTORIES, KERAS_MODEL_PREFIXES,
                      MODEL_RETURNING_METHODS, NOT_FORWARD_METHODS, NOT_TENSOR_NAMESPACES, PREDICT_METHODS)
from .objects import FUNCTION_NODES, NOT_HOLDERS, TFP_HOLDERS, TFP_VARIABLES, evaluates_holder, refers, self_free_method
from .regularizers import gives
from .unknown import aliases
from .values import (UNKNOWN, Break, Grad, Kind, LayerEffect, Origin, OriginKind, Site, Value, cut_by, evolve, held, join,
                     recorded_from_here, variable_origins)


class Calls:
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
        if callee.kind == Kind.METRIC:
            receiver, method = callee, "__call__"  # `metric(y_true, y_pred)`: its update_state, then result
        site = Site(node, qual, method, receiver, args, keywords, self.doc, traced=frame.in_trace(),
                    callee=callee if callee.kind == Kind.CALLABLE else None)

        if method in ("add_loss", "add_metric") and frame.summary:
            self.note_added_loss(site, frame)
        if method == "compile" and receiver is not None and receiver.kind == Kind.MODEL:
            self._note_penalized_losses(site, receiver)
        special = self._special_call(site, callee, frame)
        if special is not None:
            return special
        if method in COLLECTION_ADDERS and isinstance(func, ast.Attribute):
            self._add_to_collection(func.value, site, frame)
        if receiver is not None and receiver.role == "dataset" and method in DATASET_FUNCTIONS:
            site.args = [self._traced_function(v) for v in site.args]
        if qual in NUMPY_FUNCTIONS and node.args:
            # `tf.numpy_function(self.np_step, [], ...)`: what the Python function reads (a model
            # it runs) goes through the op as its inputs do.
            site.args[0] = self._traced_function(self._function_value(node.args[0], site.args[0], frame), numpy=True)
        if receiver is not None and receiver.kind == Kind.MODEL and method in PREDICT_METHODS:
            site.receiver = self._model_output(receiver, node, frame)
        broken = self._apply_breaks(site, None, frame)
        if broken is not None:
            return broken
        if isinstance(func, ast.Name) and func.id == "zip" and frame.lookup("zip") is None and site.args:
            return evolve(join(site.args), items=tuple(site.args), role="zip")
        entry = self._callback_entry(site, frame)
        if entry is not None and (called := self._library_callback(site, entry, frame)) is not None:
            return called
        result = self._tuple_outputs(site, self._ordinary_call(site, callee, frame), frame)
        if qual in _LOG_FUNCTIONS or (method == "log_prob" and result.live):
            result = evolve(result, role="log")  # a log-probability, when a policy's
        return result

    def _note_penalized_losses(self, site: Site, model: Value) -> None:
        """`model.compile(loss=fit_loss)` of a model whose layers declare regularizers: what `fit`
        differentiates is `fit_loss` plus the penalties (engine `_record_loss_function_sink`)."""
        effect = self.effect_of(model)
        if effect is not None and effect.regularized is not None:
            self.penalized_losses.update(id(candidate) for candidate in self.compiled_losses.get(id(site.node), ()))

    def _tuple_outputs(self, site: Site, result: Value, frame: Frame) -> Value:
        """`values, indices = tf.math.top_k(x)`: the outputs the table lists have no gradient; the
        result's items (for unpacking, `[1]` and `.indices`) say so, one per position."""
        listed = no_gradient.outputs(site.qualname)
        if not listed or not result.live:
            return result
        items = [result] * (1 + max(info["position"] for info in listed.values()))
        for name, info in listed.items():
            output = Site(site.node, site.qualname, None, None, [result], {}, self.doc, output=name)
            items[info["position"]] = self._apply_breaks(output, None, frame) or result
        return evolve(result, items=tuple(items))

    def _add_to_collection(self, node: ast.AST, site: Site, frame: Frame) -> None:
        """`history.append(q)`: the list now holds whatever `q` carries (and what it is: a list of
        log-probabilities stays one)."""
        key = name_key(node)
        added = [v for v in site.args if v.live or v.cut]
        if key is not None and added:
            old = frame.lookup(key) or UNKNOWN
            roles = {v.role for v in added} | ({old.role} if old.live or old.cut else set())
            role = roles.pop() if len(roles) == 1 else None
            if isinstance(role, tuple):
                role = None  # an advantage names its own subtraction: a list of them is none of them
            self.note_mutation(key, join(added), frame)
            frame.env[key] = evolve(join([old, *added]), kind=old.kind, items=None, role=role)

    def _callee_attribute(self, func: ast.Attribute, frame: Frame) -> Value:
        key = name_key(func) or attribute_key(func)
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
        base_key = name_key(func.value) or attribute_key(func.value)
        base = frame.lookup(base_key) if base_key is not None else None
        if base is None and base_key is not None and frame.cls is not None:
            base = frame.cls.attrs.get(base_key)
        if base is not None and base.role == "instance" and (attribute := held(base, func.attr)) is not None:
            return attribute  # `agent.net(x)`: what `__init__` set
        if base is not None and base.role == "instance" and (method := self_free_method(base.func, func.attr)):
            return Value(kind=Kind.CALLABLE, func=method)  # `helper.apply(t)`: its class's method
        return self.eval(func, frame) if self.conventions.model(func.attr) else UNKNOWN

    def _receiver(self, func: ast.Attribute, frame: Frame) -> Value:
        return self.eval(func.value, frame)

    def _model_output(self, model: Value, node: ast.Call, frame: Frame) -> Value:
        # A model value can lose track of which model it is (joined from several, returned by a
        # summary); its output still starts a gradient, from a model named after the call.
        if model.model is None and model.sources:  # one of several models (`for m in [actor, critic]`)
            return self.op(join([self._model_output(evolve(model, model=origin, sources=frozenset()), node, frame)
                                 for origin in sorted(model.sources, key=lambda o: o.key)]), node, frame)
        origin = model.model or Origin(OriginKind.MODEL, self.doc.short(node.func), f"call:{self.doc.span(node.func)}")
        grad = Grad(origin, self.doc.span(node), None, bootstrap=self._bootstrap_call(node))
        return self.op(Value(frozenset({grad}), self.assigned_cuts.get(origin.key, frozenset()), Kind.TENSOR), node, frame)

    def _bootstrap_call(self, node: ast.Call) -> bool:
        return any(self.conventions.next_state(self.doc.text(arg)) for arg in node.args[:1])

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
            brk = Break(rule.code, self.doc.span(site.node), label, self.doc.short(value_node), site.node,
                        deliberate=rule.absorbs_cuts, raises=rule.raises(site))
            result = cut_by(join(cut_values), brk, rule.absorbs_cuts)
            if kept:
                rest = join(kept)
                result = Value(rest.live, result.cut | rest.cut, Kind.TENSOR)
            if rule.mutates_receiver:
                self._mutate_receiver(site, result, frame)
            return self.op(result, site.node, frame)
        return None

    def _mutate_receiver(self, site: Site, result: Value, frame: Frame) -> None:
        key = name_key(site.node.func.value) if isinstance(site.node.func, ast.Attribute) else None
        # (`_opaque(cache).assign(v)`: whichever of the names it was given the receiver is)
        for key in [key] if key is not None else aliases(site.receiver) if site.receiver is not None else ():
            old = frame.lookup(key) or UNKNOWN
            frame.env[key] = evolve(old, cut=old.cut | result.cut)
        receiver = site.receiver
        if receiver is not None and receiver.kind == Kind.VARIABLE:
            # A variable of a model (`for new, w, g in zip(updated.trainable_variables, ...)`:
            # `new.assign(w - alpha * g)`): the model's later outputs hold the assigned value, cut.
            # Not for copied weights alone (a target network's soft update): only a value computed
            # from a prediction or a gradient is a path someone meant to differentiate.
            computed = frozenset(c for c in result.cut if not c.grad.weights)
            for origin in variable_origins(receiver) if computed else ():
                if origin.kind is OriginKind.MODEL:
                    self.assigned_cuts[origin.key] = self.assigned_cuts.get(origin.key, frozenset()) | computed

    def _break_value_node(self, site: Site) -> ast.AST:
        node = site.node
        if isinstance(node, ast.Call):
            if site.receiver is not None and isinstance(node.func, ast.Attribute) and site.method not in PREDICT_METHODS:
                return node.func.value
            if node.args:
                return node.args[0]
        if isinstance(node, ast.Compare):
            # The operand that carries the gradient (`noise <= x2` loses `x2`'s), else the left one.
            operands = [node.left, *node.comparators]
            carrying = [n for n, v in zip(operands, site.args) if v.live]
            return carrying[0] if len(carrying) == 1 else node.left
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
        if receiver is not None and method in GRADIENT_METHODS and isinstance(node.func, ast.Attribute) \
                and self.conventions.tape(self.doc.text(node.func.value)):
            return self._tape_method(site, Value(kind=Kind.TAPE), frame, guessed=True)
        if receiver is not None and method == "minimize":
            if frame.records_facts:  # a summary's parameters stand for every caller's arguments
                self.analysis.record_minimize_call(MinimizeCall(node, receiver, site.args[0] if site.args else UNKNOWN))
            self._record_minimize_sink(site, frame)
            return UNKNOWN
        if method in ("compute_loss", "compiled_loss") and receiver is not None and receiver.kind == Kind.MODEL \
                and callee.kind != Kind.CALLABLE:  # not a `compute_loss` the class defines itself
            self._record_compute_loss_sink(site, receiver, frame)
            return join(site.inputs()[1:]) if site.inputs() else UNKNOWN
        if method == "add_weight" or method == "add_variable":
            trainable = keyword_constant(node, "trainable", True)
            origin = self.fresh_origin(node) if trainable else None
            return Value(kind=Kind.VARIABLE, model=origin)
        if receiver is not None and receiver.kind == Kind.MODEL and method in MODEL_RETURNING_METHODS:
            return receiver
        if receiver is not None and receiver.kind == Kind.MODEL and method in PREDICT_METHODS \
                and self._plain_class_method(receiver, method):
            # `model.predict(x)` where `model` is only named like one and a plain class of this
            # file defines `predict`: that method, not Keras's, using the model's weights.
            return self.op(join([self._model_output(receiver, node, frame), *site.args]), node, frame)
        if callee.kind == Kind.MODEL and _constructs_guessed(callee, node):
            # `model = layer(10)` where only a name says `layer` is a model: given literals, it is
            # a layer class being built (a Keras layer never takes a number for its input).
            return Value(kind=Kind.MODEL, model=evolve(self.fresh_origin(node), guessed=True))
        if callee.kind == Kind.MODEL or (receiver is not None and receiver.kind == Kind.MODEL and method == "call"):
            return self.run_layer(callee if callee.kind == Kind.MODEL else receiver, site, frame)
        if receiver is not None and receiver.kind == Kind.MODEL and method in FIT_METHODS:
            self.record_fit(site, receiver, frame)
        if receiver is not None and receiver.kind == Kind.MODEL and method == "add":
            self.add_layer(site, receiver, frame)
        if receiver is not None and receiver.kind == Kind.MODEL and _runs_the_model(method) \
                and not self._plain_attribute(node.func, callee, frame):
            output = self._model_output(receiver, node, frame)
            return self.with_held(receiver, self.op(join([output, *site.args, *site.keywords.values()]), node, frame),
                                  site, frame)
        if callee.kind == Kind.CALLABLE and isinstance(callee.func, ast.ClassDef):
            info = self.class_infos.get(id(callee.func))
            if info is not None and info.has_variables:
                return Value(kind=Kind.MODEL, model=self.fresh_origin(node), effect=self.instance_effect(info, site),
                             func=callee.func,  # (its class: `critic.w` is the variable its `__init__` made)
                             fields=self.computed_at_construction(info, site, frame))
            return self._instance(info, site) if info is not None else UNKNOWN
        if callee.kind == Kind.CALLABLE and callee.func is not None:
            # AutoGraph converts what a traced function calls too (`float(t)` there is a cast).
            return self._local_call(site, callee.func, frame, traced=callee.role == "traced" or frame.in_trace(),
                                    closure=callee.closure)
        if callee.kind == Kind.UNKNOWN and not callee.live and isinstance(node.func, ast.Name) \
                and frame.lookup(node.func.id) is None and (foreign := self._foreign_call(site, frame)):
            return foreign  # a name from `from helpers import *`
        if callee.kind == Kind.UNKNOWN and not callee.live and isinstance(node.func, ast.Attribute) \
                and (frame.tapes or frame.loss_function) and self._inferred_model(node.func):
            return self._special_call(site, Value(kind=Kind.MODEL, model=self.inferred_origin(node.func)), frame)
        if callee.kind == Kind.UNKNOWN and not callee.live and isinstance(node.func, ast.Name) \
                and self.conventions.model(node.func.id) and frame.lookup(node.func.id) is None:
            origin = Origin(OriginKind.MODEL, node.func.id, f"name:{node.func.id}", self.doc.span(node.func), guessed=True)
            return self._special_call(site, Value(kind=Kind.MODEL, model=origin), frame)
        return None

    def _plain_attribute(self, func: ast.AST, callee: Value, frame: Frame) -> bool:
        """`self.activation(x)` where `__init__` stored a function there: not a method of the model."""
        key = name_key(func)
        return frame.cls is not None and key in frame.cls.attrs and callee.kind != Kind.MODEL

    def _plain_class_method(self, receiver: Value, method: str) -> bool:
        guessed = receiver.model is not None and receiver.model.guessed
        return guessed and any(not info.is_keras and any(getattr(item, "name", None) == method for item in info.node.body)
                               for info in self.class_infos.values())

    def actuals(self, site: Site, func: ast.AST) -> dict[int, Value]:
        """The call's arguments by the index of the parameter of `func` each is given to
        (binding.bind; a method's receiver not written: `agent.act(s)` gives `s` to parameter 1)."""
        nodes = site.node.args if isinstance(site.node, ast.Call) and len(site.node.args) == len(site.args) else None
        return bind(func.args, self._params(func), site.args, nodes, site.keywords, self.receiver_offset(func))

    def _local_call(self, site: Site, func: ast.AST, frame: Frame, traced: bool = False, closure: Frame | None = None) -> Value:
        cls = self.class_of_function.get(id(func))
        actuals = self.actuals(site, func)
        datasets = frozenset(index for index, value in actuals.items() if value.role == "dataset")
        closure = closure or self._closure_of(func, cls)
        if frame.changes_outer():
            closure = frame.seen_from(closure)
        summary = self.summary(func, cls, traced, datasets, closure)
        if summary is None:
            return self._ordinary_call(site, UNKNOWN, frame)
        if summary.kind in (Kind.MODEL, Kind.VARIABLE):
            if not self._made_in(summary, func):
                return summary  # (`lambda: model`, `def get(): return self.net`: the model it reads, itself)
            # a factory: each call makes its own
            return Value(kind=summary.kind, model=self.fresh_origin(site.node), effect=summary.effect)
        if self.replays(func, actuals, frame, traced):
            self.replay_call(func, cls, site.node, actuals, frame, traced)
        if summary.kind == Kind.CALLABLE and isinstance(summary.func, FUNCTION_NODES) \
                and (made := self.function_made(func, cls, actuals, closure, traced)):
            self.apply_mutations(func, site.node, actuals, frame)
            return made
        result = self.apply_summary(summary, site.node, actuals, frame, func=func)
        self.apply_mutations(func, site.node, actuals, frame)
        receiver = site.receiver
        if cls is not None and receiver is not None and receiver.role == "instance" and (receiver.live or receiver.cut):
            # An object made by a call of a function its class is defined in holds what that call
            # was given (engine.summary): its method reads that, not the names of the summary's frame.
            result = evolve(result, live=frozenset(g for g in result.live if g.origin.kind is not OriginKind.PARAM)
                            | receiver.live, cut=result.cut | receiver.cut)
        if is_custom_gradient_def(func, self.imports):
            if found := inspect_custom_gradient(func, summary, self.doc):
                self.analysis.custom_gradients.setdefault(id(func), found)
            result = _custom_gradient_result(result, actuals)
            # Its `grad` may still drop what the argument carried (a break rule decides: GG315).
            result = self._apply_breaks(site, None, frame) or result
        return result

    def _made_in(self, summary: Value, func: ast.AST) -> bool:
        """The model or variable a function returns is made by its own body (a factory's), not
        one it reads from around it."""
        origin = summary.model
        return origin is None or origin.span is None or self.doc.span(func).contains(origin.span)

    def _py_function(self, site: Site, frame: Frame) -> Value | None:
        """`tf.py_function(f, [x], tf.float32)` runs `f(x)` eagerly, recorded by the tape: what `f`
        (a function of this file) does to `x` is what the call does (a `.numpy()` inside cuts it)."""
        func = site.args[0] if site.args else site.keywords.get("func", UNKNOWN)
        inp = site.args[1] if len(site.args) > 1 else site.keywords.get("inp", UNKNOWN)
        if func.kind != Kind.CALLABLE or not isinstance(func.func, (ast.FunctionDef, ast.Lambda)) or not inp.items:
            return None
        call = Site(site.node, None, None, None, list(inp.items), {}, self.doc)
        return self._local_call(call, func.func, frame)

    def inferred_origin(self, node: ast.Attribute) -> Origin:
        """The model jedi says `agent.tower` is, called here: its variables, asked for later by
        the same expression (`inferred_called`), are that model's."""
        key = name_key(node) or self.doc.text(node)
        origin = Origin(OriginKind.MODEL, key, f"attr:{key}", self.doc.span(node))
        self.inferred_models[key] = origin
        return origin

    def inferred_called(self, node: ast.Attribute) -> Origin | None:
        return self.inferred_models.get(name_key(node) or self.doc.text(node))

    def _inferred_model(self, func: ast.Attribute) -> bool:
        """jedi says `agent.tower` is a Keras model (its class is defined in another module).

        Asked only inside a tape or a loss: jedi's type inference is its slowest question, and a
        model called anywhere else does not decide whether a loss gets its gradient."""
        if self.resolver is None or self.budget is None or self.imports.qualname(func) is not None:
            return False
        return self.resolver.is_model(self.doc, func, self.budget, self.depth, self.sibling)

    def _foreign_call(self, site: Site, frame: Frame) -> Value | None:
        """A call of a function or class defined in another module, when jedi can say which."""
        if self.resolver is None or self.budget is None:
            return None
        foreign = self.resolver.callable_for(self.doc, site.node.func, site.qualname, self.budget, self.depth,
                                               self.sibling)
        if foreign is None:
            return None
        if foreign.plain_class:  # an object keeping what it is given, read when its methods run
            return self._reference_holder(site, frame)
        if foreign.summary is None and not foreign.model or foreign.summary is not None and foreign.summary.kind == Kind.CALLABLE:
            return None  # (a function it defines and returns, `logged(loss_fn)`, is no node of this file: opaque)
        if foreign.model or foreign.summary.kind == Kind.VARIABLE:  # a class or factory: a new one per call
            kind = Kind.MODEL if foreign.model else Kind.VARIABLE
            regularized = foreign.regularized if foreign.regularizer_conditions is None or any(
                gives(site, param) for param in foreign.regularizer_conditions) else None
            effect = LayerEffect(regularized=regularized, regularized_in=foreign.path) \
                if regularized is not None else None  # its regularizers, in their module
            if foreign.model:
                effect = self.holding(site, frame, effect)
            return Value(kind=kind, model=self.fresh_origin(site.node), effect=effect)
        actuals = dict(enumerate(site.args))
        names = {name: index for index, name in enumerate(foreign.params)}
        actuals.update({names[k]: v for k, v in site.keywords.items() if k in names})
        return self.apply_summary(foreign.summary, site.node, actuals, frame, foreign=True)

    def _ordinary_call(self, site: Site, callee: Value, frame: Frame) -> Value:
        if (view := _variables_view(site)) is not None:
            return view
        qual = site.qualname or ""
        inputs = site.inputs()
        receiver = site.receiver
        if receiver is not None and receiver.kind in (Kind.UNKNOWN, Kind.VARIABLE) and receiver.live and receiver.role != "instance":
            # `lookup.clustered(ids)` on an object nobody can see into (made by a call of something unknown
            # from a variable, not an object of this file): its method runs now, as a called object does.
            inputs[0] = _called_now(receiver)
        if callee.live:
            inputs.append(_called_now(callee))
        if isinstance(site.node.func, ast.Name) and site.node.func.id in ("len", "range", "print", "isinstance", "str", "repr", "type", "id", "hash"):
            return UNKNOWN
        inputs.extend(self._called_back(site, inputs, frame))
        inputs.extend(self.evaluated_holder(site, frame))
        value = join(inputs) if inputs else UNKNOWN
        if not is_numpy(qual) and not is_tensorflow(qual):
            value = self._maybe_uses_models(site, value, callee)
        if is_numpy(qual) and not is_differentiable_numpy(qual):
            value = value.with_kind(Kind.NUMPY)
        elif is_tensorflow(qual) and qual.startswith("tensorflow.nest."):
            # `tf.nest.flatten(actions)` restructures what it is given: a watched tensor stays one.
            value = evolve(value, watched=any(v.watched for v in inputs))
        elif is_tensorflow(qual) and qual.startswith(NOT_TENSOR_NAMESPACES):
            value = value.with_kind(Kind.UNKNOWN)
            if qual.startswith("tensorflow.data."):
                value = evolve(value, role="dataset")  # `tf.data.Dataset.from_tensor_slices(x)`
        elif is_tensorflow(qual) or site.receiver is not None and site.receiver.kind == Kind.TENSOR:
            value = value.with_kind(Kind.TENSOR)
        if site.receiver is not None and site.receiver.role == "dataset" and site.method not in DATASET_ITERATION:
            value = evolve(value, role="dataset")  # `ds.batch(32).shuffle(100)`: still a dataset
        if not is_tensorflow(qual) and not evaluates_holder(site) and any(map(refers, inputs)):
            # `dist.copy()`, `slicer(dist)`: what is made of a distribution still refers to its
            # variables, and nothing says it computes anything here (`dist.log_prob(x)` does).
            return evolve(value, kind=Kind.TENSOR, items=None, role="holder")
        if self.unknown_function(site, callee, frame):
            return self.unknown_call(site, callee, value, frame)
        if site.receiver is not None and site.receiver.kind in (Kind.UNKNOWN, Kind.NUMBER) and not qual \
                or site.receiver is None and value.kind == Kind.TENSOR and not is_tensorflow(qual) and not is_numpy(qual):
            # A method of an object nobody can see (`solver.solve(fn, t0, y0)`), or a function of
            # another module (`losses = compute_loss(outputs, y)`): what it returns is not known to
            # be a tensor (its `.states[0]`, `losses[0]` may index a tuple).
            value = value.with_kind(Kind.UNKNOWN)
        return self.op(evolve(value, items=None) if value.items is not None else value, site.node, frame)

    def _function_value(self, node: ast.AST, value: Value, frame: Frame) -> Value:
        """A function passed as an argument: `self.np_train_step` is the class's method."""
        if value.kind != Kind.CALLABLE and isinstance(node, ast.Attribute):
            return self._callee_attribute(node, frame)
        return value

    def _traced_function(self, value: Value, numpy: bool = False) -> Value:
        """The function given to `ds.reduce`/`ds.map`, as what it reads from outside (the variables
        of its closure): tf.data traces it into the dataset's graph, out of the tape's sight.
        `numpy`: a function `tf.numpy_function` runs, where what it computes with numpy (its own
        breaks) still reads the model."""
        if value.kind != Kind.CALLABLE or not isinstance(value.func, (ast.FunctionDef, ast.Lambda)):
            return value
        summary = self.summary(value.func, self.class_of_function.get(id(value.func)))
        if summary is None:
            return value
        grads = [*summary.live, *(c.grad for c in summary.cut)] if numpy else summary.live
        read = frozenset(g for g in grads if g.origin.kind is not OriginKind.PARAM)
        return Value(read, kind=Kind.TENSOR) if read else value

    def _maybe_uses_models(self, site: Site, value: Value, callee: Value = UNKNOWN) -> Value:
        """A function we cannot see, given a model, may return something computed with it; a
        method of an object of this file (`agent.act(s)`, or the object called: `model(x)` running
        its `__call__`) may use what the object holds (`agent.net`, `self.W`)."""
        instances = [v for v in (site.receiver, callee) if v is not None and v.role == "instance"]
        return self.object_reads(value, instances, site.method, [*site.args, *site.keywords.values()], site.node)

    def _library_call(self, site: Site, frame: Frame) -> Value | None:
        qual, node = site.qualname, site.node
        if qual in ("tensorflow.GradientTape", "tensorflow.autodiff.GradientTape"):
            return Value(kind=Kind.TAPE, role=(TAPE_MADE, persistent_tape(node)))
        if qual in ("tensorflow.py_function", "tensorflow.compat.v1.py_function"):
            return self._py_function(site, frame)
        if qual in TF_FUNCTION and site.args and site.args[0].kind == Kind.CALLABLE:
            return evolve(site.args[0], role="traced")  # `tf.function(fun)`: calling it traces `fun`
        if qual == "tensorflow_probability.util.DeferredTensor":
            # `DeferredTensor(log_alpha, tf.exp)` applies the transform at each use: reading it
            # reads the variable, so it stands for that variable.
            wrapped = site.args[0] if site.args else site.keywords.get("pretransformed_input", UNKNOWN)
            if wrapped.kind == Kind.VARIABLE and wrapped.model is not None:
                return wrapped  # (as read here: built inside the tape, it is read inside it)
        if qual in TFP_VARIABLES:
            # `TransformedVariable(1.0, Softplus())`: a new variable, read through its bijector.
            return Value(kind=Kind.VARIABLE, model=Origin(OriginKind.NEW, "", ""))
        if qual.startswith(TFP_HOLDERS) and not qual.startswith(NOT_HOLDERS) \
                and any(part[:1].isupper() for part in qual.split(".")):
            return self._reference_holder(site, frame)  # a class, or its alternate constructor
        if qual in VARIABLE_CONSTRUCTORS:
            if any(v.live for v in site.inputs()):
                return None  # re-created from a gradient-carrying value: a break rule's business
            if not keyword_constant(node, "trainable", True):
                return Value(kind=Kind.TENSOR, role=UNTRAINABLE)  # (a tape watches it only when told to)
            return Value(kind=Kind.VARIABLE, model=Origin(OriginKind.NEW, "", "", integer=_integer_variable(node, self.imports)))
        if qual in KERAS_MODEL_FACTORIES or qual.startswith(KERAS_MODEL_PREFIXES):
            if qual not in KERAS_MODEL_FACTORIES and qual.split(".")[-1][:1].islower():
                # `keras.layers.concatenate(...)`, `keras.applications.mobilenet_v2.preprocess_input(x)`:
                # functions, not layers or models (those are classes)
                return None
            return Value(kind=Kind.MODEL, model=self.fresh_origin(node), effect=self.keras_layer_effect(site, frame))
        if qual.startswith("keras.metrics.") and qual.rsplit(".", 1)[-1][:1].isupper():
            return Value(kind=Kind.METRIC)  # `keras.metrics.Mean()`; `keras.metrics.mse(...)` is a function
        if qual.startswith("keras.optimizers.") or qual.startswith("tensorflow.optimizers."):
            keras_2 = ".legacy." in qual or self.imports.keras_2(node.func)  # `tf_keras.optimizers.SGD` has `minimize`
            return Value(kind=Kind.OPTIMIZER, keras3=not keras_2)
        if qual.startswith("tensorflow.compat.v1.train.") or qual.startswith("tensorflow.train."):
            return Value(kind=Kind.OPTIMIZER)
        if qual in ("tensorflow.constant", "tensorflow.convert_to_tensor", "tensorflow.ones", "tensorflow.zeros",
                    "tensorflow.random.normal", "tensorflow.random.uniform", "tensorflow.range"):
            value = join(site.inputs()) if site.inputs() else UNKNOWN
            if not value.live and not value.cut and spelled_constant(node, self.imports):
                return Value(kind=Kind.TENSOR, role="constant")  # `tf.constant([4.4])`: depends on nothing (GG302)
            return self.op(evolve(value, kind=Kind.TENSOR, items=None), node, frame) if not value.cut or value.live else \
                evolve(value, kind=Kind.TENSOR, items=None)
        return None


# Dataset methods whose function tf.data traces (catalogue/gg4/gg406), and those that leave the
# dataset (their result is elements, not a dataset).
DATASET_FUNCTIONS = {"reduce", "map", "scan", "filter", "flat_map", "interleave", "window"}
DATASET_ITERATION = {"as_numpy_iterator", "get_single_element", "reduce", "cardinality", "element_spec",
                     "__iter__", "take_while", "unbatch_elements"}

_LOG_FUNCTIONS = {"tensorflow.math.log", "tensorflow.log", "keras.ops.log", "keras.ops.numpy.log",
                  "tensorflow.nn.log_softmax", "tensorflow.math.log_softmax", "keras.ops.log_softmax",
                  "keras.ops.nn.log_softmax"}


def _integer_variable(node: ast.Call, imports) -> bool:
    for keyword in node.keywords:
        if keyword.arg == "dtype":
            return is_integer_dtype(keyword.value, imports)
    initial = node.args[0] if node.args else next((k.value for k in node.keywords if k.arg == "initial_value"), None)
    return isinstance(initial, ast.Constant) and type(initial.value) is int


def _constructs_guessed(callee: Value, node: ast.Call) -> bool:
    """A model known only by its name, called with literal numbers or strings alone: a class."""
    if callee.model is None or not callee.model.guessed:
        return False
    written = [*node.args, *(k.value for k in node.keywords)]
    return bool(written) and all(
        isinstance(a, ast.Constant) and isinstance(a.value, (int, float, str)) and not isinstance(a.value, bool)
        for a in written)


def _runs_the_model(method: str | None) -> bool:
    """`model(x)`, `model.call(x)`, and methods the model cannot see (`actor.log_prob(s, a)`): they
    use the model's variables. `predict` is a break rule's business; `fit`, `save`, ... are not
    forward passes."""
    return method is not None and method not in NOT_FORWARD_METHODS and method not in PREDICT_METHODS


def _custom_gradient_result(result: Value, actuals: dict[int, Value]) -> Value:
    """A `@tf.custom_gradient` function's result: its `grad` replaces what the body recorded, so
    a break inside (the `tf.round` of a straight-through estimator) cuts nothing; what its
    arguments lost before the call stays lost. (A `grad` that mishandles the variables is GG314's.)"""
    before = frozenset(c for value in actuals.values() for c in value.cut)
    inside = frozenset(c for c in result.cut if c not in before)
    if not inside:
        return result
    return evolve(result, live=result.live | {c.grad for c in inside}, cut=result.cut - inside)


def _called_now(callee: Value) -> Value:
    """Something called runs now, under the tapes active now: what it reads from variables is
    recorded here, whenever the object was made (`pruned = prune(model)` before the tape, then
    `pruned(x)` in it). Whether it returns a tensor computed earlier instead, nobody can say: so
    a value that is called is no proof of a forward pass run outside the tape."""
    if not any(g.tapes is not None or g.dropped_at is not None for g in callee.live):
        return callee
    return evolve(callee, live=frozenset(map(recorded_from_here, callee.live)))


def _variables_view(site: Site) -> Value | None:
    """`weights.values()` of a dict of variables, and `list(...)` or `tuple(...)` of variables:
    the same variables, as a list (`list(weights.values()) + list(biases.values())` joins lists)."""
    if site.method == "values" and not site.args and site.receiver is not None and site.receiver.fields:
        held_values = [value for _, value in site.receiver.fields]
        if all(v.kind in (Kind.VARIABLE, Kind.VARIABLES) for v in held_values):
            return Value(kind=Kind.VARIABLES, sources=frozenset().union(*map(variable_origins, held_values)))
    func = site.node.func if isinstance(site.node, ast.Call) else None
    if isinstance(func, ast.Name) and func.id in ("list", "tuple") and len(site.args) == 1 and not site.keywords \
            and site.args[0].kind == Kind.VARIABLES:
        return site.args[0]
    return None
