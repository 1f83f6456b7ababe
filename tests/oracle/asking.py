"""The generator's two later dimensions, each drawn from a random stream of its own so that a
program whose values are the first ones (the behaviour before they existed) keeps its exact text:

* `asked`       how the gradient is asked for: `tape.gradient` (the first value, the most
                common), `tape.gradient(..., unconnected_gradients=ZERO)`, `optimizer.minimize`
                with a loss callable (a Keras 2 `tf_keras` optimizer or a TF1 `tf.compat.v1.train`
                one), or `model.fit` of a compiled Keras model with a custom loss, traced (Keras's
                default) or `run_eagerly=True`. A value that the program's other dimensions rule
                out (`minimize` over a Keras 3 model's variables, which those optimizers refuse;
                `fit` of something that is not a Keras `Model`, or with a break that is not on a
                path of the model's output) falls back to `gradient`, the program unchanged;
* `flow_extra`  one more step at the end of the first path: none (the first value), a reduction
                or concatenation along an axis held in a module constant (`AXIS = 1`), or an
                ODE-solver-like helper of the program (a Python function calling the `fn` it is
                given in a loop; the break, if it is on that path, may go inside `fn`).

* `fallback`    the last path's value falls back to a constant on a branch that the run takes
                (GG313): none (the first value), an `if`/`else`, a conditional expression, a
                `tf.cond` with a constant branch, or a helper that returns a constant early.
                Eagerly, that path's variables lose their gradient; traced by `tf.function`, the
                branch is a `tf.cond`, whose gradient is zero there.

TensorFlow-free, like the generator.
"""
from __future__ import annotations

import random

ASKED = ("gradient", "zero", "minimize", "fit", "fit_eager")
ASKED_WEIGHTS = (0.55, 0.10, 0.20, 0.075, 0.075)
FLOW_EXTRAS = ("none", "axis_const", "ode_helper")
FLOW_EXTRA_WEIGHTS = (0.8, 0.1, 0.1)
FALLBACKS = ("none", "if_else", "ifexp", "cond", "early_return")
FALLBACK_WEIGHTS = (0.84, 0.04, 0.04, 0.04, 0.04)
# A condition false on the generator's inputs (`x` is normal, every path's value small): the
# constant's branch is the one that runs.
_NEVER = "tf.reduce_max(tf.abs({v})) > 1e6"

# What each optimizer of `minimize` accepts: tf.Variable objects, not Keras 3 variables.
MINIMIZE_HOLDERS = {"variable", "variable_op", "tfp_normal", "tf_module"}
# Keras `Model`s (a `Dense` layer has no `fit`).
FIT_HOLDERS = {"sequential", "functional", "subclassed_model", "factory", "list_of_models", "dict_of_models",
               "attribute"}
NOT_APPLICABLE = "n/a"

ODE_HELPER = ("def odeint(fn, y0, steps=3, dt=0.1):\n"
              "    y = y0\n"
              "    for i in range(steps):\n"
              "        y = y + dt * fn(y, i * dt)\n"
              "    return y\n")


class Asking:
    """The draws of both streams for one program (`seed`, `index`)."""

    def __init__(self, seed: int, index: int) -> None:
        self.rng = random.Random(f"{seed}:{index}:asked")
        self.asked = self.rng.choices(ASKED, ASKED_WEIGHTS)[0]
        self.flow_rng = random.Random(f"{seed}:{index}:flow_extra")
        self.flow_extra = self.flow_rng.choices(FLOW_EXTRAS, FLOW_EXTRA_WEIGHTS)[0]
        # Drawn now, whatever they are used for, so the draws do not depend on the program.
        self.zero_spelling = self.rng.choice(["tf.UnconnectedGradients.ZERO", '"zero"'])
        self.optimizer = self.rng.choice(["tf_keras", "compat_v1"])
        self.loss_callable = self.rng.choice(["def", "lambda"])
        self.axis_step = self.flow_rng.choice(["tf.reduce_sum({e}, axis=AXIS, keepdims=True)",
                                               "tf.reduce_mean({e}, axis=AXIS, keepdims=True)",
                                               "tf.concat([{e}], axis=AXIS)"])
        self.ode_named = self.flow_rng.random() < 0.5
        self.break_in_ode = self.flow_rng.random() < 0.5
        self.fallback_rng = random.Random(f"{seed}:{index}:fallback")
        self.fallback = self.fallback_rng.choices(FALLBACKS, FALLBACK_WEIGHTS)[0]
        self.fallback_constant = self.fallback_rng.choice(["tf.zeros((4, 1))", "tf.constant(0.0)", "0.0"])

    def fit_allowed(self, kind: str, brk: str, path_breaks: set[str]) -> bool:
        return kind in FIT_HOLDERS and (brk == "none" or brk in path_breaks)

    def minimize_allowed(self, kinds: list[str], brk: str, watched: bool) -> bool:
        return all(k in MINIMIZE_HOLDERS for k in kinds) and not watched and brk not in ("unwatched", "tape_twice")


def extra_step(asking: Asking, e: str, w, inner: str | None) -> str:
    """The `flow_extra` step applied to `e`; `inner` is what the ODE's `fn` does to the state `t`."""
    if asking.flow_extra == "axis_const":
        w.const("AXIS = 1")
        return asking.axis_step.format(e=e)
    if asking.flow_extra == "ode_helper":
        if ODE_HELPER not in w.defs:
            w.defs.append(ODE_HELPER)
        if asking.ode_named:
            fn = w.fresh("dynamics")
            w.defs.append(f"def {fn}(t, time):\n    return {inner}\n")
            return f"odeint({fn}, {e})"
        return f"odeint(lambda t, time: {inner}, {e})"
    raise ValueError(asking.flow_extra)


def zero_keyword(asking: Asking) -> str:
    return f", unconnected_gradients={asking.zero_spelling}" if asking.asked == "zero" else ""


def minimize_lines(asking: Asking, forward: list[str], outside: list[str], sources: str, in_function: bool,
                   traced: bool, indent_all) -> list[str]:
    """The training step by `optimizer.minimize(loss_fn, var_list=...)`: the forward pass is the
    loss callable's body (a `def` or a lambda calling a loss function of `x`)."""
    if asking.optimizer == "tf_keras":
        make = "tf_keras.optimizers.SGD(learning_rate=0.01)"
    else:
        make = "tf.compat.v1.train.GradientDescentOptimizer(0.01)"
    lines: list[str] = [f"optimizer = {make}", ""]
    body: list[str] = list(outside)
    if asking.loss_callable == "def":
        body.append("def loss_fn():")
        body.extend("    " + s for s in indent_all(forward))
        body.append("    return loss")
        body.append(f"optimizer.minimize(loss_fn, var_list={sources})")
    else:
        body.append("def compute_loss(x):")
        body.extend("    " + s for s in indent_all(forward))
        body.append("    return loss")
        body.append(f"optimizer.minimize(lambda: compute_loss(x), var_list={sources})")
    if not in_function:
        return lines + body
    if traced:
        lines.append("@tf.function")
    lines.append("def train_step(x):")
    lines.extend("    " + s for s in indent_all(body))
    lines += ["", "", "train_step(x)"]
    return lines


def fit_lines(model: str, forward: list[str], eager: bool, indent_all) -> list[str]:
    """A compiled Keras model trained one step by `fit`, the path and the loss in its loss function."""
    lines = ["def fit_loss(y_true, y_pred):"]
    lines.extend("    " + s for s in indent_all(forward))
    lines.append("    return loss")
    lines.append("")
    lines.append("")
    eager = ", run_eagerly=True" if eager else ""
    lines.append(f"{model}.compile(optimizer=keras.optimizers.SGD(learning_rate=0.01), loss=fit_loss{eager})")
    lines.append(f"{model}.fit(x, y, epochs=1, batch_size=4, verbose=0)")
    return lines


def fallback_statements(asking: Asking, name: str, expr: str, w) -> list[str]:
    """`name = expr`, written so that on the branch the run takes `name` is a constant."""
    constant = asking.fallback_constant
    if asking.fallback == "if_else":
        return [f"if {_NEVER.format(v='x')}:", f"    {name} = {expr}", "else:", f"    {name} = {constant}"]
    if asking.fallback == "ifexp":
        return [f"{name} = {expr} if {_NEVER.format(v='x')} else {constant}"]
    if asking.fallback == "cond":
        return [f"{name} = tf.cond({_NEVER.format(v='x')}, lambda: {expr}, lambda: {constant})"]
    if asking.fallback == "early_return":
        helper = w.fresh("unless_large")
        w.defs.append(f"def {helper}(v):\n"
                      f"    if not {_NEVER.format(v='v')}:\n"
                      f"        return {constant}\n"
                      f"    return v\n")
        return [f"{name} = {helper}({expr})"]
    raise ValueError(asking.fallback)
