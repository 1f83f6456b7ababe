"""Objects the engine knows the behaviour of without their code: functions handed to library calls
(called there, by the table in callbacks.py), TF Probability objects that keep references to their
variables, layers built from layers or functions (which they may run), and instances of this
file's plain classes (what their `__init__` sets)."""
from __future__ import annotations

import ast

from ..source.walk import walk
from .binding import bind
from .callbacks import CALLBACKS, GRAPH_LOOPS, VECTORIZED_FALLBACK
from .frame import Frame
from .freshness import free_names
from .library import spelled_constant
from .values import UNKNOWN, Cut, Grad, Kind, LayerEffect, Site, Value, evolve, held, join, maybe, models_reached, variable_origins

# TF Probability objects that hold references to the variables and tensors they are given
# (`_reference_holder`): every class of the library but its Keras layers (distributions, bijectors,
# kernels, linear operators, joint distributions, MCMC kernels); and TensorFlow's linear operators.
TFP_HOLDERS = ("tensorflow_probability.", "tensorflow.linalg.LinearOperator")
NOT_HOLDERS = ("tensorflow_probability.layers.", "tensorflow_probability.python.layers.")
# TF Probability's variables read through a transformation.
TFP_VARIABLES = {"tensorflow_probability.util.TransformedVariable",
                 "tensorflow_probability.python.util.deferred_tensor.TransformedVariable"}


# What a callable value of this file may be that the engine can follow by its summary.
FUNCTION_NODES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)


# Keras layers that run the layers they are built from each time they are called (`TimeDistributed(dense)`,
# `Bidirectional(lstm)`, `RNN(cell)`): the output reads them, as a proof. Another layer given a layer
# may or may not run it (`holding`).
WRAPPER_LAYERS = {"TimeDistributed", "Bidirectional", "RNN", "StackedRNNCells"}


class Objects:
    def _callback_entry(self, site: Site, frame: Frame) -> dict | None:
        """The callbacks table's entry for the called library function (or builtin `map`)."""
        func = site.node.func
        if site.qualname is not None:
            return CALLBACKS.get(site.qualname)
        if isinstance(func, ast.Name) and frame.lookup(func.id) is None and func.id not in self.functions:
            return CALLBACKS.get(func.id)
        return None

    def _library_callback(self, site: Site, entry: dict, frame: Frame) -> Value | None:
        """`tf.map_fn(fn, x)`, `map(fn, xs)`, `tf.while_loop(cond, body, vars)`: what the function
        returns when called with what the library gives it (callbacks.py)."""
        params: list[Value] = []
        for how, position, keyword in entry["receives"]:
            value = _argument(site, position, keyword)
            if value is None and position in entry.get("fallback", {}):
                value = _argument(site, *entry["fallback"][position])
            value = UNKNOWN if value is None else value
            if how == "element":
                params.append(self._element(value))
            elif how == "items":
                params.extend(value.items or (value,))
            else:
                params.append(value)
        if "rest" in entry:
            params.extend(self._element(value) for value in site.args[entry["rest"]:])
        results = []
        # TensorFlow runs what it is given through AutoGraph (`tf.map_fn`'s `float(t)` is a cast)
        converted = (site.qualname or "").startswith("tensorflow.")
        for position, keyword in entry.get("functions") or (entry["function"],):
            function, node = _argument(site, position, keyword), site.arg_node(position, keyword)
            if function is None or node is None:
                return None
            result = self._callback_result(self._function_value(node, function, frame), params, site.node, frame,
                                           converted)
            if result is None:
                return None
            results.append(result)
        value = join(results)
        if entry.get("alternatives") and not frame.in_trace():
            value = self._constant_alternatives(site, entry, value)
        traced_loop = site.qualname in GRAPH_LOOPS and frame.in_trace()
        fallback = VECTORIZED_FALLBACK.get(site.qualname or "", set())
        # What was cut before the loop is cut still: the loop is given a value the tape cannot
        # differentiate (None); a cut its function makes is answered with zeros, no None to claim.
        given = {c.brk for v in site.inputs() for c in v.cut}
        zeros = {c for c in value.cut if (traced_loop or c.brk.code in fallback) and c.brk not in given}
        if zeros:
            value = evolve(value, live=value.live | {c.grad for c in zeros}, cut=value.cut - zeros)
        return self.op(evolve(value, kind=Kind.TENSOR, items=None), site.node, frame)

    def _constant_alternatives(self, site: Site, entry: dict, value: Value) -> Value:
        """`tf.cond(n > 0, lambda: loss, lambda: tf.constant(0.0))`, eagerly: one branch runs, and
        a branch that is a constant loses every gradient the other carries (GG313)."""
        for position, keyword in entry["functions"]:
            node = site.arg_node(position, keyword)
            if isinstance(node, ast.Lambda) and spelled_constant(node.body, self.imports):
                value = self.fall_back(value, node.body, None, site.node)
        return value

    def _callback_result(self, function: Value, params: list[Value], node: ast.Call, frame: Frame,
                         converted: bool = False) -> Value | None:
        """What `function` (a function, lambda or method of this file, or a model) returns for
        `params`, by its summary (`converted`: as AutoGraph runs it); None when that is not known."""
        if function.kind == Kind.MODEL:
            return self.op(join([self._model_output(function, node, frame), *params]), node, frame)
        func = function.func
        if function.kind != Kind.CALLABLE or not isinstance(func, FUNCTION_NODES):
            return None
        cls = self.class_of_function.get(id(func))
        summary = self.summary(func, cls, function.role == "traced" or converted or frame.in_trace())
        if summary is None or summary.kind in (Kind.MODEL, Kind.VARIABLE):
            return None
        offset = self.receiver_offset(func)
        return self.apply_summary(summary, node, {index + offset: v for index, v in enumerate(params)}, frame,
                                  func=func)

    def _called_back(self, site: Site, inputs: list[Value], frame: Frame) -> list[Value]:
        """Functions given to a call the model does not know (`strategy.run(step, args=(x,))`,
        `sorted(xs, key=f)`): it may call them with anything it was given, so each is evaluated
        with every parameter receiving all of that."""
        functions = [v for v in inputs if v.kind == Kind.CALLABLE
                     and isinstance(v.func, FUNCTION_NODES)]
        if not functions:  # (the common case: every ordinary call asks)
            return []
        given = join([v for v in inputs if v.kind != Kind.CALLABLE])
        out = []
        for value in functions:
            result = self._callback_result(value, [given] * len(self._params(value.func)), site.node, frame)
            if result is not None:
                out.append(result)
        return out

    def object_reads(self, value: Value, instances: list[Value], method: str | None, given: list[Value],
                     node: ast.AST) -> Value:
        """`value` and what a method of these objects, not followed, may read: the models and
        variables it is given or they hold (opaquely), the tensors they hold as they were computed.
        `node`: the call of the method, or the attribute read (a property)."""
        held = [held_value for instance in instances for _, held_value in instance.fields or ()]
        # ... and what its methods read of the module or of the function its class was defined in
        # (`return x * w * self.k` with a module's `w`): the method is not followed, so any of it.
        held += [held_value for instance in instances for held_value in self._read_by_methods(instance.func, method)]
        # A plain class's `self` among them (`helper(self)`; read in a class defined in a method): its attributes.
        held += [attribute for v in [*given, *held] if v.role == "self" for attribute in self._attributes_of_self(v)]
        given = [*given, *held]
        models = sorted({model for v in given for model in models_reached(v)}, key=lambda o: o.key)
        held_variables = [origin for held_value in held
                          if held_value.kind in (Kind.VARIABLE, Kind.VARIABLES) for origin in variable_origins(held_value)]
        # A tensor it holds (`self.value = h`) may be what it returns, as computed (before the tape, or cut):
        # the method reaches a model or variable otherwise only through those it holds or reads (opaque).
        held_tensors = {g for held_value in held for g in held_value.live}
        held_cuts = {c for held_value in held for c in held_value.cut}
        call = node if isinstance(node, ast.Call) else None
        if not (models or held_variables or held_tensors or held_cuts) or call is not None and _constructs(call):
            return value  # (a class given a model builds an object that holds it, not a prediction)
        span = self.doc.span(node)
        opaque = {Grad(model, span, None, bootstrap=call is not None and self._bootstrap_call(call), opaque=True)
                  for model in models}
        opaque |= {Grad(origin, span, None, opaque=True) for origin in held_variables}  # read by the method, or not
        return evolve(value, live=value.live | opaque | held_tensors, cut=value.cut | held_cuts)

    def _read_by_methods(self, cls: ast.AST | None, method: str | None) -> list[Value]:
        """The values of the free names a class's method may read (`method`'s if the class
        defines it, else every method's, an inherited one among them), where the class was
        defined: the module's, or those of the function it was defined in."""
        if not isinstance(cls, ast.ClassDef):
            return []
        methods = [m for m in cls.body if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef))]
        own = [m for m in methods if m.name == method]
        reads = set().union(*(free_names(m) for m in own or self._methods_up_from(cls)))
        frame = self._closure_of(cls, None)  # (a class's: where its statement ran)
        return [value for name in sorted(reads) if (value := frame.lookup(name)) is not None]

    def _attributes_of_self(self, value: Value) -> list[Value]:
        """What the methods of the class whose `self` this is set on it (`self.w = tf.Variable(...)`)."""
        info = self.class_infos.get(id(value.func))
        if info is None:
            return []
        self.ensure_attributes(info)
        return list(info.attrs.values())

    def _methods_up_from(self, cls: ast.ClassDef) -> list[ast.AST]:
        """The methods of `cls` and of the classes of this file it derives from, by name."""
        return [m for node in self.classes_up_from(cls) for m in node.body
                if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef))]

    def classes_up_from(self, cls: ast.ClassDef) -> list[ast.ClassDef]:
        """`cls` and the classes of this file it derives from, by name, each once."""
        found, seen, todo = [], set(), [cls]
        while todo:
            node = todo.pop()
            if id(node) in seen:
                continue
            seen.add(id(node))
            found.append(node)
            todo += [self.classes[base.id].node for base in node.bases
                     if isinstance(base, ast.Name) and base.id in self.classes]
        return found

    def _instance(self, info, site: Site) -> Value:
        """`agent = Agent(env)`, a plain class of this file: the object holds what its `__init__`
        sets on `self` (`self.net = keras.Sequential(...)`), each model or variable its own per
        instantiation, so `agent.net(x)` is that model and `agent.net.trainable_variables` its
        variables. `func` is its class: a method that never reads `self` is called as the function
        it is (`helper.apply(t)`, calls.py `_callee_attribute`); the others are not followed here:
        calling one reads all the object holds (calls.py, `_maybe_uses_models`)."""
        init = next((m for m in info.node.body if isinstance(m, ast.FunctionDef) and m.name == "__init__"), None)
        if id(info) in self.instantiating:
            return UNKNOWN
        if init is None:
            return Value(fields=(), role="instance", func=info.node)
        frame = self._run_init(info, init, site, Frame({}, self.module, init, summary=True))
        span = self.doc.span(site.node)
        fields, renamed = [], {}
        for key, value in frame.env.items():
            attr = key.removeprefix("self.")
            if attr == key or "." in attr:
                continue
            if value.kind in (Kind.MODEL, Kind.VARIABLE) and value.model is not None \
                    and value.model.key.startswith("__init__:"):  # made here: this object's own
                renamed[value.model] = evolve(value.model, name=f"{info.node.name}().{attr}",
                                              key=f"instance:{span.line}:{span.col}.{attr}")
                value = evolve(value, model=renamed[value.model])
            fields.append((attr, value))
        # Its own functions (`self.act = lambda x: x * self.w`) read this object's, not another's.
        rename_in(frame, renamed)
        fields = [(attr, evolve(value, closure=frame) if value.kind == Kind.CALLABLE and value.func is not None
                   and self.closures.get(id(value.func)) is frame else value) for attr, value in fields]
        return Value(kind=Kind.UNKNOWN, fields=tuple(fields), role="instance", func=info.node)

    def computed_at_construction(self, info, site: Site, frame: Frame) -> tuple | None:
        """`MyModule(phi)`, a model class of this file given what carries a gradient: the tensors
        its `__init__` computes from that and keeps on `self` (`self.weights_ = tf.exp(phi)`),
        as computed there and then, under the tapes active at the construction. Its methods may
        return them: a tensor computed before the tape stays unrecorded."""
        given = [*site.args, *site.keywords.values()]
        if not any(v.live or v.cut for v in given) or id(info) in self.instantiating:
            return None
        init = next((m for m in info.node.body if isinstance(m, ast.FunctionDef) and m.name == "__init__"), None)
        if init is None:
            # An `__init__` the class binds otherwise (imported, assigned) may keep anything it is given.
            bound = any(isinstance(n, ast.Name) and n.id == "__init__" and not isinstance(n.ctx, ast.Load)
                        or isinstance(n, ast.alias) and (n.asname or n.name) == "__init__"
                        for statement in info.node.body for n in ast.walk(statement))
            return (("__init__", maybe(join(given), given, self.doc.span(site.node))),) if bound else None
        run = self._run_init(info, init, site, Frame({}, self.module, init, tapes=frame.tapes))
        held_values = tuple((key.removeprefix("self."), value) for key, value in run.env.items()
                            if key.startswith("self.") and "." not in key[5:] and (value.live or value.cut)
                            and value.kind not in (Kind.MODEL, Kind.VARIABLE, Kind.VARIABLES))
        return held_values or None

    def _run_init(self, info, init: ast.FunctionDef, site: Site, frame: Frame) -> Frame:
        """`frame` (of `init`, with no class: the attributes it sets are this object's) after
        `__init__` ran with the call's arguments (`self` not given; a parameter given nothing is
        unknown, not a module name of the same name)."""
        params = self._params(init)
        nodes = site.node.args if isinstance(site.node, ast.Call) and len(site.node.args) == len(site.args) else None
        actuals = bind(init.args, params, site.args, nodes, site.keywords, 1)
        for index, param in enumerate(params[1:], start=1):
            frame.env[param.arg] = actuals.get(index, UNKNOWN)
        self.instantiating.add(id(info))
        try:
            self.exec_block(init.body, frame)
        finally:
            self.instantiating.discard(id(info))
        return frame

    def function_made(self, func: ast.AST, cls, actuals: dict[int, Value], closure: Frame, traced: bool) -> Value | None:
        """`loss_fn = make_loss_fn(model)`, `func` a function of this file whose summary returns a
        function it defines: that function, closing over a frame of this call. The body runs
        again with the call's arguments, as a class's `__init__` does for an object (`_instance`),
        so `loss_fn(x)` reads the `model` it was given, not `make_loss_fn`'s parameter; each call
        makes its own function. None when the body returns anything else."""
        frame, defined = self.run_with(func, cls, actuals, closure, traced)
        made = frame.returns[0] if frame is not None and frame.returns else None
        if made is None or made.kind != Kind.CALLABLE or not isinstance(made.func, FUNCTION_NODES) \
                or made.closure is not None or id(made.func) not in defined \
                or any(r.func is not made.func for r in frame.returns):
            return None
        return evolve(made, closure=frame)

    def run_with(self, func: ast.AST, cls, actuals: dict[int, Value], closure: Frame,
                 traced: bool = False) -> tuple[Frame | None, frozenset[int]]:
        """The frame of `func`'s body run with these arguments (what it returns: `frame.returns`),
        and the functions it defined there (by id); no frame for a function already running so (it
        calls itself: its summary stands). What the run defines is its value's alone: the engine's
        closures are as they were after it."""
        if id(func) in self.instantiating:
            return None, frozenset()
        frame = Frame({}, closure, func, cls=cls, summary=True, traced=traced)
        for index, param in enumerate(self._params(func)):
            if index == 0 and cls is not None and param.arg == "self":
                frame.env[param.arg] = self._self_value(cls)
            else:  # (a parameter the call does not give stays the summary's: read opaquely)
                frame.env[param.arg] = actuals.get(index) or self.param_value(param, index)
        kept_closures, kept_mutations = dict(self.closures), self.mutations.get(id(func))
        self.instantiating.add(id(func))
        try:
            if isinstance(func, ast.Lambda):
                frame.returns.append(self.eval(func.body, frame))
            else:
                self.exec_block(func.body, frame)
            return frame, frozenset(key for key, defined_in in self.closures.items() if defined_in is frame)
        finally:
            self.instantiating.discard(id(func))
            self.closures.clear()
            self.closures.update(kept_closures)  # (the def ran again here: its frame is the value's alone)
            if kept_mutations is not None:
                self.mutations[id(func)] = kept_mutations
            else:
                self.mutations.pop(id(func), None)

    def holding(self, site: Site, frame: Frame, effect: LayerEffect | None) -> LayerEffect | None:
        """A layer built from layers or functions (`TimeDistributed(dense)`, `Bidirectional(lstm)`,
        a flow given its `network`) may run them when it is called: its output may depend on
        them. Opaquely (no proof of a read) but for the wrappers Keras documents to run them."""
        inputs = site.inputs()
        maybe = {g for v in inputs if v.kind == Kind.UNKNOWN for g in v.live if g.opaque}  # (a model, or not)
        if not maybe and not any(v.kind in (Kind.MODEL, Kind.CALLABLE) for v in inputs):
            return effect  # (the common case: `Dense(64, activation="relu")`)
        span = self.doc.span(site.node)
        held = {o for v in inputs if v.kind == Kind.MODEL
                for o in ({v.model} if v.model is not None else set()) | set(v.sources)}
        runs = (site.qualname or "").startswith("keras.layers.") and site.qualname.rsplit(".", 1)[-1] in WRAPPER_LAYERS
        reads = {Grad(o, span, None, opaque=not runs) for o in held} | maybe
        cuts: set[Cut] = set()
        for result in self._called_back(site, inputs, frame):  # (a function it is given: called with its input)
            reads |= result.live
            cuts |= result.cut
        if not reads and not cuts:
            return effect
        effect = effect or LayerEffect(name=(site.qualname or "").rsplit(".", 1)[-1])
        return evolve(effect, reads=effect.reads | frozenset(reads), reads_cut=effect.reads_cut | frozenset(cuts))

    def _reference_holder(self, site: Site, frame: Frame) -> Value:
        """A TF Probability distribution, bijector or kernel keeps a reference to the variables it
        is given and reads them each time it is evaluated: built before the tape and evaluated in
        it, it is recorded. What it is given already computed (`loc * 2.0` before the tape) stays
        what it was: an operation the tape did not see."""
        inputs = site.inputs()
        # A function it is given (`DeferredModule(build_fn, *args)`) runs at each use: what it reads is held.
        later = Frame({}, frame, frame.function, cls=frame.cls, summary=True)  # (records no op here)
        held = join([v for v in inputs if _kept_by_reference(v)] + self._called_back(site, inputs, later))
        computed = self.op(join([v for v in inputs if not _kept_by_reference(v)]), site.node, frame)
        fields = _references(site, inputs)
        variables = _held_variables(inputs)
        if variables is not None:
            fields = tuple((n, v) for n, v in fields if n != HELD_VARIABLES) + (
                (HELD_VARIABLES, Value(kind=Kind.VARIABLES, sources=variables)),)
        return Value(held.live | computed.live, held.cut | computed.cut, Kind.TENSOR, role="holder", fields=fields)

    def evaluated_holder(self, site: Site, frame: Frame) -> list[Value]:
        """`dist.log_prob(x)`: the names the object was built from, as they are now (`tape.watch(mean)`
        after `Beta(mean, variance)` makes `mean` watched: TensorFlow sees the op read it)."""
        if not evaluates_holder(site):
            return []
        return [now for name, _ in site.receiver.fields or () if (now := frame.lookup(name)) is not None]


# The entry of a TF Probability object's `fields` that lists the variables it was built from,
# when every argument is understood (not a name: no argument is bound to it).
HELD_VARIABLES = "<variables>"


def rename_in(frame: Frame, renamed: dict) -> None:
    """What `frame` binds to the origins in `renamed` (old → new), bound to the new ones."""
    if renamed:
        for name, value in frame.env.items():
            if value.model in renamed:
                frame.env[name] = evolve(value, model=renamed[value.model])


def _constructs(call: ast.Call) -> bool:
    """`GaussianActor(...)`, `agents.DdpgAgent(...)`: a class (named in CapWords) makes an object."""
    func = call.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
    return name[:1].isupper()


def holder_variables(value: Value) -> Value | None:
    """`dist.trainable_variables` of a TF Probability object (a `tf.Module`, which tracks the
    variables it keeps a reference to): the variables it was built from and those of the objects
    it was built from, when each of its arguments is known to be a variable, such an object, or no
    variable at all (a constant, a computed tensor); None when any might hold a variable unseen."""
    if value.role != "holder":
        return None
    entry = held(value, HELD_VARIABLES)
    return entry if entry is not None and entry.sources else None


def _held_variables(inputs: list[Value]) -> frozenset | None:
    origins: set = set()
    for value in inputs:
        if value.kind == Kind.VARIABLE:
            if value.model is None or not value.model.key or value.watched:
                return None  # a variable made in the call, or one the model cannot name
            origins.add(value.model)
        elif value.role == "holder":
            entry = held(value, HELD_VARIABLES)
            if entry is None:
                return None
            origins |= entry.sources
        elif value.items is not None:  # `components=[...]`
            inner = _held_variables(list(value.items))
            if inner is None:
                return None
            origins |= inner
        elif not (value.kind in (Kind.TENSOR, Kind.NUMPY) or value.constant is not None):
            return None  # a parameter, a callable, an unknown object: it may hold variables
    return frozenset(origins)


def evaluates_holder(site: Site) -> bool:
    """`dist.log_prob(x)`: a method of a TF Probability object that computes with it (`copy` makes
    another object on the same references)."""
    return site.receiver is not None and site.receiver.role == "holder" and site.method != "copy"


def self_free_method(cls: ast.AST | None, name: str) -> ast.FunctionDef | None:
    """The method `name` that class `cls` defines in its own body, when its result cannot depend on
    the object: a static method, or a plain method (no decorator) that never reads its `self` and
    never calls `super()`. Which object it is called on does not matter then."""
    if not isinstance(cls, ast.ClassDef):
        return None
    method = next((m for m in cls.body if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef)) and m.name == name), None)
    if not isinstance(method, ast.FunctionDef):
        return None
    decorators = [ast.unparse(d) for d in method.decorator_list]
    if decorators == ["staticmethod"]:
        return method
    params = method.args.posonlyargs + method.args.args
    if decorators or not params or params[0].arg != "self":
        return None
    reads = {n.id for n in walk(method) if isinstance(n, ast.Name)}
    return None if "self" in reads or "super" in reads or "__class__" in reads else method


def _kept_by_reference(value: Value) -> bool:
    """A variable, a TF Probability object, or a container of them (`components=[...]`, the pairs of
    an `OrderedDict`): what such an object keeps a reference to, not a value computed when it is
    built."""
    if value.kind == Kind.VARIABLE or value.role == "holder":
        return True
    return bool(value.items) and refers(value) \
        and all(_kept_by_reference(i) or not (i.live or i.cut) for i in value.items)


def refers(value: Value) -> bool:
    """The value is, or contains, a TF Probability object."""
    return value.role == "holder" or bool(value.items) and any(map(refers, value.items))


def _references(site: Site, inputs: list[Value]) -> tuple:
    """The names a TF Probability object is built from (`Beta(mean, variance)`), and those of the
    objects it is built from: read again each time it is evaluated."""
    names = [(node.id, UNKNOWN) for node in [*site.node.args, *(k.value for k in site.node.keywords)]
             if isinstance(node, ast.Name)]
    for value in inputs:
        if value.role == "holder":
            names.extend(value.fields or ())
    return tuple(dict(names).items())


def _argument(site: Site, position: int, keyword: str | None) -> Value | None:
    if keyword is not None and keyword in site.keywords:
        return site.keywords[keyword]
    return site.args[position] if position < len(site.args) else None
