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

`effect`, from a stream of its own (`...:effect`), is one more step after it: the value goes
through a helper that returns nothing but changes state its caller reads (none, the first value;
`method_appends`, an object's method appends it to the object's list; `self_appends`, a method
appends it through another method of its object and adds the list up; `param_appends`, a
function appends it to the list it is given; `nonlocal_total`, a nested function adds it to a
`nonlocal` total; `decorated`, a function of the program wrapped by a decorator of the program).

TensorFlow's label decides what the program does (runner.py); these shapes drew false GG302 before
the engine followed them (tests/programs/ok_*class_in_a_method*, ok_factory_*, ok_local_function_*,
ok_*appends*, ok_nested_function_rebinds_*, ok_decorator_*).

TensorFlow-free, like the generator.
"""
from __future__ import annotations

import random

from .steps import define, table_step

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


EFFECTS = ("none", "method_appends", "self_appends", "param_appends", "nonlocal_total", "decorated")
EFFECT_WEIGHTS = (0.84, 0.032, 0.032, 0.032, 0.032, 0.032)

COLLECTOR = ("class Collector:\n"
             "    def __init__(self):\n"
             "        self.items = []\n"
             "\n"
             "    def add(self, value):\n"
             "        self.items.append(value)\n")
BUFFER = ("class Buffer:\n"
          "    def __init__(self):\n"
          "        self.items = []\n"
          "\n"
          "    def push(self, value):\n"
          "        self.items.append(value)\n"
          "\n"
          "    def total(self, value):\n"
          "        self.push(value)\n"
          "        return tf.add_n(self.items)\n")
COLLECT = ("def collect(items, value):\n"
           "    items.append(value)\n")
SUMMED = ("def summed(value):\n"
          "    total = tf.zeros_like(value)\n"
          "\n"
          "    def add(t):\n"
          "        nonlocal total\n"
          "        total = total + t\n"
          "\n"
          "    add(value)\n"
          "    return total\n")
PASSTHROUGH = ("def passthrough(fn):\n"
               "    def wrapped(t):\n"
               "        return fn(t) * 1.0\n"
               "    return wrapped\n"
               "\n"
               "\n"
               "@passthrough\n"
               "def ident(t):\n"
               "    return t\n")


class Scope:
    """The draws of the `scope` stream for one program (`seed`, `index`)."""

    def __init__(self, seed: int, index: int) -> None:
        rng = random.Random(f"{seed}:{index}:scope")
        self.value = rng.choices(SCOPES, SCOPE_WEIGHTS)[0]
        # Drawn now, whatever the value, so the draws do not depend on the program.
        self.named = rng.random() < 0.5
        self.effect = random.Random(f"{seed}:{index}:effect").choices(EFFECTS, EFFECT_WEIGHTS)[0]


# Per value: the table entry of steps.py (definition, bind the operand first, the call, the stem
# of its name when `named`, how it is used).
_SCOPE_STEPS = {
    "callback_closure": (APPLY_FN, True, "apply_fn(lambda y: y + {e}, tf.zeros_like({e}))", None, "{f}"),
    "factory_class": (MAKE_READER, False, "make_reader({e})", "reader", "{f}.read()"),
    "self_alias_class": (BOX, False, "Box({e}).wrap().read()", None, "{f}"),
    "inner_receiver": (HOLDER, False, "Holder({e})", "holder", "{f}.take()"),
}


def scope_step(scope: Scope, e: str, w, path: list[str]) -> str:
    """The `scope` step applied to `e` (an operand); statements it needs go into `path`."""
    return table_step(_SCOPE_STEPS[scope.value], scope.named, e, w, path)


def effect_step(scope: Scope, e: str, w, path: list[str]) -> str:
    """The `effect` step applied to `e` (an operand); statements it needs go into `path`."""
    if scope.effect == "method_appends":
        define(w, COLLECTOR)
        collector = w.fresh("collector")
        path += [f"{collector} = Collector()", f"{collector}.add({e})"]
        return f"tf.add_n({collector}.items)"
    if scope.effect == "self_appends":
        define(w, BUFFER)
        return f"Buffer().total({e})"
    if scope.effect == "param_appends":
        define(w, COLLECT)
        terms = w.fresh("terms")
        path += [f"{terms} = []", f"collect({terms}, {e})"]
        return f"tf.add_n({terms})"
    if scope.effect == "nonlocal_total":
        define(w, SUMMED)
        return f"summed({e})"
    if scope.effect == "decorated":
        define(w, PASSTHROUGH)
        return f"ident({e})"
    raise ValueError(scope.effect)
