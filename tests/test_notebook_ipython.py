"""Notebook cells in IPython syntax (rules/source/ipython.py), checked against IPython itself.

IPython is the ground truth: `InteractiveShell.transform_cell` (the static transforms of
`TransformerManager`, then automagic for a one-line cell), traced line by line through IPython's
own transformers. For each cell of the corpus, our Python for the cell

- parses exactly when IPython's transformed text parses, under IPython 9's dedent or IPython 7/8's
  (a notebook may run under either), and, for a cell magic that runs its
  body as a cell (`%%time`, `%%capture`), exactly when IPython's transformed body parses (what the
  magic runs);
- has as many lines as the cell, and keeps every line IPython leaves as Python, as IPython leaves
  it (dedented the same way); a line IPython rewrites is rewritten here too (to `pass`, to
  IPython's own call, or to an empty line where IPython joined it to the line before).

The analyzer never imports IPython (tests/test_structure.py checks the run-time imports; the
measurements that decided it are in the module docstring of rules/source/ipython.py).
"""
from __future__ import annotations

import ast
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from IPython.core import inputtransformer2 as it2
from IPython.core.interactiveshell import InteractiveShell

from gradguard.rules.source.ipython import KERNEL_LINE_MAGICS, LINE_MAGICS, PYTHON_CELL_MAGICS, cell_python
from gradguard.rules.source.text import split_lines


# -- the ground truth -------------------------------------------------------------------------


def _leading_indent_7(lines):
    """IPython 7 and 8's leading_indent: the first line's indentation is removed from every line
    that starts with it (IPython 9 removes the indentation all lines share)."""
    if not lines:
        return lines
    indent = re.match(r"[ \t]*", lines[0]).group()
    return [line[len(indent):] if indent and line.startswith(indent) else line for line in lines]


def kernel_shell() -> InteractiveShell:
    """IPython's shell with the line magics ipykernel adds (a notebook's kernel is ipykernel's)."""
    shell = InteractiveShell.instance()
    for name in KERNEL_LINE_MAGICS - set(shell.magics_manager.magics["line"]):
        shell.register_magic_function(lambda line: None, "line", name)
    return shell


@pytest.fixture(scope="module")
def shell():
    return kernel_shell()


def traced(shell, cell: str, *, ipython7: bool = False):
    """IPython's transformed cell as lines, and for each the index of the cell line it keeps
    (None for a line IPython rewrote). Raises what IPython raises."""
    manager = it2.TransformerManager()
    if ipython7:
        manager.cleanup_transforms = [_leading_indent_7 if t is it2.leading_indent else t
                                      for t in manager.cleanup_transforms]
    text = cell if cell.endswith("\n") else cell + "\n"
    lines = text.splitlines(keepends=True)
    origin: list[int | None] = list(range(len(lines)))
    for transform in manager.cleanup_transforms + manager.line_transforms:
        new = transform(lines)
        if transform is it2.leading_empty_lines:
            origin = origin[len(lines) - len(new):]
        elif transform is it2.cell_magic and new is not lines:
            origin = [None]
        assert len(new) == len(origin)
        lines = new
    for _ in range(it2.TRANSFORM_LOOP_LIMIT):
        changed, new = manager.do_one_token_transform(lines)
        if not changed:
            break
        same = 0
        while same < len(new) - 1 and new[same] == lines[same]:
            same += 1
        after = len(new) - same - 1  # one line replaced lines[same:len(lines) - after]
        assert new[len(new) - after:] == lines[len(lines) - after:]
        origin = origin[:same] + [None] + origin[len(origin) - after:]
        lines = new
    static = "".join(lines)
    if not ipython7:
        assert static == manager.transform_cell(cell)  # the trace is IPython's own result
    if len(static.splitlines()) == 1:  # the shell's automagic, for a one-line cell only
        with shell.builtin_trap:
            line = shell.prefilter_manager.prefilter_lines(static) + "\n"
        if line != static:
            lines, origin = [line], [None]
    if not ipython7:
        assert "".join(lines) == shell.transform_cell(cell)
    return lines, origin


def parses(text: str) -> bool:
    try:
        ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return True


def ipython_view(shell, cell: str):
    """(parses, lines, origin) of the IPython version the cell runs under: IPython 9 unless only
    IPython 7/8's dedent makes it run; parses is False where IPython raises."""
    results = []
    for ipython7 in (False, True):
        try:
            lines, origin = traced(shell, cell, ipython7=ipython7)
        except Exception:  # noqa: BLE001 - IndentationError, or the transformer's own error: the cell fails
            results.append((False, None, None))
            continue
        results.append((_runs(shell, lines), lines, origin))
    if not results[0][0] and results[1][0]:
        return results[1]
    return results[0]


def _runs(shell, lines) -> bool:
    """The transformed cell parses, and for a cell magic that runs its body, the body does."""
    text = "".join(lines)
    if not parses(text):
        return False
    call = _cell_magic_call(text)
    if call is not None and call[0] in PYTHON_CELL_MAGICS:
        return ipython_view(shell, call[1])[0]
    return True


def _cell_magic_call(text: str) -> tuple[str, str] | None:
    """(magic name, body) of IPython's `get_ipython().run_cell_magic(name, line, body)`."""
    tree = ast.parse(text)
    if len(tree.body) != 1 or not isinstance(tree.body[0], ast.Expr):
        return None
    call = tree.body[0].value
    if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr == "run_cell_magic":
        return call.args[0].value, call.args[2].value
    return None


def assert_like_ipython(shell, cell: str) -> None:
    ours = cell_python(cell)
    assert len(ours.lines) == len(split_lines(cell)) == len(ours.indents) == len(ours.transformed)
    assert all(line.endswith("\n") and "\n" not in line[:-1] and "\r" not in line for line in ours.lines)
    runs, lines, origin = ipython_view(shell, cell)
    assert ours.parses == parses(ours.text) == runs, (cell, ours.text, lines)
    if not any(ours.transformed) and not any(ours.indents):
        return  # plain Python is analysed as written (IPython may dedent a comment or run `pwd` as a magic)
    if lines is not None:  # else IPython raises: there is no line of its to compare with
        _assert_lines_match(shell, split_lines(cell), ours, 0, lines, origin)


def _assert_lines_match(shell, cell_lines, ours, offset, lines, origin):
    """Our lines from `offset` on against IPython's `lines` for the cell's text from there (a cell
    magic's body starts after the magic's line); origin[n] + offset is the cell line IPython's
    line n keeps."""
    call = _cell_magic_call("".join(lines)) if origin == [None] and parses("".join(lines)) else None
    if call is not None and call[0] in PYTHON_CELL_MAGICS:  # the body is a cell of its own
        magic = next(i for i in range(offset, len(ours.lines)) if cell_lines[i].strip())
        assert ours.lines[magic] == "pass\n" and ours.transformed[magic]
        assert not "".join(ours.lines[offset:magic]).strip()
        _runs, body_lines, body_origin = ipython_view(shell, call[1])
        if body_lines is not None:
            _assert_lines_match(shell, cell_lines, ours, magic + 1, body_lines, body_origin)
        return
    kept = {index + offset: number for number, index in enumerate(origin) if index is not None}
    rewritten = {lines[number].rstrip("\r\n") + "\n" for number, index in enumerate(origin) if index is None}
    python_as_is = not any(ours.transformed[offset:])  # kept as Python (IPython may run `pwd` as a magic)
    for index in range(offset, len(ours.lines)):
        line, indent = ours.lines[index], ours.indents[index]
        if not cell_lines[index].strip():
            assert not line.strip()
        elif index in kept:  # IPython leaves it as Python: the same line, dedented the same way
            assert line == lines[kept[index]].rstrip("\r\n") + "\n", (index, line, lines)
            assert cell_lines[index].startswith(indent)
            assert cell_lines[index][len(indent):].rstrip("\r\n") + "\n" == line
        elif ours.transformed[index]:  # rewritten: `pass`, IPython's own line, or joined to the one before
            assert not line.strip() or line.strip() == "pass" or line in rewritten, (index, line, lines)
        else:
            assert python_as_is, (index, line, lines)


# -- the corpus: shapes seen in real notebooks (tensorflow/docs, tensorflow/examples), edge cases ---


REAL = {
    "indented first line": (
        "  def read_image(filename):\n    fd = None\n    if(filename.startswith('http')):\n"
        "      fd = urlopen(filename)\n    else:\n      fd = tf.io.gfile.GFile(filename, 'rb')\n\n"
        "    image_np = np.expand_dims(\n        image_unscaled.astype(np.float32) / 255., axis=0)\n"
        "    return image_np"),
    "every line indented by one space": (
        " @tf.experimental.dispatch_for_unary_elementwise_apis(MaskedTensor)\n"
        " def masked_tensor_unary_elementwise_api_handler(api_func, x):\n"
        "   return MaskedTensor(api_func(x.values), x.mask)"),
    "one-space loop": " for x in windows.flat_map(lambda x: x).take(30):\n   print(x.numpy(), end=' ')",
    "continued call, indented": (" tf.strings.unicode_encode(\n     tf.RaggedTensor.from_sparse(batch_chars_sparse),\n"
                                 "     output_encoding='UTF-8')"),
    "only the first lines indented (runs under IPython 7/8)": (
        " my_seq = tf.keras.Sequential([tf.keras.layers.Conv2D(1, (1, 1)),\n"
        "                               tf.keras.layers.BatchNormalization()])\nmy_seq(tf.zeros([1, 2, 3, 3]))"),
    "shell continued by one space": ("!saved_model_cli run --dir saved-model-builder --tag_set serve \\\n"
                                     " --signature_def serving_default --input_exprs input=10"),
    "shell continued over three lines": ("!wget --no-check-certificate \\\n"
                                         "    https://drive.google.com/uc?id=13ySLC_ue6Umt9RJYSeM2t-V0kCv-4C-P \\\n"
                                         "    -O /tmp/sentiment.csv"),
    "comment, then continued shell": ("# update the .py files\n!tf_upgrade_v2 \\\n    --intree models/samples/ \\\n"
                                      "    --outtree regression_v2/ \\\n    --reportfile tree_report.txt"),
    "continued shell with quotes and braces": (
        "saved_model_dir = 'savedmodel'\n!rm -rf {saved_model_dir}\n!python model_inspect.py --runmode=saved_model \\\n"
        "  --ckpt_path={ckpt_path} --saved_model_dir={saved_model_dir}\n\nprint(saved_model_dir)"),
    "capture with shell lines": ('%%capture\n#@title Setup Environment\n!pip install -q "tensorflow-text==2.11.*"\n'
                                 "!pip install -q simpleneighbors[annoy]\n!pip install -q tqdm"),
    "capture with shell in blocks": (
        '%%capture\n#@title\nimport os\nimport sys\n\nif "efficientdet" not in os.getcwd():\n'
        "  !git clone --depth 1 https://github.com/google/automl\n  os.chdir('automl/efficientdet')\n"
        "  !pip install -U 'git+https://github.com/cocodataset/cocoapi.git#subdirectory=PythonAPI'\nelse:\n  !git pull"),
    "shell in blocks, continued": (
        "if 'val2017' not in os.listdir():\n  !wget http://images.cocodataset.org/zips/val2017.zip\n"
        "  !unzip -q val2017.zip\n\n  !mkdir tfrecord\n"
        '  !PYTHONPATH=".:$PYTHONPATH"  python dataset/create_coco_tfrecord.py \\\n'
        "      --image_dir=val2017 \\\n      --output_file_prefix=tfrecord/val"),
    "automagic ls": "ls ./data/train/",
    "automagic pip": "pip install -q tensorflow-hub\n",
    "matplotlib": "%matplotlib inline\nimport matplotlib.pyplot as plt",
    "bash cell": "%%bash\nexport X=1\nif [ -d x ]; then echo y; fi",
    "writefile cell with any body": "%%writefile model.py\ndef f(:\n  return",
    "time cell": "%%time\nmodel.fit(x, y, epochs=2)\n",
    "exercise: empty right-hand side": "batch_size =\nIMG_SHAPE = ",
    "exercise: placeholder comment in a function": (
        "def format_example(image, label):\n  # Cast image to float32\n  image = # YOUR CODE HERE\n  return image, label"),
    "exercise: unclosed call": "splits, info = tfds.load( # YOUR CODE HERE )\n\n(train, validation) = splits",
}

EDGE = {
    "plain python": "import tensorflow as tf\nx = tf.Variable(1.0)\n",
    "empty": "",
    "blank lines only": "\n  \n\n",
    "comment only, indented": "   # a note\n",
    # Found by the generated cells: a cell magic's body is a cell of its own, and IPython dedents it
    # even when it parses as it stands (only comments do).
    "time cell whose body is an indented comment": "%%time\n # comment?",
    "indented comment above code": "  # note\ndef f():\n  return 1\n",
    "! and % in strings": "print('!important: %d%%' % 3)\ns = '''\n!not shell\n%not magic\n'''\n",
    "? in strings and comments": "print('what?')  # why?\nq = '''\nhow??\n'''",
    "% modulo at a line start, in brackets": "y = (a\n     % b)\n",
    "% modulo at a line start, backslash": "y = a \\\n    % b\n",
    "! at a line start inside brackets": "y = (a\n     !b)\n",
    "magic in a function": "def f():\n    %time g()\n    return 1\n",
    "shell in a loop, continued": "for i in range(3):\n    !echo {i} \\\n        done\n    print(i)\n",
    "assign from shell": "files = !ls {path}\nprint(files)",
    "assign from shell, continued": "files = !ls \\\n   -la\nprint(files)",
    "assign from magic": "t = %timeit -o f()\nx = %env HOME",
    "tuple from shell": "a, b = !echo 1 2",
    "double bang and env": "!!ls\n%env X=1\n",
    "help after a name": "tf.reduce_mean?\nx = 1",
    "help twice": "tf.keras.Model.fit??",
    "help before": "?tf.reduce_mean\n??tf.math",
    "help on a magic": "%timeit?",
    "help on a call is not help": "model.fit()?",
    "help with a comment is not help": "model.fit?  # docs",
    "help in a block": "if x:\n    y?\n",
    "cell magic help, rest Python": "%%time?\nx = 1\n",
    "autocall escapes": "/print 1 2\n,print a b\n;print a b",
    "bad autocall": "/ 1 2",
    "autocall breaking quotes": ';print a"b',
    "not automagic: two lines": "ls ./data/train/\n\n",
    "not automagic: more code": "x = 1\nls ./data\n",
    "not automagic: no such magic": "pip3 install x",
    "not automagic: assignment": "ls = 3",
    "automagic cd with a comment": "cd ../data # go",
    "one-liner that is Python and a magic": "pwd",
    "leading blank lines, cell magic": "\n\n%%bash\nls\n",
    "indented cell magic": "  %%time\n  x = 1\n  y = 2",
    "time body indented": "%%time\n  x = 1\n  y = 2",
    "time body with an error": "%%time\nbatch_size =\n",
    "time body with shell": "%%time\n!ls\nx = 1",
    "capture of time": "%%capture\n%%time\nx = 1",
    "cell magic named !": "%%!\nls -la",
    "tab-indented cell": "\tx = 1\n\ty = 2",
    "indented cell with magic": "  %time f()\n  x = 1",
    "inconsistent dedent": "if x:\n    y = 1\n  !ls\n",
    "backslash on the last line": "!ls \\",
    "unterminated quote in shell": "!echo 'unterminated\nx = 1",
    "unicode names": "données = !ls\nprint(données)",
    "load ext": "%load_ext autoreload\n%autoreload 2\n",
    "decorator then magic": "@tf.function\n%time\ndef f():\n    pass",
    "else after magic": "if a:\n    !ls\nelse:\n    pass",
    "real error plain": "def f(:\n    pass",
    "indented block missing": "def f():\n",
}


@pytest.mark.parametrize("cell", list({**REAL, **EDGE}.values()), ids=list({**REAL, **EDGE}))
def test_cell_matches_ipython(shell, cell):
    assert_like_ipython(shell, cell)


@pytest.mark.parametrize("cell", [REAL["shell continued over three lines"], REAL["indented first line"],
                                  EDGE["shell in a loop, continued"], REAL["capture with shell in blocks"]])
@pytest.mark.parametrize("newline", ["\r\n", "\r"])
def test_crlf_and_cr_cells_are_read_like_lf_cells(cell, newline):
    assert cell_python(cell.replace("\n", newline)) == cell_python(cell)


def test_the_real_shapes_parse_and_the_exercises_do_not():
    failing = {name for name, cell in REAL.items() if not cell_python(cell).parses}
    assert failing == {name for name in REAL if name.startswith("exercise:")}


def test_magic_names_are_ipythons():
    """Automagic recognises IPython's line magics (POSIX aliases included) and ipykernel's."""
    assert LINE_MAGICS == set(InteractiveShell.instance().magics_manager.magics["line"]) - KERNEL_LINE_MAGICS
    assert not KERNEL_LINE_MAGICS & LINE_MAGICS
    shell = kernel_shell()
    cell_magics = set(shell.magics_manager.magics["cell"])
    assert PYTHON_CELL_MAGICS <= cell_magics


# -- exact results for the shapes that matter to positions --------------------------------------


def test_a_continued_shell_command_keeps_its_lines():
    ours = cell_python(REAL["shell continued over three lines"])
    assert ours.lines == ("pass\n", "\n", "\n") and ours.transformed == (True, True, True) and ours.parses


def test_a_dedented_cell_records_what_each_line_lost():
    ours = cell_python("  def f(x):\n\n    return x\n")
    assert ours.lines == ("def f(x):\n", "\n", "  return x\n")
    assert ours.indents == ("  ", "", "  ")


def test_ipython_7_dedent_only_strips_lines_with_the_first_lines_indent():
    ours = cell_python(REAL["only the first lines indented (runs under IPython 7/8)"])
    assert ours.parses and ours.indents == (" ", " ", "")
    assert ours.lines[2] == "my_seq(tf.zeros([1, 2, 3, 3]))\n"


def test_an_assignment_from_shell_keeps_its_target():
    ours = cell_python(EDGE["assign from shell, continued"])
    assert ours.lines == ("files = get_ipython().getoutput('ls     -la')\n", "\n", "print(files)\n")


def test_a_python_cell_magic_body_is_transformed_as_a_cell():
    ours = cell_python("%%time\n  !ls\n  x = 1\n")
    assert ours.lines == ("pass\n", "pass\n", "x = 1\n") and ours.indents == ("", "  ", "  ")


def test_pasted_prompts_are_not_covered():
    """IPython strips `>>>` and `In [1]:` prompts; no notebook seen uses them, so they stay an
    error here (a known difference, kept explicit)."""
    cell = ">>> x = 1\n>>> x + 1\n"
    assert ipython_view(kernel_shell(), cell)[0] and not cell_python(cell).parses


# -- generated cells ------------------------------------------------------------------------------


FRAGMENTS = [
    "x = 1", "y = x % 2", "print('!a %b ?')", "if x:", "for i in range(3):", "def f():", "else:", "return 1",
    "pass", "s = '''", "'''", "z = (1,", "2)", "% 3)", "w = 1 + \\", "# comment?", "x.y?", "?x", "%time f()",
    "%%time", "%%bash", "!ls -l", "!wget \\", "-O f.csv", "x = !ls", "y = %env HOME", "ls ./d", "cd ..",
    "pip install x", "/print 1", "model.fit()?", "", "@dec", "print(x)", "x[0] = !pwd",
]


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.sampled_from(["", " ", "  ", "    ", "\t"]), st.sampled_from(FRAGMENTS)),
                min_size=1, max_size=6),
       st.booleans())
def test_generated_cells_match_ipython(lines, final_newline):
    cell = "\n".join(indent + text for indent, text in lines) + ("\n" if final_newline else "")
    assert_like_ipython(kernel_shell(), cell)


def test_the_analyzer_never_imports_ipython(tmp_path):
    """IPython is the tests' ground truth, not a run-time dependency: checking a notebook full of
    IPython syntax, and starting the language server's modules, loads none of it."""
    import json
    import subprocess
    import sys

    cells = [REAL["capture with shell in blocks"], REAL["indented first line"], "%matplotlib inline\nx = 1\n"]
    notebook = {"cells": [{"cell_type": "code", "metadata": {}, "outputs": [], "source": c} for c in cells],
                "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    (tmp_path / "nb.ipynb").write_text(json.dumps(notebook), encoding="utf-8")
    probe = ("import sys\nfrom gradguard.rules.app import cli\nimport gradguard.server.server\n"
             "code = cli.main(['check', '--no-cache', '-q', 'nb.ipynb'])\n"
             "print(code, sorted(m for m in sys.modules if m.split('.')[0] == 'IPython'))\n")
    out = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, capture_output=True, text=True, check=True)
    assert out.stdout.strip().splitlines()[-1] == "0 []"
