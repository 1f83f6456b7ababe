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

from .steps import table_step

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


# Per value: the table entry of steps.py (definition, bind the operand first, the call that makes
# the function or tuple, the stem of its name when `named`, how it is used).
_STEPS = {
    "factory_def": (MAKE_ADDER, True, "make_adder({e})", "fn", "{f}(tf.zeros_like({e}))"),
    "factory_lambda": (MAKE_SHIFTED, True, "make_shifted({e})", "fn", "{f}(tf.zeros_like({e}))"),
    "curried": (MAKE_SCALED, False, "make_scaled(1.0)", "fn", "{f}({e})"),
    "tuple_helper": (SPLIT_PAIR, False, "split_pair({e})", "pair", "{f}[0]"),
}


def closure_step(closure: Closure, e: str, w, path: list[str]) -> str:
    """The `closure` step applied to `e` (an operand); statements it needs go into `path`."""
    return table_step(_STEPS[closure.value], closure.named, e, w, path)
