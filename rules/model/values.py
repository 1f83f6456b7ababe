"""The abstract values of the gradient data-flow model.

A `Value` says, for one expression, which trainable things it depends on *differentiably*
(`live`) and which dependencies were cut on the way (`cut`, each with the `Break` that cut it).
A `Grad` also remembers which gradient tapes recorded every operation since its origin, so the
model knows whether `tape.gradient` can see it.
"""
from __future__ import annotations

import ast
import enum
from dataclasses import dataclass, field

from ..diagnostics import Span


class Kind(enum.Enum):
    UNKNOWN = "unknown"
    TENSOR = "tensor"          # a TensorFlow tensor with no trainable origin of its own
    NUMPY = "numpy"            # a numpy array or Python scalar computed outside TensorFlow
    NUMBER = "number"
    MODEL = "model"            # a Keras model or layer: calling it makes a gradient origin
    VARIABLE = "variable"      # a tf.Variable / add_weight result
    VARIABLES = "variables"    # model.trainable_variables and lists of variables
    TAPE = "tape"
    OPTIMIZER = "optimizer"
    GRADS = "grads"            # the list returned by tape.gradient
    CALLABLE = "callable"      # a function or lambda defined in this file
    METRIC = "metric"          # a `keras.metrics.*` object: calling it accumulates into its state variables


class OriginKind(str, enum.Enum):
    """What an origin stands for."""

    MODEL = "model"        # a Keras model or layer: its trainable variables
    VARIABLE = "variable"  # one tf.Variable
    Y_PRED = "y_pred"      # the prediction a loss function is given
    WATCHED = "watched"    # a tensor passed to tape.watch
    PARAM = "param"        # a parameter of a function being summarised (replaced at each call)
    NEW = "new"            # just constructed, named by the assignment that binds it


@dataclass(unsafe_hash=True)
class Origin:
    """Something whose trainable variables a loss can depend on."""

    kind: OriginKind
    name: str   # as the user wrote it: "model", "self.q_net", "w"
    key: str    # identity across the file
    span: Span | None = field(default=None, compare=False)
    integer: bool = field(default=False, compare=False)  # an integer tf.Variable: never differentiable
    guessed: bool = field(default=False, compare=False)  # taken for a model only from its name (conventions.py)
    index: int = -1     # parameter index, for OriginKind.PARAM (function summaries)
    # Some of a model's layers: those before a layer that cuts its input ("before `Lambda`"); the
    # sink asking for the whole model's variables (key `part_of`) asks for theirs too.
    part: str | None = field(default=None, compare=False)
    part_of: str | None = None

    def describe(self) -> str:
        if self.part is not None:
            return f"output of the layers of `{self.name}` {self.part}"
        return {
            OriginKind.MODEL: f"output of `{self.name}`",
            OriginKind.VARIABLE: f"depends on the variable `{self.name}`",
            OriginKind.Y_PRED: "the model's prediction",
            OriginKind.WATCHED: f"depends on the watched `{self.name}`",
        }.get(self.kind, f"depends on `{self.name}`")

    def variables_text(self) -> str:
        if self.kind is OriginKind.MODEL:
            return f"{self.name}.trainable_variables"
        return self.name


@dataclass(unsafe_hash=True)
class Grad:
    origin: Origin
    site: Span                        # the model call or variable read that started the dependency
    tapes: frozenset[str] | None      # tapes that recorded every op since; None: no op yet
    dropped_at: Span | None = None    # first op that ran outside a tape recording it
    bootstrap: bool = False           # the model was called on next states (a TD target)
    # The model's variables read directly (`tf.nn.l2_loss(v) for v in model.trainable_variables`):
    # a weight penalty, not the model's prediction.
    weights: bool = False
    # A model handed to a function this analysis cannot see (`compute_loss(model, batch)`): the
    # result may depend on it. Enough to say the loss uses the model; never enough to report a break.
    opaque: bool = False


@dataclass(unsafe_hash=True)
class Break:
    """A non-differentiable step: `.numpy()`, `np.mean`, `tf.round`, `tf.stop_gradient`, ..."""

    code: str
    span: Span
    label: str                        # "`.numpy()`", "`np.round`"
    value_text: str                   # the expression that went through it, for messages
    node: ast.AST = field(compare=False, hash=False, repr=False)
    via: Span | None = None           # the call of a helper function whose body breaks
    path: str | None = None           # the helper's file, when it is another module
    deliberate: bool = False          # a cut made on purpose (`tf.stop_gradient`), not an accident
    inside: str | None = None         # the layer whose `call` breaks, for messages: "`QuantizedDense.call`"
    raises: bool = False              # no gradient registered at all: `tape.gradient` raises LookupError
    # The break as it is inside the layer, before a call of the layer reported it at the call.
    inner: "Break | None" = field(default=None, compare=False, repr=False)

    @property
    def name(self) -> str:
        """The label without what the step does: "`tf.floor`, which has no gradient" → "`tf.floor`"
        (notes, the lens and the parts of a model name breaks so)."""
        return self.label.split(", which", 1)[0]


@dataclass(unsafe_hash=True)
class LayerEffect:
    """What calling a layer or model does to the gradient, as far as this file shows: the break
    every path from its (first) input goes through, the break every path from its own weights
    goes through, and whether it is known to have no weights at all (`Flatten`, `Dropout`)."""

    input_cut: Break | None = None
    weights_cut: Break | None = None
    weightless: bool = False
    name: str = ""                     # the layer, for messages: "QuantizedDense", "Lambda"
    # Some of its layers lose their gradient while others still train (a `Sequential` with a
    # cut in the middle): the break, and which layers ("before `Lambda`").
    some_cut: Break | None = None
    part: str = ""
    layers: tuple["LayerEffect", ...] | None = None  # a `Sequential`'s layers so far (`model.add`)
    dead: frozenset[Origin] = frozenset()  # inner models its break cuts (`seg_net` behind an argmax)
    contains: frozenset[Origin] = frozenset()  # inner models that still train through it (`generator`)
    origin: Origin | None = None  # as one layer of a `Sequential`: which model it is
    # A functional model with several outputs (`keras.Model(x, [action, critic])`): for each
    # output, the layers of the model that reach it, so a loss built from one output leaves the
    # layers only the others reach without a gradient.
    outputs: tuple[frozenset[Origin], ...] | None = None
    # A subclassed model's sub-layers (and theirs) that reach none of its outputs: the pooler of
    # a BERT layer whose `call` drops it (`self.bert(x)[0]`). Asked for, they get no gradient.
    hidden: frozenset[Origin] = frozenset()
    # An op with no registered gradient that its input (its weights) goes through, whatever else does.
    input_raises: Break | None = None
    weights_raises: Break | None = None
    # It holds non-trainable variables (`BatchNormalization`'s moving statistics): `.variables` and
    # `.weights` list them, and no loss has a gradient for them.
    stateful: bool = False
    # Where it (or one of its layers) declares a regularization loss (`kernel_regularizer=...`,
    # `self.add_loss(...)`): Keras keeps the term in `model.losses`, which only `fit`'s own loss
    # and `compute_loss` add; a hand-written loss must add it itself (GG311).
    regularized: Span | None = None
    regularized_in: str | None = None  # the module `regularized` is in, when it is another one
    # What its `call` computes with that is neither its input nor its own weights: a variable or
    # model of the module, or of the function the class is defined in (`return x * w`), as the
    # summary of `call` reaches it (live) or loses it (cut).
    reads: frozenset["Grad"] = frozenset()
    reads_cut: frozenset["Cut"] = frozenset()
    # `Lambda(binarize)`: the file's function it runs (a CALLABLE value), which a call of the layer
    # on given inputs follows as a call of that function, element by element of a list it is given.
    runs: object = field(default=None, compare=False, hash=False, repr=False)


NO_EFFECT = LayerEffect()


@dataclass(unsafe_hash=True)
class Cut:
    brk: Break
    grad: Grad


@dataclass(unsafe_hash=True)
class Value:
    live: frozenset[Grad] = frozenset()
    cut: frozenset[Cut] = frozenset()
    kind: Kind = Kind.UNKNOWN
    model: Origin | None = None                 # Kind.MODEL / VARIABLE: the origin it stands for
    sources: frozenset[Origin] = frozenset()    # Kind.VARIABLES: whose variables these are
    func: object | None = None                  # Kind.CALLABLE: the ast function or lambda
    items: tuple["Value", ...] | None = None    # a tuple literal, for unpacking
    tape: object | None = None                  # Kind.TAPE: the TapeInfo
    keras3: bool = False                        # Kind.OPTIMIZER: a Keras 3 optimizer (no minimize)
    watched: bool = False                       # passed to tape.watch
    # Kind.MODEL: what calling it cuts, when the file shows it; Kind.VARIABLES from `model.variables`:
    # the model's, to tell whether the list holds non-trainable variables.
    effect: LayerEffect | None = None
    # What the value is to an actor-critic loss: "log" (a log-probability), ("advantage", node)
    # (`ret - value`: a constant minus the prediction at `node`), or "zip" (`zip(a, b)`: `items`
    # are the elements of each iterable, for `for x, y in zip(...)`).
    role: object | None = None
    # A dict literal with string keys (`{"mean": m.numpy(), "log_std": s.numpy()}`): each key's
    # value, so `d["log_std"]` depends on what that key holds, not on the whole dict.
    fields: tuple[tuple[str, "Value"], ...] | None = None
    # A constant the file spells (`"int32"`, `3`, `True`), or the qualified name of a library
    # constant (`"tensorflow.int32"` for `tf.int32`): followed through names, module globals and
    # dict entries, so a rule sees `tf.cast(x, DTYPE)` as the cast it is.
    constant: object = None
    # A list or tuple written out and bound to a name (`params = [w, target_net]`): the element
    # expressions, so that `tape.gradient(loss, params)` can judge each name as it is then.
    elements: tuple | None = None
    # Constant fallbacks on the way (`else: loss = tf.constant(0.0)`, GG313): pairs of a key (the
    # span of the constant, or that span and the calls that returned it, `through`) and the
    # gradients of `live` that the path through it loses. Recorded as what is
    # lost, not what remains, so that a path added later (`tape.watch`) is never taken for lost.
    vanish: frozenset = frozenset()
    # Kind.CALLABLE: the frame it closes over, when that is not the one `Engine.closures` keeps for
    # its node: a lambda an object's `__init__` stores on `self` reads that object's attributes,
    # one frame per instantiation (objects.py, `_instance`).
    closure: object = field(default=None, compare=False, repr=False)

    def with_kind(self, kind: Kind) -> "Value":
        return self if kind == self.kind else evolve(self, kind=kind)

    @property
    def carries_gradient(self) -> bool:
        return bool(self.live)


UNKNOWN = Value()


def evolve(obj, **changes):
    """`dataclasses.replace` for the value classes of this module, without its per-call field
    inspection and `__init__` (they have no `__post_init__`): the engine copies values tens of
    thousands of times per file, and `replace` was a tenth of its time."""
    assert changes.keys() <= obj.__dataclass_fields__.keys(), changes.keys()
    new = object.__new__(type(obj))
    new.__dict__.update(obj.__dict__)
    new.__dict__.update(changes)
    return new


def join(values, kind: Kind | None = None) -> Value:
    """The value of an expression that depends on all of `values` (e.g. `a + b`)."""
    live: set[Grad] = set()
    cut: set[Cut] = set()
    kinds = set()
    sources: set[Origin] = set()
    fallbacks = None  # the values, kept only when one of them has a fallback (seldom)
    for value in values:
        live |= value.live
        cut |= value.cut
        kinds.add(value.kind)
        sources |= value.sources
        if value.kind == Kind.MODEL and value.model is not None:
            sources.add(value.model)  # (`a if c else b`, `[unknown, model]`: one of them, each still itself)
        if value.vanish and fallbacks is None:
            fallbacks = values
    if kind is None:
        kind = kinds.pop() if len(kinds) == 1 else (Kind.TENSOR if Kind.TENSOR in kinds else Kind.UNKNOWN)
    joined = Value(frozenset(live), frozenset(cut), kind, sources=frozenset(sources))
    if fallbacks is not None:
        return evolve(joined, vanish=_joined_vanish(fallbacks, joined.live))
    return joined


def _joined_vanish(values, live: frozenset) -> frozenset:
    """On the path through each fallback, what the join loses: its gradients that no joined value
    keeps on that path (`class_loss + bbox_loss` loses only what `bbox_loss` alone carried)."""
    out = set()
    for span in {span for value in values for span, _ in value.vanish}:
        kept = set()  # paths, by origin and start: the tapes that record a path are stamped on the way
        for value in values:
            lost = {(g.origin, g.site) for g in next((grads for where, grads in value.vanish if where == span), ())}
            kept |= {(g.origin, g.site) for g in value.live} - lost
        if lost := frozenset(g for g in live if (g.origin, g.site) not in kept):
            out.add((span, lost))
    return frozenset(out)


def maybe(value: Value, given: list[Value], site: Span) -> Value:
    """What a function nobody can see returns, computed from `value` (what it was `given` joined):
    it may depend on everything that carries and on every model and variable it was given, at any
    depth, and is proof of nothing (not that a gradient flows, nor of what kind of object it is).
    Its paths are opaque: enough to say a loss uses a model, never to report a break, an unrecorded
    path, or an unstopped one. What was cut before the call stays cut."""
    live = {g if g.opaque else evolve(g, opaque=True) for g in value.live}
    live |= {g if g.opaque else evolve(g, opaque=True) for v in given for g in held_paths(v)}
    live |= {Grad(origin, site, None, opaque=True) for v in given for origin in trainables_reached(v)}
    return Value(frozenset(live), value.cut, Kind.UNKNOWN, vanish=value.vanish)


def _within(value: Value, depth: int = 4):
    """What a value holds, at any depth (to `depth`): its elements and fields, theirs, ..."""
    if depth:
        for item in (*(value.items or ()), *(held_value for _, held_value in value.fields or ())):
            yield item
            yield from _within(item, depth - 1)


def held_paths(value: Value) -> frozenset[Grad]:
    """The gradient paths of what a value holds, at any depth: its elements' and fields' (a
    model's tensors its `__init__` computed: `MyModule(phi)`'s `self.weights_`)."""
    return frozenset(g for item in _within(value) for g in item.live)


def trainables_reached(value: Value) -> frozenset[Origin]:
    """The models and variables a value hands to whoever is given it: `models_reached`, and the
    variables it is or holds."""
    return frozenset(origin for item in (value, *_within(value))
                     for origin in (*_own_models(item), *variable_origins(item)))


def recorded_from_here(grad: Grad) -> Grad:
    """`grad` as if its dependency started here: no op recorded or dropped yet, so the tapes active
    at the next op decide (something called runs now; a penalty Keras adds to a compiled loss)."""
    return evolve(grad, tapes=None, dropped_at=None)


def through(key, call) -> tuple:
    """A fallback's key (`Value.vanish`) once a call of the function it is in returns it: the
    constant's span, then the calls on the way, innermost first."""
    return (key if isinstance(key, tuple) else (key,)) + (call,)


def fallback_span(key):
    """The constant's span of a `Value.vanish` key."""
    return key[0] if isinstance(key, tuple) else key


def with_fallback(value: Value, span, constant: Value) -> Value:
    """`value` where, on the path through the constant at `span`, it is `constant` instead: every
    gradient it carries that the constant does not is lost on that path."""
    lost = value.live - constant.live
    return evolve(value, vanish=value.vanish | {(span, frozenset(lost))}) if lost else value


def held(value: Value, name: str) -> Value | None:
    """What a dict literal holds under a key, or an object under an attribute (`Value.fields`).
    An object's attribute that `__init__` left as nothing known (`self.net = None`, set later by
    another method) is not what the object holds later: None, as for an attribute never set."""
    entry = next((held for key, held in value.fields or () if key == name), None)
    if entry is not None and value.role == "instance" and entry.kind == Kind.UNKNOWN \
            and not (entry.live or entry.cut or entry.fields):
        return None
    return entry


def models_reached(value: Value) -> frozenset[Origin]:
    """The models a value hands to whoever is given it: itself, the models it stands for (one of
    several: `m` of `for m in [actor, critic]`), and those its elements and fields hold, at any
    depth (`run_all([tower_a, tower_b], x)`, `{"net": model}`)."""
    return frozenset(origin for item in (value, *_within(value)) for origin in _own_models(item))


def _own_models(value: Value) -> frozenset[Origin]:
    """The models a value is: a model (or a method of one: `module.apply` handed on), or one of
    several (a join of models, with what is not one too)."""
    if value.kind not in (Kind.MODEL, Kind.UNKNOWN):
        return frozenset()
    return value.sources | ({value.model} if value.model is not None else set())


def variable_origins(value: Value) -> frozenset[Origin]:
    """Whose variables a variable value (one variable, or a list of them) stands for."""
    if value.kind == Kind.VARIABLE and value.model is not None:
        return frozenset({value.model}) | value.sources
    return value.sources


def cut_by(value: Value, brk: Break, absorb: bool = False) -> Value:
    """`value` after a non-differentiable step: its live dependencies become cut ones (and, when
    the step `absorb`s, so do the cuts made before it)."""
    cuts = frozenset(Cut(brk, grad) for grad in value.live)
    if absorb:
        return Value(frozenset(), cuts | {Cut(brk, cut.grad) for cut in value.cut}, Kind.NUMPY)
    return Value(frozenset(), value.cut | cuts, Kind.NUMPY)


@dataclass(eq=False, repr=False)
class Site:
    """A call or comparison as the engine sees it, for `BreakRule.match`."""

    node: ast.AST
    qualname: str | None = None        # resolved callee, e.g. "numpy.mean", "tensorflow.round"
    method: str | None = None          # `x.numpy()` → "numpy"
    receiver: Value | None = None      # the value of `x` in `x.method(...)`
    args: list[Value] = field(default_factory=list)
    keywords: dict[str, Value] = field(default_factory=dict)
    doc: object = None                 # the Document
    output: str | None = None          # one output of a tuple-returning call: "indices" of `tf.math.top_k`
    traced: bool = False               # inside a function `tf.function` traces: AutoGraph converts builtins
    callee: Value | None = None        # what is called, when the engine knows (a function of the file)

    def inputs(self) -> list[Value]:
        values = list(self.args) + list(self.keywords.values())
        if self.receiver is not None:
            values.insert(0, self.receiver)
        return values

    def constant(self, index: int, keyword: str | None = None) -> object:
        """The constant the argument holds (`Value.constant`), or None."""
        if keyword is not None and keyword in self.keywords:
            return self.keywords[keyword].constant
        return self.args[index].constant if index < len(self.args) else None

    def keyword_node(self, name: str) -> ast.AST | None:
        if isinstance(self.node, ast.Call):
            for keyword in self.node.keywords:
                if keyword.arg == name:
                    return keyword.value
        return None

    def arg_node(self, index: int, keyword: str | None = None) -> ast.AST | None:
        if keyword and (node := self.keyword_node(keyword)) is not None:
            return node
        if isinstance(self.node, ast.Call) and index < len(self.node.args):
            return self.node.args[index]
        return None
