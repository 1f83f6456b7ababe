"""An editor's analysis, part by part (rules/report/parts.py), is the whole module's analysis.

After every edit of a random sequence, the findings of the incremental analysis (an editor's
incremental parser and the parts it keeps) must equal a fresh analysis of the same text: the same
diagnostics, spans, messages and fixes. And so must the gradient lens: its hints and hovers. The
documents are the corpus programs, alone and joined several to a module (their names meet:
`model`, `loss`, `w` bound by one program and read by the next), and notebooks of them; the edits
type and delete characters anywhere, add and remove lines inside and outside functions and
classes, bind names other parts read, and add imports, classes and methods.
"""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from gradguard.rules import api
from gradguard.rules.lens.lens import Lens
from gradguard.rules.model.record import recording
from gradguard.rules.project.config import Config
from gradguard.rules.source.incremental import IncrementalParser
from gradguard.rules.source.notebook import join_cells

PROGRAMS = sorted((Path(__file__).parent / "programs").glob("*.py"))
CONFIG = Config()

# Lines an edit adds, at the indentation of the line it goes before (or at the top level).
LINES = [
    "model = None", "loss = loss * 2", "w = tf.Variable(1.0)", "x = x.numpy()", "global model",
    "model = keras.Sequential([keras.layers.Dense(1)])", "import numpy as np", "grads = None",
    "optimizer = tf.keras.optimizers.Adam()", "def learn(self):\n    return self", "pass", "y = tf.round(y)",
    "for v in model.trainable_variables:\n    v.assign(v)", "del model", "tape = tf.GradientTape()",
]
TOP_LEVEL = [
    "def helper(x):\n    return x.numpy()\n", "class Agent:\n    def learn(self, x):\n        return x\n",
    "from tensorflow import keras\n", "model = tf.keras.Sequential([tf.keras.layers.Dense(2)])\n",
    "def loss_fn(y, p):\n    return tf.reduce_mean(tf.square(y - p))\n", "SEED = 3\n", "agent = Agent()\n",
    "ns.model = model\n", "history.append(loss)\n", "del model\n", "if SEED:\n    model = None\n",
    "def train(x):\n    loss = loss + x\n    return loss\n", "models = [model]\n", "w.assign(w * 2)\n",
]
CHARACTERS = ["x", "_", "1", " ", "(", ")", ":", "#", ".", ",", "\n", "'", "="]


def _module(rng: random.Random, count: int) -> str:
    return "\n\n".join(rng.choice(PROGRAMS).read_text(encoding="utf-8") for _ in range(count))


def _edit(rng: random.Random, text: str) -> str:
    lines = text.split("\n")
    index = rng.randrange(len(lines))
    line = lines[index]
    kind = rng.randrange(7)
    if kind == 0:    # type a character
        column = rng.randint(0, len(line))
        lines[index] = line[:column] + rng.choice(CHARACTERS) + line[column:]
    elif kind == 1:  # delete one
        if line:
            column = rng.randrange(len(line))
            lines[index] = line[:column] + line[column + 1:]
    elif kind == 2:  # extend a name where it is bound or read
        words = [i for i in range(1, len(line)) if line[i - 1].isalpha() and not line[i].isalnum()]
        if words:
            column = rng.choice(words)
            lines[index] = line[:column] + rng.choice("sx_2") + line[column:]
    elif kind == 3:  # a line added where the code around it is indented
        indent = line[: len(line) - len(line.lstrip())]
        added = rng.choice(LINES).replace("\n", "\n" + indent)
        lines.insert(index, indent + added)
    elif kind == 4:  # a line removed
        del lines[index]
    elif kind == 5:  # a line repeated
        lines.insert(index, line)
    else:            # a top-level statement before a top-level line
        tops = [i for i, text in enumerate(lines) if text and not text[0].isspace()] or [0]
        lines.insert(rng.choice(tops), rng.choice(TOP_LEVEL))
    return "\n".join(lines) or "\n"


def _lens_view(diagnostics, recorder) -> tuple:
    """What the lens shows: its inlay hints, and the hover on every line of every tape."""
    if recorder.analysis is None:
        return ()
    lens = Lens(recorder.analysis, recorder.values, diagnostics)
    hovers = []
    for tape in recorder.analysis.tapes:
        first, last = tape.with_node.lineno, tape.with_node.end_lineno or tape.with_node.lineno
        for line in range(first, last + 1):
            text = lens.doc.lines[line - 1]
            hovers.append((line, lens.hover_lines(line, len(text) - len(text.lstrip()))))
    return tuple(lens.hints()), tuple(sorted(hovers, key=repr))


def _same_as_fresh(parser: IncrementalParser, text: str, lens: bool) -> None:
    if not lens:
        assert api.lint_tolerant(text, "t.py", CONFIG, parser=parser) == api.lint_tolerant(text, "t.py", CONFIG)
        return
    with recording() as recorder:
        incremental = api.lint_tolerant(text, "t.py", CONFIG, parser=parser)
    incremental_view = _lens_view(incremental, recorder)
    with recording() as recorder:
        fresh = api.lint_tolerant(text, "t.py", CONFIG)
    assert incremental == fresh
    assert incremental_view == _lens_view(fresh, recorder)


def _replay(text: str, rng: random.Random, edits: int, lens: bool = False) -> None:
    parser = IncrementalParser("t.py")
    _same_as_fresh(parser, text, lens)
    for _ in range(edits):
        text = _edit(rng, text)
        _same_as_fresh(parser, text, lens)


@pytest.mark.parametrize("seed", range(12))
def test_a_module_of_several_programs_after_random_edits(seed):
    rng = random.Random(seed)
    _replay(_module(rng, rng.randint(2, 5)), rng, edits=25, lens=seed % 3 == 0)


@pytest.mark.parametrize("seed", range(4))
def test_the_lens_turned_on_and_off_between_edits(seed):
    """A part analysed without the lens has no values to show: once the lens is on, it is analysed
    again, even where the parts are otherwise kept without a check each (the same text twice too)."""
    rng = random.Random(f"lens:{seed}")
    text = _module(rng, rng.randint(2, 4))
    parser = IncrementalParser("t.py")
    for _ in range(12):
        if rng.random() < 0.7:
            text = _edit(rng, text)
        _same_as_fresh(parser, text, lens=rng.random() < 0.5)


@pytest.mark.parametrize("seed", range(3))
def test_a_notebook_of_several_programs_after_random_edits(seed):
    rng = random.Random(f"notebook:{seed}")
    cells = [rng.choice(PROGRAMS).read_text(encoding="utf-8") for _ in range(rng.randint(2, 4))]
    parser = IncrementalParser("t.ipynb")
    for _ in range(15):
        index = rng.randrange(len(cells))
        cells[index] = _edit(rng, cells[index])
        source, _ = join_cells(cells)
        _same_as_fresh(parser, source, lens=False)


def test_every_corpus_program_after_random_edits():
    """Each program of the corpus alone (the issue's 'every corpus program'), a few edits each."""
    for number, path in enumerate(PROGRAMS):
        rng = random.Random(number)
        _replay(path.read_text(encoding="utf-8"), rng, edits=4)


def test_a_class_kept_by_the_editor_is_judged_again_with_new_imports():
    # A layer class proven weightless (model/weights.py) is an unchanged node after an edit of
    # the imports: what it was proven with (`tf.lookup`, `tf.constant`) may mean nothing now.
    text = (Path(__file__).parent / "programs" / "ok_weightless_layer_class_before_embedding.py").read_text(encoding="utf-8")
    parser = IncrementalParser("t.py")
    _same_as_fresh(parser, text, lens=False)
    _same_as_fresh(parser, text.replace("import tensorflow as tf", "import tens#orflow as tf"), lens=False)


def test_an_edit_inside_one_function_analyses_only_its_part():
    """The point of it: a keystroke in one of two independent functions re-analyses that one."""
    source = (
        "import tensorflow as tf\n\n"
        "w = tf.Variable(1.0)\nv = tf.Variable(2.0)\n\n\n"
        "def first(x):\n    with tf.GradientTape() as tape:\n        loss = w * x\n"
        "    return tape.gradient(loss, [w])\n\n\n"
        "def second(x):\n    with tf.GradientTape() as tape:\n        loss = tf.round(v * x)\n"
        "    return tape.gradient(loss, [v])\n"
    )
    parser = IncrementalParser("t.py")
    api.lint_tolerant(source, "t.py", CONFIG, parser=parser)
    cache = api._part_caches[parser]
    analysed = cache.analysed
    edited = source.replace("loss = w * x", "loss = w * x * 2")
    found = api.lint_tolerant(edited, "t.py", CONFIG, parser=parser)
    assert cache.analysed - analysed == 1          # `first` and `w`, not `second` and `v`
    assert [d.code for d in found] == ["GG401"]    # `second`'s finding, kept
    assert found == api.lint_tolerant(edited, "t.py", CONFIG)


# The partition itself: each link the analysis could follow keeps two statements in one part.

def _parts_of(source: str) -> list[list[str]]:
    """The parts of `source`, each as the first words of its statements."""
    import ast

    from gradguard.rules.source.components import components, is_shared, names_of

    body = ast.parse(source).body
    lines = source.splitlines(True)
    from gradguard.rules.model.library import COLLECTION_ADDERS

    names = [None if is_shared(stmt, i) else names_of(stmt, "".join(lines[stmt.lineno - 1: stmt.end_lineno]),
                                                      frozenset(COLLECTION_ADDERS))
             for i, stmt in enumerate(body)]
    return sorted(sorted(lines[body[i].lineno - 1].split("(")[0].split("=")[0].strip() for i in group)
                  for group in components(names))


def test_parts_link_what_a_name_a_method_or_a_class_can_carry():
    assert _parts_of(
        "import tensorflow as tf\n"
        "a = 1\n"
        "def uses_a(): return a\n"                      # a function reading `a` when it runs
        "b = 2\n"
        "def alone(x): return x\n"                      # reads nothing of the module
        "class Buffer:\n    def sample(self): pass\n"
        "def draws(agent): return agent.sample()\n"     # `.sample` may be Buffer's method
        "def makes(): \n    class Net: pass\n"          # a class is found by name, wherever defined
        "net = Net()\n"
        "def sets(): \n    global c\n    c = 3\n"       # binds `c` when it runs
        "print(c)\n"
    ) == [["a", "def uses_a"], ["b"], ["class Buffer:", "def draws"], ["def alone"], ["def makes", "net"],
          ["def sets", "print"]]


def test_top_level_code_links_to_the_bindings_before_it():
    # Each reader to the binding before it; a statement that binds `model` before reading it is
    # its own (what it creates is its own), one binding it on a branch only joins the one before;
    # `print` runs before any binding of `model` (and `b` reads what nobody binds).
    assert _parts_of(
        "print(model)\n"
        "model = 1\n"
        "first = model\n"
        "if first:\n    model = 3\n"
        "model = 2\n"
        "b = len([])\n"
        "after = model\n"
    ) == [["after", "model"], ["b"], ["first", "if first:", "model"], ["print"]]


def test_notebook_cells_that_each_build_their_model_are_apart():
    cell = ("model = keras.Sequential()\nmodel.add(keras.layers.Dense(1))\n"
            "with tf.GradientTape() as tape:\n    loss = model(x)\n"
            "grads = tape.gradient(loss, model.trainable_variables)\n")
    assert _parts_of("import tensorflow as tf\n" + cell + cell) == [
        ["grads", "model", "model.add", "with tf.GradientTape"]] * 2
    # An attribute set on a name is read back by its text, whatever the name is bound to next.
    assert _parts_of("ns = make()\nns.model = m\nns = make()\nprint(ns.model)\n") == [
        ["ns", "ns", "ns.model", "print"]]


def test_a_function_reads_the_binding_before_each_statement_that_may_run_it():
    # `report` reads `model` when it runs: at the end (the last binding) and when `report()`
    # runs it (the binding before that); `model = 1` is read by nobody, nor is `other`'s binding
    # run by anything that runs `report`.
    assert _parts_of(
        "model = 1\n"
        "def report():\n    return model\n"
        "model = 2\n"
        "report()\n"
        "model = 3\n"
        "def other():\n    return 0\n"
        "other()\n"
    ) == [["def other", "other"], ["def report", "model", "model", "report"], ["model"]]
    # A function bound to a name that a run function calls is run there too: `step` reads `lr`
    # where `train()` runs, through `hook` (and where `hook = step` is, which gets its value).
    assert _parts_of(
        "lr = 1\n"
        "def step():\n    return lr\n"
        "lr = 2\n"
        "hook = step\n"
        "def train():\n    return hook()\n"
        "train()\n"
        "lr = 3\n"
    ) == [["def step", "def train", "hook", "lr", "lr", "train"], ["lr"]]


def test_a_class_is_found_by_its_name_only_where_nothing_binds_the_name():
    # `run` defines its own `Agent`; the module's `Agent` is bound before `agent = Agent()`, so
    # that read is of the module's class. `Net` is bound nowhere at the top level: `net = Net()`
    # may find the class `make` defines (the engine looks it up by name), and so may `Sub`'s base.
    assert _parts_of(
        "class Agent:\n    pass\n"
        "def run():\n    class Agent:\n        pass\n    return Agent()\n"
        "agent = Agent()\n"
        "def make():\n    class Net:\n        pass\n"
        "net = Net()\n"
        "def other():\n    class Sub(Net):\n        pass\n"
    ) == [["agent", "class Agent:"], ["def make", "def other", "net"], ["def run"]]


def test_a_statement_python_cannot_read_alone_is_linked_to_everything():
    # (`ast` parses a `nonlocal` with no binding; Python's symbol table refuses it.)
    assert _parts_of("a = 1\nb = 2\ndef f():\n    nonlocal q\n") == [["a", "b", "def f"]]


def _assert_parts_find(source: str, expected: list[tuple[str, int]]) -> None:
    """Linted part by part (an incremental parser), `source` gives `expected` (code, line), and
    exactly what a fresh whole-module analysis gives."""
    found = api.lint_tolerant(source, "t.py", CONFIG, parser=IncrementalParser("t.py"))
    assert [(d.code, d.span.line) for d in found] == expected
    assert found == api.lint_tolerant(source, "t.py", CONFIG)


def test_a_function_reading_its_own_name_before_binding_it_reads_the_modules():
    """Python raises UnboundLocalError there; the engine reads the module's `w` (and finds the
    rounding), so the function and the module's `w` are one part."""
    source = (
        "import tensorflow as tf\n\n"
        "w = tf.Variable(1.0)\n\n\n"
        "def train(x):\n    with tf.GradientTape() as tape:\n        loss = tf.reduce_sum(tf.round(w * x))\n"
        "    grads = tape.gradient(loss, [w])\n    w = None\n    return grads\n"
    )
    _assert_parts_find(source, [("GG401", 8)])


@pytest.mark.parametrize(("function", "early"), [
    ("def f(g):\n    w = w - 0.1 * g\n", {"w"}),
    ("def f():\n    loss = (\n        loss + 1)\n", {"loss"}),
    ("def f():\n    x += 1\n", {"x"}),
    ("def f(xs):\n    for s in xs:\n        if s:\n            print(prev)\n        prev = s\n", {"prev"}),
    ("def f():\n    g = lambda: h\n    h = 1\n    return g\n", {"h"}),
    ("def f(x):\n    y = x\n    return y\n", set()),
    ("def f(xs):\n    for x in xs:\n        t = x\n    return t\n", set()),
    ("def f(xs):\n    return [x for x in xs]\n", set()),
    ("def f():\n    with open('a') as fh:\n        fh.read()\n", set()),
    ("def f():\n    global w\n    w = w + 1\n", set()),
    ("def f():\n    x = 0\n    x += 1\n", set()),
    # What Python binds and the engine does not is read from the module wherever it is read.
    ("def f():\n    try:\n        g()\n    except E as e:\n        print(e)\n", {"e", "g", "E"}),
    ("def f():\n    import numpy as np\n    return np.ones(3)\n", {"np"}),
])
def test_which_names_a_function_may_read_before_binding_them(function, early):
    import ast

    from gradguard.rules.source.components import names_of

    assert names_of(ast.parse(function).body[0], function).later_reads - {"print", "open"} == early | (
        {"w"} if "global w" in function else set())


def test_an_attribute_set_at_the_top_level_binds_its_name_for_later_readers():
    """`ns.model = ...` where nothing binds `ns`: the engine keeps the model under `ns.model`, and
    the tape two statements later reads it, so the three are one part."""
    source = (
        "import tensorflow as tf\nfrom tensorflow import keras\n\n"
        "ns.model = keras.Sequential([keras.layers.Dense(1)])\n\n"
        "x = tf.ones((2, 3))\n"
        "with tf.GradientTape() as tape:\n    loss = tf.reduce_sum(tf.round(ns.model(x)))\n"
        "grads = tape.gradient(loss, ns.model.trainable_variables)\n"
    )
    _assert_parts_find(source, [("GG401", 8)])
    assert _parts_of("ns.model = 1\nhistory.append(2)\nprint(ns.model, history)\n") == [
        ["history.append", "ns.model", "print"]]


def test_a_line_added_in_the_last_function_keeps_the_parts_above():
    source = (
        "import tensorflow as tf\n\n"
        "w = tf.Variable(1.0)\n\n\n"
        "def first(x):\n    with tf.GradientTape() as tape:\n        loss = tf.round(w * x)\n"
        "    return tape.gradient(loss, [w])\n\n\n"
        "import numpy as np\n\n\n"  # an import below the edit moves: the parts above stay
        "def second(x):\n    v = tf.Variable(2.0)\n    with tf.GradientTape() as tape:\n        loss = v * x\n"
        "    return tape.gradient(loss, [v])\n"
    )
    parser = IncrementalParser("t.py")
    api.lint_tolerant(source, "t.py", CONFIG, parser=parser)
    cache = api._part_caches[parser]
    analysed, reused = cache.analysed, cache.reused
    edited = source.replace("def first(x):\n", "def first(x):\n    x = x * 1\n")
    found = api.lint_tolerant(edited, "t.py", CONFIG, parser=parser)
    assert found == api.lint_tolerant(edited, "t.py", CONFIG) and [d.code for d in found] == ["GG401"]
    edited_again = edited.replace("        loss = v * x\n", "        loss = v * x\n        loss = loss * 2\n")
    assert api.lint_tolerant(edited_again, "t.py", CONFIG, parser=parser) == api.lint_tolerant(edited_again, "t.py", CONFIG)
    assert cache.reused - reused >= 1  # `first` and `w`, above the second edit, were not analysed again


def test_a_compiled_loss_is_the_function_its_name_holds_at_the_compile():
    """Two `def loss` in one module (two notebook cells): `compile(loss=loss)` compiles the one
    bound above it, as Python does, not the module's last `def loss` (the engine used to take
    that one by name, which another part of the module holds)."""
    source = (
        "import tensorflow as tf\nimport keras\n\n\n"
        "def loss(y_true, y_pred):\n    return tf.reduce_mean(tf.square(y_true - tf.round(y_pred)))\n\n\n"
        "model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])\n"
        "model.compile(optimizer='adam', loss=loss)\n\n\n"
        "def loss():\n    return 0.0\n"
    )
    _assert_parts_find(source, [("GG401", 6)])


def test_a_module_that_adds_the_penalties_anywhere_is_asked_as_a_whole():
    """GG311 is silent where the module reads `model.losses` somewhere (a helper may add them to
    this loss): a question about the whole module, which a part alone cannot answer."""
    regularized = (
        "model = keras.Sequential([keras.layers.Dense(1, kernel_regularizer=keras.regularizers.L2(0.01))])\n"
        "x = tf.ones((2, 3))\n"
        "with tf.GradientTape() as tape:\n    loss = tf.reduce_mean(model(x))\n"
        "grads = tape.gradient(loss, model.trainable_variables)\n"
    )
    header = "import tensorflow as tf\nimport keras\n\n"
    _assert_parts_find(header + regularized, [("GG311", 8)])
    _assert_parts_find(header + regularized + "\nother = keras.Sequential()\nprint(other.losses)\n", [])


def test_a_variable_rebound_from_itself_is_reported_where_a_gradient_asks_for_it():
    """GG304 compares the variable a statement rebinds with what the gradients ask for, not
    names: a second cell's own `w`, rebound after its last use, is not the first cell's."""
    first = ("w = tf.Variable(1.0)\nwith tf.GradientTape() as tape:\n    loss = w * 2.0\n"
             "g = tape.gradient(loss, [w])\n")
    header = "import tensorflow as tf\n\n"
    _assert_parts_find(header + first + "\nw = tf.Variable(3.0)\nw = w - 0.1\n", [])
    _assert_parts_find(header + first + "w = w - 0.1 * g[0]\n", [("GG304", 7)])


@pytest.mark.parametrize(("statement", "needs"), [
    ("model = build()\n", {"build"}),                                 # binds `model` before reading it
    ("model = model + 1\n", {"model"}),
    ("x += 1\n", {"x"}),
    ("for x in xs:\n    total = x\n", {"xs"}),                         # a loop's body binds for the engine
    ("for x in xs:\n    print(total)\n    total = x\n", {"xs", "print", "total"}),  # read first, on the first round
    ("with tf.GradientTape() as tape:\n    loss = f(x)\ng = 1\n", {"tf", "f", "x"}),
    ("if c:\n    model = 3\n", {"c", "model"}),                        # a branch joins the value before
    ("try:\n    import numpy as np\nexcept ImportError as e:\n    print(e)\n", {"ImportError", "print", "e"}),
    ("x: int\nprint(x)\n", {"int", "print", "x"}),                    # an annotation binds nothing
    ("ns.model = m\n", {"ns", "m"}),                                  # sets an attribute of the one before
    ("def f(a=lr):\n    return a\n", {"lr"}),                          # defaults run before the name is bound
    ("del model\n", {"model"}),                                      # what is read after it: the binding before
])
def test_which_names_top_level_code_may_read_from_the_statements_before(statement, needs):
    import ast

    from gradguard.rules.source.components import names_of

    tree = ast.parse(statement)
    found = set()
    for stmt in tree.body:  # several statements: each one's own
        text = "".join(statement.splitlines(True)[stmt.lineno - 1: stmt.end_lineno])
        found |= names_of(stmt, text).needs
    assert found == needs
