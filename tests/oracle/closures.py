"""The generator's `closure` dimension: the path's value goes through a function a helper of the
program makes and returns, drawn from a random stream of its own (`Random(f"{seed}:{index}:closure")`)
so that at the first value, `none`, a program keeps the exact text it had before the dimension
existed. Each value is one more step at the end of the first path (after `scope` and `effect`),
the value passed on unchanged:

* `factory_def`     a factory defines a function closing over its argument and returns it; the
                    function is called on zeros (`make_adder(h)(tf.zeros_like(h))`, or bound to a
                    name first): the value reaches the loss only through the closure;
* `factory_lambda`  the same with a lambda (`return lambda t: t + value`);
* `curried`         the factory is given a constant and the function the value
                    (`make_scaled(1.0)(h)`): the value goes through the function's own parameter,
                    the factory's through its closure;
* `tuple_helper`    a helper returns the value and a constant as a tuple, and the first element is
                    picked (`split_pair(h)[0]`, or the tuple bound to a name and indexed later).

TensorFlow's label decides what the program does (runner.py); the shapes drew false GG302 and
GG301 before the engine followed them (tests/programs/ok_loss_function_made_by_a_factory_*,
ok_lambda_made_by_a_factory_*, ok_losses_tuple_of_a_helper_*).

TensorFlow-free, like the generator.
"""
from __future__ import annotations

import random

CLOSURES = ("none", "factory_def", "factory_lambda", "curried", "tuple_helper")
CLOSURE_WEIGHTS = (0.88, 0.03, 0.03, 0.03, 0.03)

MAKE_ADDER = ("def make_adder(value):\n"
              "    def add(t):\n"
              "        return t + value\n"
              "\n"
              "    return add\n")
MAKE_SHIFTED = ("def make_shifted(value):\n"
                "    return lambda t: t + value\n")
MAKE_SCALED = ("def make_scaled(scale):\n"
               "    def scaled(t):\n"
               "        return t * scale\n"
               "\n"
               "    return scaled\n")
SPLIT_PAIR = ("def split_pair(value):\n"
              "    return value, tf.zeros_like(value)\n")


class Closure:
    """The draws of the `closure` stream for one program (`seed`, `index`)."""

    def __init__(self, seed: int, index: int) -> None:
        rng = random.Random(f"{seed}:{index}:closure")
        self.value = rng.choices(CLOSURES, CLOSURE_WEIGHTS)[0]
        self.named = rng.random() < 0.5  # drawn whatever the value: the draws do not depend on the program


def closure_step(closure: Closure, e: str, w, path: list[str]) -> str:
    """The `closure` step applied to `e` (an operand); statements it needs go into `path`."""
    if closure.value in ("factory_def", "factory_lambda"):
        factory = "make_adder" if closure.value == "factory_def" else "make_shifted"
        _define(w, MAKE_ADDER if closure.value == "factory_def" else MAKE_SHIFTED)
        h = w.fresh("h")
        path.append(f"{h} = {e}")
        if closure.named:
            fn = w.fresh("fn")
            path.append(f"{fn} = {factory}({h})")
            return f"{fn}(tf.zeros_like({h}))"
        return f"{factory}({h})(tf.zeros_like({h}))"
    if closure.value == "curried":
        _define(w, MAKE_SCALED)
        if closure.named:
            fn = w.fresh("fn")
            path.append(f"{fn} = make_scaled(1.0)")
            return f"{fn}({e})"
        return f"make_scaled(1.0)({e})"
    if closure.value == "tuple_helper":
        _define(w, SPLIT_PAIR)
        if closure.named:
            pair = w.fresh("pair")
            path.append(f"{pair} = split_pair({e})")
            return f"{pair}[0]"
        return f"split_pair({e})[0]"
    raise ValueError(closure.value)


def _define(w, text: str) -> None:
    if text not in w.defs:
        w.defs.append(text)
