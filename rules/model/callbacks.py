"""Library functions that call a function they are given, as data: which argument is the function,
and what each of its parameters receives. The engine evaluates the function's summary with those
values, so a `.numpy()` inside `map(lambda t: t.numpy(), xs)` cuts `xs`, and a variable read inside
`tf.map_fn`'s function reaches the result. A function given to a call this table does not list is
still evaluated (calls.py), with every parameter receiving everything the call is given: unknown
means the result may depend on all of it.

Each entry: `function`, the (position, keyword) of the function (`functions` for several, as
`tf.cond`'s two branches); `receives`, one (how, position, keyword) per parameter, `how` being
`element` (an element of that argument: a row of a tensor, an item of a list), `whole` (the
argument itself) or `items` (one parameter per item: `tf.while_loop`'s `loop_vars`); `rest`: the
arguments from that position on are further iterables, one parameter each (`map(f, a, b)`); a
`fallback` names the argument a missing one stands for (`tf.scan` without `initializer` starts
from the first element).
"""
from __future__ import annotations

_MAP = {"function": (0, "fn"), "receives": (("element", 1, "elems"),)}
_FOLD = {"function": (0, "fn"), "receives": (("whole", 2, "initializer"), ("element", 1, "elems")),
         "fallback": {2: (1, "elems")}}

CALLBACKS: dict[str, dict] = {
    # Python
    "map": {"function": (0, None), "receives": (("element", 1, None),), "rest": 2},
    "functools.reduce": {"function": (0, None), "receives": (("whole", 2, "initial"), ("element", 1, None)),
                         "fallback": {2: (1, None)}},
    # TensorFlow
    "tensorflow.map_fn": _MAP,
    "tensorflow.vectorized_map": _MAP,
    "tensorflow.nest.map_structure": {"function": (0, "func"), "receives": (("element", 1, None),), "rest": 2},
    "tensorflow.scan": _FOLD,
    "tensorflow.foldl": _FOLD,
    "tensorflow.foldr": _FOLD,
    "tensorflow.while_loop": {"function": (1, "body"), "receives": (("items", 2, "loop_vars"),)},
    # Eagerly only one branch runs (`alternatives`): a constant branch loses the gradient (GG313).
    "tensorflow.cond": {"functions": ((1, "true_fn"), (2, "false_fn")), "receives": (), "alternatives": True},
    # Keras 3
    "keras.ops.vectorized_map": {"function": (0, "function"), "receives": (("element", 1, "elements"),)},
    "keras.ops.fori_loop": {"function": (2, "body_fun"), "receives": (("whole", 0, "lower"), ("whole", 3, "init_val"))},
    "keras.ops.while_loop": {"function": (1, "body"), "receives": (("items", 2, "loop_vars"),)},
    "keras.ops.cond": {"functions": ((1, "true_fn"), (2, "false_fn")), "receives": (), "alternatives": True},
}

# Loops TensorFlow builds as graph ops when traced (`tf.function`): there the gradient of the loop
# is defined for every input, and a cut inside the function gives zeros, not None (checked with
# TensorFlow by bench/oracle.py): a cut inside proves no missing gradient in a traced function.
GRAPH_LOOPS = {"tensorflow.map_fn", "tensorflow.scan", "tensorflow.foldl", "tensorflow.foldr", "tensorflow.while_loop",
               "keras.ops.fori_loop", "keras.ops.while_loop"}

# `tf.vectorized_map` traces its function even when called eagerly; an op it cannot vectorize
# (`tf.numpy_function`, GG107) makes it fall back to a graph `while_loop`: zeros, not None.
VECTORIZED_FALLBACK = {"tensorflow.vectorized_map": {"GG107"}, "keras.ops.vectorized_map": {"GG107"}}

# Aliases the imports resolve to the same functions.
for _alias, _name in (("tensorflow.compat.v2.map_fn", "tensorflow.map_fn"),
                      ("tensorflow.compat.v2.while_loop", "tensorflow.while_loop"),
                      ("tensorflow.compat.v2.cond", "tensorflow.cond"),
                      ("tensorflow.compat.v2.scan", "tensorflow.scan"),
                      ("keras.ops.core.fori_loop", "keras.ops.fori_loop"),
                      ("keras.ops.core.while_loop", "keras.ops.while_loop"),
                      ("keras.ops.core.cond", "keras.ops.cond"),
                      ("keras.ops.core.vectorized_map", "keras.ops.vectorized_map")):
    CALLBACKS[_alias] = CALLBACKS[_name]
    if _name in GRAPH_LOOPS:
        GRAPH_LOOPS.add(_alias)
    if _name in VECTORIZED_FALLBACK:
        VECTORIZED_FALLBACK[_alias] = VECTORIZED_FALLBACK[_name]
