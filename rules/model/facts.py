"""What one analysis finds: the facts rules query, each recorded once where the interpreter meets it.

Loops are walked twice (values flow around them once), so the interpreter meets most statements
twice; the `record_*` methods keep one fact per syntax node, and a rule never deduplicates.
"""
from __future__ import annotations

import ast
import enum
from dataclasses import dataclass, field

from ..diagnostics import Span
from ..source.document import Document
from .values import Kind, Origin, OriginKind, Value


class SinkKind(enum.Enum):
    GRADIENT = "gradient"            # tape.gradient / jacobian / batch_jacobian
    LOSS_FUNCTION = "loss-function"  # what a loss given to `compile` (or a keras.losses.Loss) returns
    COMPUTE_LOSS = "compute-loss"    # `self.compute_loss(x, y, y_pred)` in a train_step
    MINIMIZE = "minimize"            # `optimizer.minimize(loss_fn, var_list)`
    FIT = "fit"                      # `model.fit(...)`: Keras differentiates the compiled loss for the model


@dataclass(eq=False, repr=False)
class TapeInfo:
    id: str
    name: str
    persistent: bool
    with_node: ast.With | None        # None: the tape `optimizer.minimize(loss_fn)` opens around `loss_fn`
    call_node: ast.Call | None
    gradient_calls: list[ast.Call] = field(default_factory=list)  # each call once, in the order met
    watches_untracked: bool = False   # `watch` was given something the model cannot follow by name

    def record_gradient_call(self, call: ast.Call) -> None:
        if not any(known is call for known in self.gradient_calls):
            self.gradient_calls.append(call)


@dataclass(eq=False, repr=False)
class SourceItem:
    """One entry of the variables `tape.gradient` is asked about."""

    node: ast.AST
    value: Value
    origins: frozenset[Origin]
    # An element of a list bound to a name before (`params = [x, target_net]`): `node` is the name.
    element: bool = False


@dataclass(eq=False, repr=False)
class Sink:
    """A value something differentiates: the loss of a `tape.gradient`, `minimize` or loss function."""

    kind: SinkKind
    node: ast.AST                     # the call (or the loss function's definition)
    target_node: ast.AST
    target: Value
    sources: list[SourceItem] | None  # None: whatever the target depends on
    tape: TapeInfo | None
    callee: str                       # the call as written, shortened (`tape.gradient`); a loss function's name
    function: ast.AST | None = None   # the function the sink is in
    source_node: ast.AST | None = None  # the sources (var_list) argument as written
    guessed_tape: bool = False        # the receiver is taken for a GradientTape only from its name
    # The call of the sink's function whose arguments this sink is computed from (see
    # `Sinks.replay_call`): `train_step(logits, labels)`, where `logits` came from the model.
    call_site: ast.Call | None = None

    @property
    def named(self) -> str:
        """How messages name the sink: "`tape.gradient`", or "the loss `huber`"."""
        if self.kind is SinkKind.LOSS_FUNCTION:
            return f"the loss `{self.callee}`"
        return f"`{self.callee}`"

    @property
    def label(self) -> str:
        """The sink's name with its line: "`tape.gradient` on line 24"."""
        if self.kind is SinkKind.LOSS_FUNCTION:
            return self.named
        return f"{self.named} on line {self.node.lineno}"


@dataclass(eq=False, repr=False)
class TruthTest:
    """A name tested by an `if` or `while` (`if grads:`, `if grads is None:`, `if len(grads) == 0:`)."""

    node: ast.AST                     # the test expression
    value_node: ast.AST               # the name tested
    kinds: set[Kind] = field(default_factory=set)  # what the name held, over every walk of the test


@dataclass(eq=False, repr=False)
class Rebinding:
    """A name that held a `tf.Variable` is assigned again (`w = w - lr * g`, `w -= lr * g`)."""

    node: ast.stmt
    target: ast.AST
    variable: Origin
    reads_itself: bool                # the new value is computed from the variable
    function: ast.AST | None

    @property
    def replaces_variable(self) -> bool:
        """A named variable replaced by a tensor computed from it: later reads are not the variable."""
        return self.reads_itself and self.variable.kind is OriginKind.VARIABLE


@dataclass(eq=False, repr=False)
class MinimizeCall:
    """`optimizer.minimize(loss, ...)`, whatever the loss is (a callable or an already computed tensor)."""

    node: ast.Call
    optimizer: Value
    loss: Value


@dataclass(eq=False, repr=False)
class ConstantFallback:
    """`loss = tf.constant(0.0)` in one branch of an `if` whose other branch gives `loss` a gradient,
    or `loss = model_loss if n > 0 else 0.0`."""

    node: ast.expr                    # the constant, as written
    name: str | None                  # the name it is bound to (None: `return x if n else 0.0`)
    branch: ast.AST                   # the `if` statement, or the conditional expression


@dataclass(eq=False, repr=False)
class ClassInfo:
    node: ast.ClassDef
    is_keras: bool                    # a Keras layer, model or loss (its `self` is the model)
    origin: Origin | None             # the variables of an instance: the model's, or the module's
    attrs: dict[str, Value] = field(default_factory=dict)
    # A plain `tf.Module`: the variables set on `self` are its `trainable_variables` and calling
    # an instance runs `__call__`; its other methods are not taken for forward passes (TF-Agents'
    # agents are modules whose methods do anything).
    is_module: bool = False

    @property
    def has_variables(self) -> bool:
        """An instance owns the variables its `__init__`/`build` set on `self`."""
        return self.is_keras or self.is_module


@dataclass(eq=False, repr=False)
class Analysis:
    doc: Document
    sinks: list[Sink] = field(default_factory=list)
    # `tape.gradient(..., unconnected_gradients=ZERO)`: zeros where a gradient would be None, so no
    # rule that claims a None gradient reads these; what holds whatever the zeros (GG311: the
    # regularization left out of the loss) does.
    zero_sinks: list[Sink] = field(default_factory=list)
    tapes: list[TapeInfo] = field(default_factory=list)
    classes: list[ClassInfo] = field(default_factory=list)
    truth_tests: dict[int, TruthTest] = field(default_factory=dict)     # by id of the test node
    rebindings: dict[int, Rebinding] = field(default_factory=dict)      # by id of the statement
    minimize_calls: dict[int, MinimizeCall] = field(default_factory=dict)  # by id of the call
    statuses: dict[int, dict] = field(default_factory=dict)  # by id of the sink: model.status.sink_status
    # Breaks that leave a whole added term of a loss without gradient while the other side of the
    # `+` still carries one (`loss = pg_loss - 0.01 * np.mean(entropy)`), by the name assigned
    # (`loss`): reported for the sink that differentiates that name, even when training runs.
    dead_terms: dict[str, set[Span]] = field(default_factory=dict)
    # The layers of a multi-output functional model, by the key of each of them: a sink whose loss
    # uses one of them, asking for the model's variables, asks about all of them (the unused heads).
    parts: dict[str, set[Origin]] = field(default_factory=dict)
    # `-log_prob * (ret - value)` in a tape: the prediction node of the advantage and the value
    # it carries (GG202: the actor's loss also trains the critic through it).
    unstopped_advantages: list[tuple[ast.AST, Value]] = field(default_factory=list)
    # `tape.watch(model.input)`: a functional model's symbolic Keras tensor given to a tape's
    # `watch`, with that tape, by id of the argument (GG312).
    symbolic_watches: dict[int, tuple[ast.AST, TapeInfo | None]] = field(default_factory=dict)
    constant_fallbacks: dict[Span, ConstantFallback] = field(default_factory=dict)  # by the constant's span
    # The models called in this file whose layers declare a regularizer (`kernel_regularizer=`),
    # by origin key: where the first one is, and in which module (None: this one) (GG311).
    regularized_models: dict[str, tuple] = field(default_factory=dict)
    # `@tf.custom_gradient` functions whose `grad` mishandles the variables they read, by id of the
    # function (GG314; model/custom_gradients.py).
    custom_gradients: dict[int, object] = field(default_factory=dict)
    # Loss functions compiled with `run_eagerly=True`, by id of the function: `fit` calls them
    # eagerly (GG313: a constant fallback there is a None, not a traced branch's zeros).
    eager_loss_functions: set[int] = field(default_factory=set)

    def record_truth_test(self, node: ast.AST, value_node: ast.AST, value: Value) -> None:
        test = self.truth_tests.setdefault(id(node), TruthTest(node, value_node))
        test.kinds.add(value.kind)

    def record_rebinding(self, rebinding: Rebinding) -> None:
        self.rebindings.setdefault(id(rebinding.node), rebinding)

    def record_minimize_call(self, call: MinimizeCall) -> None:
        self.minimize_calls.setdefault(id(call.node), call)

    @classmethod
    def merged(cls, doc: Document, analyses: list["Analysis"]) -> "Analysis":
        """The analyses of independent parts of `doc` (source/components.py) as one analysis of it;
        every container is new, so the parts' own stay as they were."""
        whole = cls(doc)
        for part in analyses:
            whole.sinks += part.sinks
            whole.zero_sinks += part.zero_sinks
            whole.tapes += part.tapes
            whole.classes += part.classes
            whole.truth_tests.update(part.truth_tests)
            whole.rebindings.update(part.rebindings)
            whole.minimize_calls.update(part.minimize_calls)
            whole.statuses.update(part.statuses)
            for name, spans in part.dead_terms.items():
                whole.dead_terms.setdefault(name, set()).update(spans)
            for key, origins in part.parts.items():
                whole.parts.setdefault(key, set()).update(origins)
            whole.unstopped_advantages += part.unstopped_advantages
            whole.symbolic_watches.update(part.symbolic_watches)
            whole.constant_fallbacks.update(part.constant_fallbacks)
            whole.custom_gradients.update(part.custom_gradients)
            whole.eager_loss_functions |= part.eager_loss_functions
            for key, where in part.regularized_models.items():
                whole.regularized_models.setdefault(key, where)
        return whole

    def variables_rebound_from_themselves(self) -> set[Origin]:
        """Variables replaced by a tensor computed from them (`w = w - lr * g`): their later reads
        are not the variable any more."""
        return {r.variable for r in self.rebindings.values() if r.replaces_variable}

    def gradient_source_origins(self, function: ast.AST | None) -> set[Origin]:
        """What the `tape.gradient` calls inside `function` (None: the module's code) ask for: the
        origins of their sources (`w`, `self.w`, the elements of `params = [w, b]`)."""
        return {origin for sink in self.sinks
                if sink.kind is SinkKind.GRADIENT and sink.function is function and sink.sources
                for item in sink.sources for origin in item.origins}


def watched_key(tape: TapeInfo | None, key: str) -> str:
    """A watched tensor's origin is the watching tape's: another tape never watched it.
    (`watched_key(tape, "")` is the prefix of every origin that tape watched.)"""
    return f"watched:{tape.id if tape is not None else '?'}:{key}"


def attribute_key(node: ast.AST) -> str | None:
    """`store.value`, `agent.net.head`: the dotted path of an attribute of a name, under which an
    assignment to it is remembered (`name_key` covers names and `self.x`)."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name) or not parts:
        return None
    return ".".join([node.id, *reversed(parts)])


def name_key(node: ast.AST) -> str | None:
    """The key the interpreter binds a target under: `x`, or `self.x` (other targets have none)."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self":
        return f"self.{node.attr}"
    return None
