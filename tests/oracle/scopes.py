"""The generator's `scope` dimension: where the names a helper of the first path reads are bound,
drawn from a random stream of its own (`Random(f"{seed}:{index}:scope")`) so that at the first
value, `none`, a program keeps the exact text it had before the dimension existed. Each value is
one more step at the end of the first path, the value passed on unchanged, through a helper that
reads it from a scope around it rather than from its own parameter:

* `callback_closure`  a function of the program calls the function it is given, and the lambda
                      handed to it reads the path's value from the enclosing scope
                      (`apply_fn(lambda y: y + h, tf.zeros_like(h))`);
* `factory_class`     a factory function defines a class whose method returns the factory's
                      argument (`make_reader(h).read()`, or the reader bound to a name first);
* `self_alias_class`  an object holds the value (`Box(h)`), and a method defines a class whose
                      method reads it through an alias of `self` (`outer = self` ... `outer.value`);
* `inner_receiver`    a method defines a class whose own method names its receiver otherwise and
                      reads the outer method's `self` (`def read(inner): return self.value`).

TensorFlow's label decides what the program does (runner.py); these shapes drew false GG302 before
the engine followed them (tests/programs/ok_*class_in_a_method*, ok_factory_*, ok_local_function_*).

TensorFlow-free, like the generator.
"""
from __future__ import annotations

import random

SCOPES = ("none", "callback_closure", "factory_class", "self_alias_class", "inner_receiver")
SCOPE_WEIGHTS = (0.84, 0.04, 0.04, 0.04, 0.04)

APPLY_FN = ("def apply_fn(fn, y):\n"
            "    return fn(y)\n")
MAKE_READER = ("def make_reader(value):\n"
               "    class Reader:\n"
               "        def read(self):\n"
               "            return value\n"
               "\n"
               "    return Reader()\n")
BOX = ("class Box:\n"
       "    def __init__(self, value):\n"
       "        self.value = value\n"
       "\n"
       "    def wrap(self):\n"
       "        outer = self\n"
       "\n"
       "        class Reader:\n"
       "            def read(self):\n"
       "                return outer.value\n"
       "\n"
       "        return Reader()\n")
HOLDER = ("class Holder:\n"
          "    def __init__(self, value):\n"
          "        self.value = value\n"
          "\n"
          "    def take(self):\n"
          "        class Reader:\n"
          "            def read(inner):\n"
          "                return self.value\n"
          "\n"
          "        return Reader().read()\n")


class Scope:
    """The draws of the `scope` stream for one program (`seed`, `index`)."""

    def __init__(self, seed: int, index: int) -> None:
        rng = random.Random(f"{seed}:{index}:scope")
        self.value = rng.choices(SCOPES, SCOPE_WEIGHTS)[0]
        # Drawn now, whatever the value, so the draws do not depend on the program.
        self.named = rng.random() < 0.5


def scope_step(scope: Scope, e: str, w, path: list[str]) -> str:
    """The `scope` step applied to `e` (an operand); statements it needs go into `path`."""
    if scope.value == "callback_closure":
        _define(w, APPLY_FN)
        h = w.fresh("h")
        path.append(f"{h} = {e}")
        return f"apply_fn(lambda y: y + {h}, tf.zeros_like({h}))"
    if scope.value == "factory_class":
        _define(w, MAKE_READER)
        if scope.named:
            reader = w.fresh("reader")
            path.append(f"{reader} = make_reader({e})")
            return f"{reader}.read()"
        return f"make_reader({e}).read()"
    if scope.value == "self_alias_class":
        _define(w, BOX)
        return f"Box({e}).wrap().read()"
    if scope.value == "inner_receiver":
        _define(w, HOLDER)
        if scope.named:
            holder = w.fresh("holder")
            path.append(f"{holder} = Holder({e})")
            return f"{holder}.take()"
        return f"Holder({e}).take()"
    raise ValueError(scope.value)


def _define(w, text: str) -> None:
    if text not in w.defs:
        w.defs.append(text)
