"""Writes small, self-contained TF2/Keras training programs by combining, at random, one value
from each of several dimensions. Deterministic: program `index` of seed `seed` is always the same
text, and can be made alone (`generate(seed, index)`).

The dimensions (`DIMENSIONS` lists their values):

* `holder`   how each trainable thing is made and held (a variable, a layer, a Sequential, a
             functional or subclassed model, a Layer with `build`, a `tf.Module`, a factory, a list
             or dict or attribute holding a model, a TF Probability distribution, a watched tensor);
* `flow`     how its output travels to the loss: a chain of steps (arithmetic, containers into TF
             ops and builtins, comprehensions, lambdas, local functions, methods, callbacks given to
             `tf.map_fn`/`tf.while_loop`/`tf.scan`/`tf.vectorized_map`/`tf.nest`, slicing,
             unpacking, dicts and attributes), nested in one expression or one statement each;
* `combine`  how the paths make the loss (sum, `tf.add_n`, `tf.stack`, a loop, a Keras loss ...);
* `sources`  how `tape.gradient` is given the variables (a list, one variable alone, `+` of
             `trainable_variables`, a starred list, a comprehension, a name bound earlier);
* `tape`     where the tape is and how it is asked (after or inside the block, persistent, in a
             `train_step`, under `tf.function`, around a loss function);
* `decoy`    a construct that looks like a break and is not (`.numpy()` for logging, numpy on the
             inputs, `argmax` for acting, a float cast, a stopped constant target);
* `break`    zero or one inserted break, at a random point of one path or of the program: every
             cut the catalogue knows (`.numpy()`, numpy functions, `float()`, `convert_to_numpy`,
             `tf.numpy_function`, `tf.Variable(...)`, `stop_gradient`, rounding, `argmax`, integer
             casts by literal, module constant, dict or string, comparisons, `predict`) and the
             program-level ones (forward pass outside the tape, a source the loss never uses, an
             unwatched tensor, a non-persistent tape asked twice, a TFP distribution built from a
             tensor computed before the tape);
* `guard`    how the gradients are tested before they are applied (`if grads:`, `is None` ...);
* `asked`, `flow_extra`, `fallback` (asking.py, each from a random stream of its own): how the
             gradient is asked for (`tape.gradient`, with `unconnected_gradients=ZERO`,
             `optimizer.minimize`, `model.fit`), one more step on the first path (an axis held in
             a module constant, an ODE-solver-like helper), and a constant the last path falls
             back to on the branch the run takes; at their first values the text is as before.
* `scope` (scopes.py, its own stream): one more step on the first path through a helper that reads
             the value from a scope around it (a lambda's closure handed to a function of the
             program, a class defined in a factory or in a method, an alias of `self`); and
             `effect` (its own stream too), one more through a helper that changes what its
             caller reads (an append to an object's or a given list, a `nonlocal`, a decorator);
             `closure` (closures.py, its own stream too), one more through a function a helper
             makes and returns, or a tuple a helper returns.

Nothing here decides what a program *does*: that is TensorFlow's label (runner.py).
"""
from __future__ import annotations

import random
import re
from dataclasses import dataclass, field

from . import asking as _asking
from . import closures as _closures
from . import constructs as _constructs
from . import scopes as _scopes
from .asking import ASKED, FALLBACKS, FLOW_EXTRAS, NOT_APPLICABLE, Asking
from .closures import CLOSURES, Closure
from .constructs import CONSTRUCTS, LAYER_FLAWS, Construct, LayerFlaw
from .scopes import EFFECTS, SCOPES, Scope

# --------------------------------------------------------------------------------------------
# Dimension values

HOLDERS = ("variable", "variable_op", "dense", "sequential", "functional", "subclassed_model", "layer_build",
           "tf_module", "factory", "tuple_assigned", "list_of_models", "dict_of_models", "attribute", "tfp_normal",
           "watched_tensor")
FLOWS = ("arith", "self_mul", "identity_op", "lambda_call", "closure_lambda", "local_def", "default_arg",
         "method", "list_index", "tuple_unpack", "dict_get", "attr_store", "slice", "map_fn", "vectorized_map",
         "nest_map", "nest_flatten", "builtin_map", "listcomp", "genexp_sum", "stack_index", "concat",
         "add_n_single", "while_loop", "scan", "python_if", "loop_accumulate")
COMBINES = ("mean_sum", "add_n", "sum_builtin", "stack", "reduce_sum_list", "loop", "concat", "mse",
            "keras_loss", "genexp_models")
SOURCE_FORMS = ("list", "tuple", "single", "plus", "starred", "comprehension", "named")
TAPES = ("module", "inside", "train_step", "tf_function", "persistent", "loss_fn")
DECOYS = ("none", "log_numpy", "numpy_input", "argmax_acting", "float_cast", "stop_target", "float_dtype_const")
BREAKS = ("none", "numpy_method", "numpy_asarray", "np_function", "float_call", "keras_numpy", "numpy_function",
          "new_variable", "stop_gradient", "round", "floor", "argmax", "int_cast", "int_cast_const",
          "int_cast_dict", "int_cast_string", "comparison", "where_mask", "predict", "outside_tape",
          "unused_source", "unwatched", "tape_twice", "tfp_precomputed")
GUARDS = ("none", "truthy_list", "all_not_none", "single_is_none", "zip_is_none")

# The dimensions drawn from the program's first random stream, in this order.
DRAWN = {"holder": HOLDERS, "flow": FLOWS, "combine": COMBINES, "sources": SOURCE_FORMS, "tape": TAPES,
         "decoy": DECOYS, "break": BREAKS, "guard": GUARDS}
# And those drawn from streams of their own (asking.py): their first value is the text before them.
DIMENSIONS = {**DRAWN, "asked": ASKED, "flow_extra": FLOW_EXTRAS, "fallback": FALLBACKS, "construct": CONSTRUCTS,
              "layer_flaw": LAYER_FLAWS, "scope": SCOPES,
              "effect": EFFECTS, "closure": CLOSURES}

# How often a program has no inserted break: correct programs are what false claims are made on.
NO_BREAK_SHARE = 0.4
MODEL_HOLDERS = {"dense", "sequential", "functional", "subclassed_model", "layer_build", "tf_module", "factory",
                 "tuple_assigned", "list_of_models", "dict_of_models", "attribute"}
# Flows whose step is a function TensorFlow calls (the break can go inside it).
CALLBACK_FLOWS = {"lambda_call", "closure_lambda", "local_def", "default_arg", "method", "map_fn", "vectorized_map",
                  "nest_map", "builtin_map", "listcomp", "genexp_sum", "while_loop", "scan"}
PATH_BREAKS = {"numpy_method", "numpy_asarray", "np_function", "float_call", "keras_numpy", "numpy_function",
               "new_variable", "stop_gradient", "round", "floor", "argmax", "int_cast", "int_cast_const",
               "int_cast_dict", "int_cast_string", "comparison", "where_mask"}


@dataclass(frozen=True)
class Program:
    seed: int
    index: int
    source: str
    dims: dict[str, str]
    groups: tuple[str, ...]                 # each gradient source group, a module-level expression
    group_spans: tuple[tuple[int, int, int], ...]  # where each group is written: (line, col, end_col), 0-based cols
    single_source: bool                     # `tape.gradient(loss, v)`: one variable, not a list

    @property
    def name(self) -> str:
        return f"gen_{self.seed}_{self.index}"


@dataclass
class _Holder:
    name: str
    kind: str
    setup: list[str]
    use: str            # an expression of `{x}` computing a (4, 1) tensor from the trainable thing
    variables: str      # the module-level expression of its variables
    single: bool = False  # `variables` is one variable
    model: str | None = None  # the Keras model or layer object, when there is one
    watch: str | None = None  # a tensor the tape must watch


@dataclass
class _Writer:
    rng: random.Random
    head: list[str] = field(default_factory=list)      # imports and constants
    defs: list[str] = field(default_factory=list)      # classes and functions the flows use
    counter: int = 0

    def fresh(self, stem: str) -> str:
        self.counter += 1
        return f"{stem}_{self.counter}"

    def const(self, line: str) -> None:
        if line not in self.head:
            self.head.append(line)


# --------------------------------------------------------------------------------------------
# Holders


# The holders whose class the program defines: the class's name stem, and its text after the name.
_CLASSES = {
    "subclassed_model": ("Net", "(keras.Model):\n"
                                "    def __init__(self):\n"
                                "        super().__init__()\n"
                                "        self.hidden = keras.layers.Dense(4, activation=\"tanh\")\n"
                                "        self.head = keras.layers.Dense(1)\n\n"
                                "    def call(self, inputs):\n"
                                "        return self.head(self.hidden(inputs))\n"),
    "layer_build": ("Linear", "(keras.layers.Layer):\n"
                              "    def build(self, input_shape):\n"
                              "        self.w = self.add_weight(shape=(input_shape[-1], 1), initializer=\"random_normal\")\n"
                              "        self.b = self.add_weight(shape=(1,), initializer=\"zeros\")\n\n"
                              "    def call(self, inputs):\n"
                              "        return tf.matmul(inputs, self.w) + self.b\n"),
    "tf_module": ("Affine", "(tf.Module):\n"
                            "    def __init__(self):\n"
                            "        super().__init__()\n"
                            "        self.w = tf.Variable(tf.random.normal((3, 1)))\n"
                            "        self.b = tf.Variable(tf.zeros((1,)))\n\n"
                            "    def __call__(self, inputs):\n"
                            "        return tf.matmul(inputs, self.w) + self.b\n"),
}


def _holder(kind: str, name: str, w: _Writer) -> _Holder:
    dense2 = "keras.Sequential([keras.layers.Dense(4, activation=\"tanh\"), keras.layers.Dense(1)])"
    if kind == "variable":
        return _Holder(name, kind, [f"{name} = tf.Variable(tf.random.normal((3, 1)), name=\"{name}\")"],
                       f"tf.matmul({{x}}, {name})", name, single=True)
    if kind == "variable_op":
        return _Holder(name, kind, [f"{name} = tf.Variable(tf.ones((3, 1)) * 0.5)"], f"{{x}} @ {name}", name,
                       single=True)
    if kind == "dense":
        return _Holder(name, kind, [f"{name} = keras.layers.Dense(1)"], f"{name}({{x}})",
                       f"{name}.trainable_variables", model=name)
    if kind == "sequential":
        return _Holder(name, kind, [f"{name} = {dense2}"], f"{name}({{x}})", f"{name}.trainable_variables", model=name)
    if kind == "functional":
        inp = f"{name}_input"
        return _Holder(name, kind, [f"{inp} = keras.Input((3,))",
                                    f"{name} = keras.Model({inp}, keras.layers.Dense(1)(keras.layers.Dense(4)({inp})))"],
                       f"{name}({{x}})", f"{name}.trainable_variables", model=name)
    if kind in _CLASSES:
        stem, text = _CLASSES[kind]
        cls = f"{stem}{name.title().replace('_', '')}"
        w.defs.append(f"class {cls}{text}")
        # A tf.Module's trainable_variables is a tuple: `list(...)` joins it with other lists.
        variables = f"list({name}.trainable_variables)" if kind == "tf_module" else f"{name}.trainable_variables"
        return _Holder(name, kind, [f"{name} = {cls}()"], f"{name}({{x}})", variables, model=name)
    if kind == "factory":
        maker = f"make_{name}"
        w.defs.append(f"def {maker}(units=4):\n"
                      f"    return keras.Sequential([keras.layers.Dense(units, activation=\"relu\"), keras.layers.Dense(1)])\n")
        return _Holder(name, kind, [f"{name} = {maker}()"], f"{name}({{x}})", f"{name}.trainable_variables", model=name)
    if kind == "tuple_assigned":
        return _Holder(name, kind, [f"{name}, {name}_spare = keras.layers.Dense(1), keras.layers.Dense(1)"],
                       f"{name}({{x}})", f"{name}.trainable_variables", model=name)
    if kind == "list_of_models":
        return _Holder(name, kind, [f"{name}_nets = [keras.layers.Dense(1), {dense2}]"],
                       f"{name}_nets[1]({{x}})", f"{name}_nets[1].trainable_variables", model=f"{name}_nets[1]")
    if kind == "dict_of_models":
        return _Holder(name, kind, [f"{name}_nets = {{\"main\": {dense2}}}"], f"{name}_nets[\"main\"]({{x}})",
                       f"{name}_nets[\"main\"].trainable_variables", model=f"{name}_nets[\"main\"]")
    if kind == "attribute":
        cls = f"Agent{name.title().replace('_', '')}"
        w.defs.append(f"class {cls}:\n"
                      f"    def __init__(self):\n"
                      f"        self.net = {dense2}\n")
        return _Holder(name, kind, [f"{name} = {cls}()"], f"{name}.net({{x}})", f"{name}.net.trainable_variables",
                       model=f"{name}.net")
    if kind == "tfp_normal":
        w.const("import tensorflow_probability as tfp")
        # The distribution's own `trainable_variables` (it tracks the variable it was given), or
        # the variable itself.
        variables = w.rng.choice([f"list({name}.trainable_variables)", f"{name}_loc"])
        return _Holder(name, kind, [f"{name}_loc = tf.Variable(tf.zeros(3))",
                                    f"{name} = tfp.distributions.Normal(loc={name}_loc, scale=1.0)"],
                       f"tf.reduce_sum({name}.log_prob({{x}}), axis=1, keepdims=True)", variables,
                       single=not variables.startswith("list("))
    if kind == "watched_tensor":
        return _Holder(name, kind, [f"{name} = tf.random.normal((3, 1))"], f"tf.matmul({{x}}, {name})", name,
                       single=True, watch=name)
    raise ValueError(kind)


# --------------------------------------------------------------------------------------------
# Flows: one step of a path. `inner` is an expression of `t`: what a callback does to its element.

INNER_STEPS = ("t * 2.0", "t + 1.0", "tf.tanh(t)", "t * t", "tf.nn.relu(t) + t")


def _inner(w: _Writer, brk: str | None) -> str:
    if brk is not None:
        return _break_expr(brk, "t", w)
    return w.rng.choice(INNER_STEPS)


# Steps that are one expression of `{e}` (the value) and `{inner}` (what a callback does to its
# element `t`): the templates (one is drawn at random when there are several), and whether the
# step reads `{e}` twice (then `{e}` is bound to a name first).
_TEMPLATES = {
    "arith": (["2.0 * {e} - 1.0", "({e}) * 0.5", "{e} + tf.ones((4, 1))", "-({e})"], False),
    "self_mul": (["{e} * {e}"], True),
    "identity_op": (["tf.identity({e})", "tf.reshape({e}, (4, 1))", "tf.nn.sigmoid({e})"], False),
    "lambda_call": (["(lambda t: {inner})({e})"], False),
    "list_index": (["[{e}][0]", "[{e}, {e}][-1]", "({e},)[0]"], False),
    "dict_get": (['{{"out": {e}, "aux": 1.0}}["out"]'], False),
    "slice": (["{e}[:, :1]", "{e}[:, 0:1]", "{e}[...]"], False),
    "map_fn": (["tf.map_fn(lambda t: {inner}, {e})"], False),
    "vectorized_map": (["tf.vectorized_map(lambda t: {inner}, {e})"], False),
    "nest_map": (["tf.nest.map_structure(lambda t: {inner}, {e})"], False),
    "nest_flatten": (["tf.nest.flatten([{e}])[0]"], False),
    "builtin_map": (["list(map(lambda t: {inner}, [{e}]))[0]"], False),
    "listcomp": (["[{inner} for t in [{e}]][0]"], False),
    "genexp_sum": (["sum({inner} for t in [{e}])"], False),
    "stack_index": (["tf.stack([{e}, {e}])[0]"], True),
    "concat": (["tf.concat([{e}], axis=1)", "tf.concat([{e}, {e}], axis=0)[:4]"], True),
    "add_n_single": (["tf.add_n([{e}])"], False),
    "while_loop": (["tf.while_loop(lambda i, t: i < 2, lambda i, t: (i + 1, {inner}), (tf.constant(0), {e}))[1]"], False),
    "scan": (["tf.scan(lambda acc, t: acc + ({inner}), {e})"], False),
}


def _flow(kind: str, e: str, w: _Writer, brk: str | None, path: list[str]) -> tuple[str, bool]:
    """The expression of step `kind` applied to `e`; statements it needs go into `path`. Returns
    (expression, whether it must be a statement of its own: it reads `e` twice or unpacks)."""
    rng = w.rng
    inner = _inner(w, brk) if kind in CALLBACK_FLOWS else None
    if kind in _TEMPLATES:
        templates, twice = _TEMPLATES[kind]
        template = templates[0] if len(templates) == 1 else rng.choice(templates)
        return template.format(e=e, inner=inner), twice
    if kind == "closure_lambda":
        name = w.fresh("h")
        path.append(f"{name} = {e}")
        return f"(lambda: {_closure(inner, name)})()", False
    if kind == "local_def":
        fn = w.fresh("step")
        w.defs.append(f"def {fn}(t):\n    return {inner}\n")
        return f"{fn}({e})", False
    if kind == "default_arg":
        fn = w.fresh("scaled")
        w.const("SCALE = 2.0")
        w.defs.append(f"def {fn}(t, factor=SCALE):\n    return factor * ({inner})\n")
        return f"{fn}({e})", False
    if kind == "method":
        cls = w.fresh("Helper").title().replace("_", "")
        obj = cls.lower()
        w.defs.append(f"class {cls}:\n    def apply(self, t):\n        return {inner}\n\n\n{obj} = {cls}()\n")
        return f"{obj}.apply({e})", False
    if kind == "tuple_unpack":
        a, b = w.fresh("a"), w.fresh("b")
        path.append(f"{a}, {b} = {e}, 0.0")
        return f"{a} + {b}", False
    if kind == "attr_store":
        w.const("import types")
        store = w.fresh("store")
        path.append(f"{store} = types.SimpleNamespace()")
        path.append(f"{store}.value = {e}")
        return f"{store}.value", False
    if kind == "python_if":
        w.const("USE_SCALE = True")
        name = w.fresh("g")
        path.append(f"if USE_SCALE:\n    {name} = {e} * 2.0\nelse:\n    {name} = {e}")
        return name, False
    if kind == "loop_accumulate":
        name = w.fresh("acc")
        path.append(f"{name} = tf.zeros((4, 1))\nfor _ in range(2):\n    {name} = {name} + {e}")
        return name, False
    raise ValueError(kind)


def _closure(inner: str, name: str) -> str:
    """`inner` with its parameter `t` replaced by the name `name` the lambda closes over."""
    return re.sub(r"\bt\b", name, inner)


# --------------------------------------------------------------------------------------------
# Breaks on a path, and the decoys that look like them


def _break_expr(kind: str, e: str, w: _Writer) -> str:
    rng = w.rng
    if kind == "numpy_method":
        return rng.choice([f"tf.constant({e}.numpy())", f"tf.convert_to_tensor({e}.numpy())", f"{e}.numpy()"])
    if kind == "numpy_asarray":
        return rng.choice([f"np.asarray({e})", f"np.array({e}, dtype=np.float32)"])
    if kind == "np_function":
        return rng.choice([f"np.tanh({e})", f"np.mean({e}, axis=1, keepdims=True)", f"np.clip({e}, -1.0, 1.0)"])
    if kind == "float_call":
        return f"float(tf.reduce_mean({e})) * tf.ones((4, 1))"
    if kind == "keras_numpy":
        return f"keras.ops.convert_to_numpy({e})"
    if kind == "numpy_function":
        return f"tf.numpy_function(lambda a: a * 2.0, [{e}], tf.float32)"
    if kind == "new_variable":
        return f"tf.Variable({e})"
    if kind == "stop_gradient":
        return f"tf.stop_gradient({e})"
    if kind == "round":
        return rng.choice([f"tf.round({e})", f"tf.math.round({e})", f"keras.ops.round({e})"])
    if kind == "floor":
        return rng.choice([f"tf.floor({e})", f"tf.math.ceil({e})"])
    if kind == "argmax":
        return f"tf.cast(tf.argmax({e}, axis=1)[:, None], tf.float32)"
    if kind == "int_cast":
        return rng.choice([f"tf.cast(tf.cast({e}, tf.int32), tf.float32)", f"tf.cast(tf.cast({e}, tf.int64), tf.float32)"])
    if kind == "int_cast_const":
        w.const("INDEX_DTYPE = tf.int32")
        return f"tf.cast(tf.cast({e}, INDEX_DTYPE), tf.float32)"
    if kind == "int_cast_dict":
        w.const("DTYPES = {\"index\": tf.int32, \"value\": tf.float32}")
        return f"tf.cast(tf.cast({e}, DTYPES[\"index\"]), DTYPES[\"value\"])"
    if kind == "int_cast_string":
        return f"tf.cast(tf.cast({e}, \"int32\"), \"float32\")"
    if kind == "comparison":
        return rng.choice([f"tf.cast({e} > 0.0, tf.float32)", f"tf.cast(tf.greater({e}, 0.0), tf.float32)"])
    if kind == "where_mask":
        return f"tf.where({e} > 0.0, 1.0, 0.0)"
    raise ValueError(kind)


def _decoy_step(kind: str, e: str, w: _Writer, path: list[str]) -> str:
    """A step that looks like a break and keeps the gradient (or a side statement beside the path)."""
    if kind == "log_numpy":
        w.const("LOG = []")
        path.append(f"LOG.append(float(tf.reduce_mean({e}).numpy()))")
        return e
    if kind == "argmax_acting":
        path.append(f"action = int(tf.argmax({e}[0]))")
        return e
    if kind == "float_cast":
        return f"tf.cast(tf.cast({e}, tf.float64), tf.float32)"
    if kind == "float_dtype_const":
        w.const("FLOAT_DTYPE = tf.float32")
        return f"tf.cast({e}, FLOAT_DTYPE)"
    return e


# --------------------------------------------------------------------------------------------
# The program


def generate(seed: int, index: int) -> Program:
    rng = random.Random(f"{seed}:{index}")
    w = _Writer(rng)
    dims = _choose(rng)
    ask = Asking(seed, index)
    dims["asked"], dims["flow_extra"] = ask.asked, ask.flow_extra
    scope = Scope(seed, index)
    dims["scope"], dims["effect"] = scope.value, scope.effect
    closure = Closure(seed, index)
    dims["closure"] = closure.value
    w.head = ["import numpy as np", "import tensorflow as tf", "import keras"]
    n_sources = 1 if dims["sources"] == "single" or dims["combine"] == "genexp_models" and rng.random() < 0.3 \
        else rng.choice([1, 2, 2])
    holders = []
    holder_defs = []  # how many definitions the program had before each holder's
    for i in range(n_sources):
        holder_defs.append(len(w.defs))
        kind = dims["holder"] if i == 0 else rng.choice(HOLDERS)
        if dims["combine"] == "genexp_models" and kind not in MODEL_HOLDERS:
            kind = rng.choice(sorted(MODEL_HOLDERS))
        if dims["sources"] == "single" and kind not in ("variable", "variable_op", "watched_tensor"):
            kind = "variable"
        holders.append(_holder(kind, f"{'vw'[i]}{'abc'[i]}" if kind in ("variable", "variable_op", "watched_tensor")
                               else ("model", "critic")[i], w))
    dims["holder"] = holders[0].kind
    brk = dims["break"]
    if brk == "predict" and not any(h.model for h in holders):
        brk = dims["break"] = "numpy_method"
    if brk == "tfp_precomputed" and not any(h.kind == "tfp_normal" for h in holders):
        holders[0] = _holder("tfp_normal", "dist", w)
    if brk == "unwatched" and not any(h.watch for h in holders):
        holders[-1] = _holder("watched_tensor", "wt", w)
    if dims["combine"] == "genexp_models" and not all(h.model for h in holders):
        dims["combine"] = "mean_sum"
    broken_path = rng.randrange(len(holders))
    fit = ask.asked in ("fit", "fit_eager")
    if fit and not ask.fit_allowed(holders[0].kind, brk, PATH_BREAKS):
        fit, dims["asked"] = False, "gradient"
    if fit and ask.asked == "fit" and dims["decoy"] in ("log_numpy", "argmax_acting"):
        dims["asked"] = "fit_eager"  # reading a value in Python (logging, acting) is what eager `fit` allows
    if fit:  # one Keras model, trained by `fit` with the path in its loss function
        if len(holders) > 1:
            del w.defs[holder_defs[1]:]
        holders, broken_path = holders[:1], 0
        for dim in ("sources", "tape", "guard"):
            dims[dim] = NOT_APPLICABLE
    con = _construct(seed, index, dims, holders, holder_defs, fit, w)

    setup: list[str] = []
    for h in holders:
        setup.extend(h.setup)
        setup.extend(_built(h))
    if brk == "tfp_precomputed":
        h = next(h for h in holders if h.kind == "tfp_normal")
        h.variables, h.single = f"{h.name}_loc", True  # the distribution itself holds no variable now
        setup[setup.index(f"{h.name} = tfp.distributions.Normal(loc={h.name}_loc, scale=1.0)")] = \
            f"{h.name} = tfp.distributions.Normal(loc={h.name}_loc * 2.0, scale=1.0)"

    inputs = ["x = tf.random.normal((4, 3))"]
    if dims["decoy"] == "numpy_input":
        inputs = ["x_np = np.random.rand(4, 3).astype(np.float32)", "x = tf.constant(x_np / np.max(x_np))"]
    inputs.append("y = tf.ones((4, 1))")

    # The paths: one per holder, each a list of statements ending in an expression.
    paths: list[tuple[list[str], str]] = []
    for i, h in enumerate(holders):
        path: list[str] = []
        use = "y_pred" if fit else h.use.format(x="x")
        if brk == "predict" and i == broken_path and h.model:
            use = f"{h.model}.predict(x, verbose=0)"
        steps = rng.choice([0, 1, 1, 2, 2, 3]) if i else rng.choice([1, 1, 2, 2, 3])
        flows = [dims["flow"] if i == 0 and k == 0 else rng.choice(FLOWS) for k in range(steps)]
        # The break's place: before the flows, inside one (a callback), or after one.
        place = rng.randrange(steps + 1) if brk in PATH_BREAKS and i == broken_path else None
        extra = i == 0 and ask.flow_extra != "none"
        in_ode = extra and place is not None and ask.flow_extra == "ode_helper" and ask.break_in_ode
        if in_ode:
            place = None
        inside = place is not None and place < steps and flows[place] in CALLBACK_FLOWS and rng.random() < 0.5
        expr = use
        for k in range(steps + 1):
            if place == k and not inside:
                expr = _break_expr(brk, _operand(expr), w)
            if k == 0 and i == 0 and dims["decoy"] not in ("none", "numpy_input", "stop_target"):
                expr = _decoy_step(dims["decoy"], _bind(expr, path, w), w, path)
            if k == steps:
                break
            operand = expr
            step_break = brk if place == k and inside else None
            named = flows[k] in ("self_mul", "stack_index", "concat") or rng.random() < 0.5
            operand = _bind(operand, path, w) if named else _operand(operand)
            expr, twice = _flow(flows[k], operand, w, step_break, path)
            if twice:
                expr = _bind(expr, path, w)
        if extra:
            inner = _inner(w, brk if in_ode else None) if ask.flow_extra == "ode_helper" else None
            expr = _asking.extra_step(ask, _operand(expr), w, inner)
        if i == 0 and scope.value != "none":
            expr = _scopes.scope_step(scope, _operand(expr), w, path)
        if i == 0 and scope.effect != "none":
            expr = _scopes.effect_step(scope, _operand(expr), w, path)
        if i == 0 and closure.value != "none":
            expr = _closures.closure_step(closure, _operand(expr), w, path)
        if i == 0 and dims["construct"] == "custom_gradient":
            expr = _constructs.custom_gradient_step(con, _operand(expr), w)
        paths.append((path, expr))

    path_names = []
    forward: list[str] = []
    outside: list[str] = []
    # A custom gradient on the only path would sit in the branch the run never takes: what its
    # call raises (GG314) is then said of code that never runs.
    falls_back = ask.fallback != "none" and dims["combine"] != "genexp_models" \
        and not (dims["construct"] == "custom_gradient" and len(paths) == 1)
    dims["fallback"] = ask.fallback if falls_back else "none"
    for i, (path, expr) in enumerate(paths):
        name = f"out_{i + 1}"
        last = i == len(paths) - 1
        stmts = path + (_asking.fallback_statements(ask, name, expr, w) if falls_back and last else [f"{name} = {expr}"])
        if brk == "outside_tape" and i == broken_path:
            outside.extend(stmts)
        else:
            forward.extend(stmts)
        path_names.append(name)

    loss_lines = _combine(dims["combine"], path_names, holders, dims["decoy"], w, "y_true" if fit else "y")
    if dims["combine"] == "genexp_models":
        forward = [s for s in forward if not s.startswith(tuple(f"{n} =" for n in path_names))]
        outside = []
    forward.extend(loss_lines)
    if dims["construct"] == "regularized" and not fit:
        forward.extend(_constructs.loss_addition(con, holders[0].model))

    # The gradient sources.
    asked = list(holders)
    if brk == "unused_source":
        extra = _holder(rng.choice(["variable", "dense"]), "unused" if rng.random() < 0.5 else "target_net", w)
        setup.extend(extra.setup)
        setup.extend(_built(extra))
        asked.append(extra)
    groups = [h.variables for h in asked]
    sources_text, pre_sources = _sources(dims["sources"], asked, w)
    if dims["asked"] == "minimize" and not ask.minimize_allowed(
            [h.kind for h in asked], brk, any(h.watch for h in holders)):
        dims["asked"] = "gradient"
    if dims["asked"] == "minimize":
        if ask.optimizer == "tf_keras":
            w.const("import tf_keras")
        dims["guard"] = NOT_APPLICABLE
        if dims["tape"] in ("inside", "persistent", "loss_fn"):
            dims["tape"] = "module"
        if len(asked) == 1 and asked[0].single and sources_text == groups[0]:  # optimizers take a list
            sources_text, dims["sources"] = f"[{sources_text}]", "list"

    watches = [h.watch for h in holders if h.watch and brk != "unwatched"]
    if brk == "unwatched":
        watches = [h.watch for h in holders if h.watch and h is not holders[-1]]
    if fit:
        lines = _head(w) + setup + inputs + [""] + _asking.fit_lines(holders[0].model, forward, dims["asked"] == "fit_eager",
                                                                          _indent_all)
    elif dims["asked"] == "minimize":
        lines = _head(w) + setup + inputs + pre_sources + [""] + _asking.minimize_lines(
            ask, forward, outside, sources_text, dims["tape"] in ("train_step", "tf_function"),
            dims["tape"] == "tf_function", _indent_all)
    else:
        lines = _assemble(dims, w, setup, inputs, outside, forward, watches, sources_text, pre_sources, asked,
                          single=dims["sources"] == "single", zero=_asking.zero_keyword(ask))
    if dims["construct"] == "symbolic":
        lines += [""] + _constructs.saliency_lines(con, holders[0].model if holders[0].kind == "functional" else None)
    source = "\n".join(lines) + "\n"
    spans = _group_spans(source, groups, sources_text)
    return Program(seed, index, source, dims, tuple(groups), spans, dims["sources"] == "single" and not fit)


def _construct(seed: int, index: int, dims, holders: list[_Holder], holder_defs: list[int], fit: bool,
               w: _Writer) -> Construct:
    """The `construct` dimension's draw (constructs.py), `none` where the program rules it out; a
    regularized first holder gets its layers' regularizer here, before its setup is written."""
    con = Construct(seed, index)
    value = con.value if con.applies(holders[0].kind, "fit" if fit else dims["asked"]) else "none"
    if value == "custom_gradient" and dims["combine"] == "genexp_models":  # the paths are not on the loss
        value = "none"
    dims["construct"], dims["construct_detail"] = value, con.detail() if value != "none" else "none"
    flaw = LayerFlaw(seed, index)
    dims["layer_flaw"] = dims["layer_flaw_detail"] = "none"
    if flaw.applies(holders[0].kind):  # the class is the first definition the first holder wrote
        dims["layer_flaw"], dims["layer_flaw_detail"] = flaw.value, flaw.detail()
        w.defs[holder_defs[0]] = _constructs.flawed_class(flaw, w.defs[holder_defs[0]])
    if value == "regularized":
        first = holders[0]
        first.setup = [_constructs.regularize(s, con) for s in first.setup]
        end = holder_defs[1] if len(holders) > 1 else len(w.defs)
        w.defs[holder_defs[0]:end] = [_constructs.regularize(d, con) for d in w.defs[holder_defs[0]:end]]
        if fit:
            dims["construct_detail"] = con.keyword + ":fit"
    return con


def _built(h: _Holder) -> list[str]:
    """A Keras layer or model gets its variables when first called or built: built here, as a
    target network is, so that asking for its `trainable_variables` asks for something."""
    if h.kind == "subclassed_model":  # Keras 3's `build(shape)` does not run a subclassed `call`
        return [f"{h.model}(tf.zeros((1, 3)))"]
    if h.model and h.kind not in ("tf_module", "functional"):
        return [f"{h.model}.build((None, 3))"]
    return []


def _choose(rng: random.Random) -> dict[str, str]:
    dims = {name: rng.choice(values) for name, values in DRAWN.items()}
    if rng.random() < NO_BREAK_SHARE:
        dims["break"] = "none"
    if rng.random() < 0.6:
        dims["decoy"] = "none"
    if rng.random() < 0.6:
        dims["guard"] = "none"
    return dims


def _simple(expr: str) -> bool:
    return expr.replace("_", "").isalnum()


def _operand(expr: str) -> str:
    return expr if _simple(expr) or expr.endswith(")") or expr.endswith("]") else f"({expr})"


def _bind(expr: str, path: list[str], w: _Writer) -> str:
    if _simple(expr):
        return expr
    name = w.fresh("h")
    path.append(f"{name} = {expr}")
    return name


def _combine(kind: str, names: list[str], holders: list[_Holder], decoy: str, w: _Writer,
             y: str = "y") -> list[str]:
    target = f"tf.stop_gradient({y})" if decoy == "stop_target" else y
    means = [f"tf.reduce_mean({n})" for n in names]
    if len(names) == 1 and kind in ("add_n", "sum_builtin", "stack", "reduce_sum_list", "loop", "concat"):
        kind = w.rng.choice([kind, "mean_sum"])
    if kind == "mean_sum":
        return [f"loss = tf.reduce_mean({' + '.join(names)})" if decoy != "stop_target"
                else f"loss = tf.reduce_mean(tf.square({target} - ({' + '.join(names)})))"]
    if kind == "add_n":
        return [f"loss = tf.add_n([{', '.join(means)}])"]
    if kind == "sum_builtin":
        return [f"loss = sum([{', '.join(means)}])"]
    if kind == "stack":
        return [f"loss = tf.reduce_sum(tf.stack([{', '.join(means)}]))"]
    if kind == "reduce_sum_list":
        return [f"loss = tf.reduce_sum([{', '.join(means)}])"]
    if kind == "loop":
        return ["loss = 0.0", f"for out in [{', '.join(names)}]:", "    loss += tf.reduce_mean(out)"]
    if kind == "concat":
        return [f"loss = tf.reduce_mean(tf.concat([{', '.join(names)}], axis=1))"]
    if kind == "mse":
        return [f"loss = tf.reduce_mean(tf.square({target} - ({' + '.join(names)})))"]
    if kind == "keras_loss":
        return [f"loss = keras.losses.MeanSquaredError()({target}, {' + '.join(names)})"]
    if kind == "genexp_models":
        models = ", ".join(h.model for h in holders)
        return [f"loss = sum(tf.reduce_mean(m(x)) for m in [{models}])"]
    raise ValueError(kind)


def _sources(form: str, asked: list[_Holder], w: _Writer) -> tuple[str, list[str]]:
    """The text of `tape.gradient`'s second argument, and statements that must come before it."""
    groups = [h.variables for h in asked]
    if form == "single" and len(asked) == 1 and asked[0].single:
        return groups[0], []
    if all(h.single for h in asked):
        if form == "tuple":
            return "(" + ", ".join(groups) + ("," if len(groups) == 1 else "") + ")", []
        if form == "named":
            return "params", [f"params = [{', '.join(groups)}]"]
        return "[" + ", ".join(groups) + "]", []
    lists = [g if not h.single else f"[{g}]" for g, h in zip(groups, asked)]
    if form == "starred":
        return "[" + ", ".join(f"*{g}" if not h.single else g for g, h in zip(groups, asked)) + "]", []
    if form == "comprehension":
        return "[v for group in (" + ", ".join(lists) + (",)" if len(lists) == 1 else ")") + " for v in group]", []
    if form == "named":
        return "params", ["params = " + " + ".join(lists)]
    return " + ".join(lists), []


def _head(w: _Writer) -> list[str]:
    """The imports and constants, then the definitions."""
    lines = list(w.head) + [""]
    for d in w.defs:
        lines.extend(d.rstrip("\n").split("\n"))
        lines.append("")
    return lines


def _assemble(dims, w: _Writer, setup, inputs, outside, forward, watches, sources, pre_sources, asked,
              single: bool, zero: str = "") -> list[str]:
    tape_kind, guard, brk = dims["tape"], dims["guard"], dims["break"]
    persistent = tape_kind == "persistent"
    lines = _head(w)
    lines.extend(setup)
    lines.extend(inputs)
    lines.extend(pre_sources)
    lines.append("")
    in_function = tape_kind in ("train_step", "tf_function")
    body: list[str] = []
    body.extend(outside)
    tape_open = f"with tf.GradientTape({'persistent=True' if persistent else ''}) as tape:"
    block: list[str] = [f"tape.watch({name})" for name in watches]
    if tape_kind == "loss_fn":
        lines.append("def compute_loss(x):")
        lines.extend("    " + s for s in _indent_all(forward))
        lines.append("    return loss")
        lines.append("")
        block.append("loss = compute_loss(x)")
    else:
        block.extend(forward)
    grad_line = f"grads = tape.gradient(loss, {sources}{zero})"
    body.append(tape_open)
    body.extend("    " + s for s in _indent_all(block))
    if tape_kind == "inside":
        body.append("    " + grad_line)
    else:
        body.append(grad_line)
    if brk == "tape_twice":
        body.append(f"grads_again = tape.gradient(loss, {sources}{zero})")
    if persistent:
        body.append("del tape")
    body.extend(_guard(guard, single, sources))
    if in_function:
        if tape_kind == "tf_function":
            lines.append("@tf.function")
        lines.append("def train_step(x):")
        lines.extend("    " + s for s in _indent_all(body))
        lines.append("    return grads")
        lines.append("")
        lines.append("")
        lines.append("grads = train_step(x)")
    else:
        lines.extend(body)
    return lines


def _guard(guard: str, single: bool, sources: str) -> list[str]:
    if guard == "none":
        return []
    if single or guard == "single_is_none":
        if not single:
            return ["if grads is None:", "    raise SystemExit(\"no gradients\")"]
        return ["if grads is None:", "    raise SystemExit(\"no gradient\")"]
    if guard == "truthy_list":
        return ["if grads:", "    grads = [tf.clip_by_norm(g, 1.0) if g is not None else g for g in grads]"]
    if guard == "all_not_none":
        return ["if not all(g is not None for g in grads):", "    print(\"some gradients are missing\")"]
    if guard == "zip_is_none":
        return [f"for g, v in zip(grads, {sources}):", "    if g is None:", "        print(\"no gradient for\", v.name)"]
    raise ValueError(guard)


def _indent_all(stmts: list[str]) -> list[str]:
    out = []
    for s in stmts:
        out.extend(s.split("\n"))
    return out


def _group_spans(source: str, groups: list[str], sources: str) -> tuple[tuple[int, int, int], ...]:
    """Where each group is written in the first `tape.gradient` call (or in the line binding
    `params`): the span a finding about that group points at."""
    lines = source.split("\n")
    spans = []
    for number, line in enumerate(lines, start=1):
        if ("tape.gradient(loss, " in line and "grads_again" not in line) or line.startswith("params = ") \
                or ".minimize(" in line:
            col = max(line.find("var_list="), 0)
            for g in groups:
                at = line.find(g, col)
                if at < 0:
                    break
                spans.append((number, at, at + len(g)))
                col = at + len(g)
            if len(spans) == len(groups):
                return tuple(spans)
            spans = []
    return ()
