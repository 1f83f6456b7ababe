"""A mutation engine over the program corpus (tests/programs): broken, odd and huge inputs.

Every mutation is a pure function of a `random.Random` and a text (or bytes), so a sample is
reproduced from (kind, corpus program, seed) alone. Kinds come in three families:

* text mutations (`TEXT_KINDS`) give a `str` for the analyzer, the editor paths and the CLI;
* byte mutations (`BYTE_KINDS`) give raw file content (binary garbage, invalid UTF-8, NUL bytes,
  BOM bytes) and only go through the CLI, which is the only entry point that reads bytes;
* notebook mutations (`NOTEBOOK_KINDS`) give `.ipynb` JSON, mutated in a cell or in the JSON.

Some mutations keep the program parsable on purpose (spliced or wrapped expressions, renamed
identifiers, other line endings): those are the ones that exercise the rules and their fixes.
The rest mostly break the parse and exercise the syntax-error and recovery paths.
"""
from __future__ import annotations

import ast
import json
import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

PROGRAMS = Path(__file__).resolve().parent.parent / "programs"

_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_TOKEN = re.compile(r"[^\W\d]\w*|\d[\w.]*|\"[^\"\n]*\"|'[^'\n]*'|[^\w\s]")
_IDENTIFIER = re.compile(r"\b[^\W\d]\w*\b")

HUGE_LINES = 50_000
LONG_LINE = 100_000


# ---------------------------------------------------------------------------------------------
# The corpus


@dataclass(frozen=True)
class Program:
    name: str
    text: str      # Python source (a notebook's code cells joined)
    raw: str       # the file as stored (the notebook JSON for .ipynb)

    @property
    def is_notebook(self) -> bool:
        return self.name.endswith(".ipynb")


@lru_cache(maxsize=1)
def corpus() -> tuple[Program, ...]:
    from gradguard.rules.source.notebook import Notebook

    programs = []
    for path in sorted(PROGRAMS.iterdir()):
        if path.suffix not in (".py", ".ipynb"):
            continue
        raw = path.read_text(encoding="utf-8")
        text = Notebook(raw).source if path.suffix == ".ipynb" else raw
        programs.append(Program(path.name, text, raw))
    return tuple(programs)


def program(name: str) -> Program:
    return next(p for p in corpus() if p.name == name)


@lru_cache(maxsize=1)
def corpus_expressions() -> tuple[str, ...]:
    """Source segments of expressions from the whole corpus (material for splicing)."""
    found: list[str] = []
    for prog in corpus():
        tree = ast.parse(prog.text)
        for node in ast.walk(tree):
            if isinstance(node, ast.expr) and node.lineno == node.end_lineno:
                segment = ast.get_source_segment(prog.text, node)
                if segment and len(segment) < 80:
                    found.append(segment)
    return tuple(sorted(set(found)))


@lru_cache(maxsize=1)
def corpus_lines() -> tuple[str, ...]:
    return tuple(sorted({line for p in corpus() for line in p.text.splitlines() if line.strip()}))


# ---------------------------------------------------------------------------------------------
# Helpers


def _lines(text: str) -> list[str]:
    """Lines with their endings (the same split as `ast` and the analyzer)."""
    return re.findall(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$", text)


def _ending(text: str) -> str:
    match = _LINE_BREAK.search(text)
    return match.group() if match else "\n"


def _pick_line(rng: random.Random, lines: list[str]) -> int:
    return rng.randrange(len(lines)) if lines else 0


def _tokens(text: str) -> list[re.Match]:
    return list(_TOKEN.finditer(text))


def _expressions(text: str) -> list[ast.expr]:
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return []
    return [node for node in ast.walk(tree) if isinstance(node, ast.expr)]


def _offsets(text: str) -> list[int]:
    starts = [0]
    for line in _lines(text):
        starts.append(starts[-1] + len(line))
    return starts


def _node_range(text: str, node: ast.AST) -> tuple[int, int]:
    """Character offsets of a node (ast columns are UTF-8 byte offsets)."""
    lines = _lines(text)
    starts = _offsets(text)

    def offset(line: int, byte_col: int) -> int:
        content = lines[line - 1] if line - 1 < len(lines) else ""
        return starts[line - 1] + len(content.encode("utf-8")[:byte_col].decode("utf-8", "replace"))

    return offset(node.lineno, node.col_offset), offset(node.end_lineno, node.end_col_offset)


# ---------------------------------------------------------------------------------------------
# Text mutations: (rng, text) -> text


def delete_lines(rng: random.Random, text: str) -> str:
    lines = _lines(text)
    if not lines:
        return text
    start = _pick_line(rng, lines)
    del lines[start:start + rng.randint(1, 3)]
    return "".join(lines)


def duplicate_lines(rng: random.Random, text: str) -> str:
    lines = _lines(text)
    if not lines:
        return text
    start = _pick_line(rng, lines)
    chunk = lines[start:start + rng.randint(1, 3)]
    at = rng.randint(0, len(lines))
    return "".join(lines[:at] + chunk + lines[at:])


def swap_lines(rng: random.Random, text: str) -> str:
    lines = _lines(text)
    if len(lines) < 2:
        return text
    a, b = rng.sample(range(len(lines)), 2)
    lines[a], lines[b] = lines[b], lines[a]
    return "".join(lines)


def truncate(rng: random.Random, text: str) -> str:
    """The file cut short (an editor mid-save, a partial download)."""
    return text[:rng.randint(0, len(text))]


def truncate_line(rng: random.Random, text: str) -> str:
    lines = _lines(text)
    if not lines:
        return text
    index = _pick_line(rng, lines)
    body = lines[index].rstrip("\r\n")
    lines[index] = body[:rng.randint(0, len(body))] + lines[index][len(body):]
    return "".join(lines)


def delete_token(rng: random.Random, text: str) -> str:
    tokens = _tokens(text)
    if not tokens:
        return text
    for _ in range(rng.randint(1, 3)):
        token = rng.choice(tokens)
        text = text[:token.start()] + text[token.end():]
        tokens = _tokens(text)
        if not tokens:
            break
    return text


def duplicate_token(rng: random.Random, text: str) -> str:
    tokens = _tokens(text)
    if not tokens:
        return text
    token = rng.choice(tokens)
    at = rng.choice(tokens).start() if rng.random() < 0.5 else token.end()
    return text[:at] + token.group() + text[at:]


def swap_tokens(rng: random.Random, text: str) -> str:
    tokens = _tokens(text)
    if len(tokens) < 2:
        return text
    a, b = sorted(rng.sample(tokens, 2), key=lambda m: m.start())
    return text[:a.start()] + b.group() + text[a.end():b.start()] + a.group() + text[b.end():]


def splice_line(rng: random.Random, text: str) -> str:
    """A line of another corpus program, at the indentation of the line it goes before."""
    lines = _lines(text)
    at = _pick_line(rng, lines)
    line = rng.choice(corpus_lines()).strip()
    indent = re.match(r"[ \t]*", lines[at]).group() if lines else ""
    return "".join(lines[:at] + [indent + line + _ending(text)] + lines[at:])


def swap_expression(rng: random.Random, text: str) -> str:
    """An expression replaced by one from another program: still parses, confuses the data flow."""
    nodes = [n for n in _expressions(text) if not isinstance(n, ast.Starred)]
    if not nodes:
        return splice_line(rng, text)
    node = rng.choice(nodes)
    begin, end = _node_range(text, node)
    return text[:begin] + "(" + rng.choice(corpus_expressions()) + ")" + text[end:]


WRAPPERS = (
    "{x}.numpy()", "np.array({x})", "np.mean({x})", "float({x})", "int({x})", "tf.stop_gradient({x})",
    "tf.round({x})", "tf.cast({x}, tf.int32)", "({x} > 0)", "tf.argmax({x})", "{x}[0]",
    "model.predict({x})", "tf.py_function(np.sum, [{x}], tf.float32)", "tf.numpy_function(f, [{x}], tf.float32)",
    "np.round({x})", "tf.Variable({x})", "{x}.assign({x})", "tf.floor({x})", "bool({x})", "tf.math.sign({x})",
    "tf.keras.backend.eval({x})", "tf.convert_to_tensor({x}.numpy())", "({x}).numpy().numpy()", "round({x})",
)


def wrap_expression(rng: random.Random, text: str) -> str:
    """An expression wrapped in a gradient-cutting (or harmless) call: the rules' bread and butter."""
    nodes = [n for n in _expressions(text) if not isinstance(n, (ast.Starred, ast.Slice))]
    if not nodes:
        return text
    for _ in range(rng.randint(1, 3)):
        nodes = [n for n in _expressions(text) if not isinstance(n, (ast.Starred, ast.Slice))]
        if not nodes:
            break
        node = rng.choice(nodes)
        begin, end = _node_range(text, node)
        text = text[:begin] + rng.choice(WRAPPERS).format(x=text[begin:end]) + text[end:]
    return text


def wrap_in_tape(rng: random.Random, text: str) -> str:
    """Like wrap_expression, but inside a `with ...GradientTape()` block, where the rules look."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return wrap_expression(rng, text)
    blocks = [node for node in ast.walk(tree) if isinstance(node, (ast.With, ast.AsyncWith))
              and any("Tape" in ast.unparse(item.context_expr) for item in node.items)]
    nodes = [n for block in blocks for stmt in block.body for n in ast.walk(stmt)
             if isinstance(n, ast.expr) and not isinstance(n, (ast.Starred, ast.Slice))
             and not isinstance(getattr(n, "ctx", None), (ast.Store, ast.Del))]
    if not nodes:
        return wrap_expression(rng, text)
    node = rng.choice(nodes)
    begin, end = _node_range(text, node)
    return text[:begin] + rng.choice(WRAPPERS).format(x=text[begin:end]) + text[end:]


def rename_identifier(rng: random.Random, text: str) -> str:
    """Every occurrence of one name becomes another name of the same file."""
    names = sorted(set(_IDENTIFIER.findall(text)))
    if len(names) < 2:
        return text
    old, new = rng.sample(names, 2)
    return re.sub(rf"\b{re.escape(old)}\b", new, text)


def reindent_line(rng: random.Random, text: str) -> str:
    lines = _lines(text)
    if not lines:
        return text
    index = _pick_line(rng, lines)
    if rng.random() < 0.5:
        lines[index] = " " * rng.choice((1, 2, 4, 8)) + lines[index]
    else:
        lines[index] = re.sub(r"^ {1,4}", "", lines[index])
    return "".join(lines)


ASTRAL = "𝔘𝐱𝕏😀🧠𓂀𠀋"
COMBINING = "\u0301\u0308\u0327\u20dd\u0336"
RTL = "\u202e\u202b\u200f\u0627\u05d0\u2067"
ZERO_WIDTH = "\u200b\u200c\u200d\u2060\ufeff"
OTHER = "éßπΩ中文ｘ\xa0\u3000"
UNICODE = ASTRAL + COMBINING + RTL + ZERO_WIDTH + OTHER


def insert_unicode(rng: random.Random, text: str) -> str:
    """Astral, combining, right-to-left, zero-width and wide characters, anywhere."""
    for _ in range(rng.randint(1, 6)):
        at = rng.randint(0, len(text))
        text = text[:at] + "".join(rng.choice(UNICODE) for _ in range(rng.randint(1, 3))) + text[at:]
    return text


def unicode_in_strings(rng: random.Random, text: str) -> str:
    """Unicode inside comments and strings only: still parses, every column after it shifts."""
    lines = _lines(text)
    for _ in range(rng.randint(1, 5)):
        if not lines:
            break
        index = _pick_line(rng, lines)
        body = lines[index].rstrip("\r\n")
        marker = "".join(rng.choice(UNICODE.replace("\ufeff", "")) for _ in range(rng.randint(1, 4)))
        string = rng.choice(("'", '"'))
        if rng.random() < 0.5 or not body.strip():
            new = body + f"  # {marker}"
        else:
            indent = re.match(r"[ \t]*", body).group()
            new = f"{indent}_ = {string}{marker}{string}; {body.lstrip()}" if not body.rstrip().endswith(":") else body
        lines[index] = new + lines[index][len(body):]
    return "".join(lines)


def unicode_identifiers(rng: random.Random, text: str) -> str:
    """A name written with non-ASCII letters (some NFKC-equal to the ASCII one: `ｘ` is `x`)."""
    names = sorted(set(_IDENTIFIER.findall(text)))
    if not names:
        return text
    old = rng.choice(names)
    fancy = rng.choice((
        "".join(chr(0xFF00 + ord(c) - 0x20) if c.isascii() and c.isalpha() else c for c in old),  # full width
        old + rng.choice(("é", "π", "𝔘", "ǅ", "ª")),
        "𝐱" + old,
        "ｘ",
    ))
    return re.sub(rf"\b{re.escape(old)}\b", fancy, text, count=rng.randint(1, 3))


def lone_surrogate(rng: random.Random, text: str) -> str:
    """A lone surrogate: cannot come from a file, but a JSON client (LSP) can send one."""
    at = rng.randint(0, len(text))
    return text[:at] + rng.choice(("\ud800", "\udfff", "\udc80")) + text[at:]


def crlf(rng: random.Random, text: str) -> str:
    return _LINE_BREAK.sub("\r\n", text)


def cr_only(rng: random.Random, text: str) -> str:
    return _LINE_BREAK.sub("\r", text)


def mixed_endings(rng: random.Random, text: str) -> str:
    return _LINE_BREAK.sub(lambda _: rng.choice(("\n", "\r\n", "\r")), text)


def no_final_newline(rng: random.Random, text: str) -> str:
    return text.rstrip("\r\n")


def tabs(rng: random.Random, text: str) -> str:
    """Indentation in tabs (consistently, or on some lines only), and tabs between tokens."""
    mode = rng.randrange(3)
    if mode == 0:
        return re.sub(r"(?m)^((?:    )+)", lambda m: "\t" * (len(m.group(1)) // 4), text)
    if mode == 1:
        lines = _lines(text)
        for _ in range(rng.randint(1, 4)):
            if lines:
                index = _pick_line(rng, lines)
                lines[index] = re.sub(r"^    ", "\t", lines[index])
        return "".join(lines)
    return re.sub(r" ", lambda _: "\t" if rng.random() < 0.2 else " ", text)


def bom(rng: random.Random, text: str) -> str:
    return "\ufeff" + text


def odd_whitespace(rng: random.Random, text: str) -> str:
    """Form feeds, vertical tabs, U+2028/U+0085 (line breaks for str.splitlines, not for Python)."""
    for _ in range(rng.randint(1, 4)):
        at = rng.randint(0, len(text))
        text = text[:at] + rng.choice(("\x0c", "\x0b", "\u2028", "\u2029", "\x85", "\x1c")) + text[at:]
    lines = _lines(text)
    if lines and rng.random() < 0.5:
        index = _pick_line(rng, lines)
        lines[index] = "\x0c" + lines[index]
    return "".join(lines)


def long_line(rng: random.Random, text: str) -> str:
    """A line of about 100,000 characters: a comment, a string, a flat list or a long name."""
    lines = _lines(text)
    at = _pick_line(rng, lines)
    indent = re.match(r"[ \t]*", lines[at]).group() if lines else ""
    filler = rng.choice((
        lambda: "# " + "x" * LONG_LINE,
        lambda: "s = '" + "é" * LONG_LINE + "'",
        lambda: "v = [" + ", ".join("1.0" for _ in range(LONG_LINE // 5)) + "]",
        lambda: "n" * LONG_LINE + " = tf.constant(1.0)",
        lambda: "loss = tf.reduce_sum(x.numpy())" + " " * LONG_LINE + "# trailing",
        lambda: "y = tf.add_n([" + ", ".join("w" for _ in range(LONG_LINE // 3)) + "])",
    ))()
    return "".join(lines[:at] + [indent + filler + _ending(text)] + lines[at:])


def deep_nesting(rng: random.Random, text: str) -> str:
    """About 200 nested parentheses or brackets around an expression, or 100 nested calls."""
    nodes = [n for n in _expressions(text) if not isinstance(n, (ast.Starred, ast.Slice))]
    depth = rng.choice((50, 99, 100, 199, 200, 201, 250))
    opener, closer = rng.choice((("(", ")"), ("[", "]"), ("{", "}"), ("tf.identity(", ")"), ("np.sum(", ")"),
                                 ("f(", ")"), ("[", "][0]")))
    if not nodes:
        return text + opener * depth + "x" + closer * depth + "\n"
    node = rng.choice(nodes)
    begin, end = _node_range(text, node)
    return text[:begin] + opener * depth + text[begin:end] + closer * depth + text[end:]


def deep_chain(rng: random.Random, text: str) -> str:
    """An expression whose tree is deep without any bracket: `a + a + ... + a`, `x.numpy().numpy()...`."""
    nodes = [n for n in _expressions(text) if not isinstance(n, (ast.Starred, ast.Slice))]
    depth = rng.choice((100, 300, 500, 1000, 3000))
    template = rng.choice(("{x}" + " + {x}" * (depth - 1), "{x}" + ".numpy()" * depth, "{x}" + "[0]" * depth,
                           "-" * depth + "{x}", "{x}" + " if c else {x}" * depth, "not " * depth + "{x}"))
    if not nodes:
        return text + "y = " + template.format(x="x") + "\n"
    node = rng.choice(nodes)
    begin, end = _node_range(text, node)
    return text[:begin] + "(" + template.format(x="(" + text[begin:end] + ")") + ")" + text[end:]


def deep_blocks(rng: random.Random, text: str) -> str:
    """About 100 nested `if`, `def`, `with tf.GradientTape()` or `for` blocks around a program line."""
    depth = rng.choice((20, 50, 99, 100, 101))
    header = rng.choice(("if x:", "def f{i}(x):", "with tf.GradientTape() as tape{i}:", "for i{i} in range(2):",
                         "class C{i}:", "try:"))
    lines = [line for line in text.splitlines() if line.strip() and not line.startswith((" ", "\t"))]
    body = rng.choice(lines).strip() if lines else "pass"
    out = []
    for level in range(depth):
        out.append(" " * level + header.format(i=level))
    out.append(" " * depth + body)
    if header == "try:":  # close every try from the inside out
        for level in reversed(range(depth)):
            out.append(" " * level + "except Exception:")
            out.append(" " * (level + 1) + "pass")
    return text + ("" if text.endswith("\n") or not text else "\n") + "\n".join(out) + "\n"


def huge_file(rng: random.Random, text: str) -> str:
    """The program repeated to 50,000 lines (generated code, a notebook export)."""
    count = max(len(text.splitlines()), 1)
    return text * (HUGE_LINES // count + 1)


def stacked(rng: random.Random, text: str) -> str:
    """Two to four cheap mutations in a row."""
    for _ in range(rng.randint(2, 4)):
        kind = rng.choice(CHEAP_TEXT_KINDS)
        text = TEXT_KINDS[kind](rng, text)
    return text


TEXT_KINDS: dict[str, Callable[[random.Random, str], str]] = {
    "delete_lines": delete_lines,
    "duplicate_lines": duplicate_lines,
    "swap_lines": swap_lines,
    "truncate": truncate,
    "truncate_line": truncate_line,
    "delete_token": delete_token,
    "duplicate_token": duplicate_token,
    "swap_tokens": swap_tokens,
    "splice_line": splice_line,
    "swap_expression": swap_expression,
    "wrap_expression": wrap_expression,
    "wrap_in_tape": wrap_in_tape,
    "rename_identifier": rename_identifier,
    "reindent_line": reindent_line,
    "insert_unicode": insert_unicode,
    "unicode_in_strings": unicode_in_strings,
    "unicode_identifiers": unicode_identifiers,
    "lone_surrogate": lone_surrogate,
    "crlf": crlf,
    "cr_only": cr_only,
    "mixed_endings": mixed_endings,
    "no_final_newline": no_final_newline,
    "tabs": tabs,
    "bom": bom,
    "odd_whitespace": odd_whitespace,
    "long_line": long_line,
    "deep_nesting": deep_nesting,
    "deep_chain": deep_chain,
    "deep_blocks": deep_blocks,
    "huge_file": huge_file,
    "stacked": stacked,
}

# Kinds that make very large inputs: drawn less often (this fraction of a normal kind's chance),
# and checked with a sample of their fixes and fewer fix-all runs.
HEAVY_KINDS = {"long_line": 0.3, "huge_file": 0.02}
CHEAP_TEXT_KINDS = tuple(k for k in TEXT_KINDS if k not in (*HEAVY_KINDS, "stacked", "deep_chain", "deep_blocks",
                                                            "deep_nesting", "lone_surrogate"))


# ---------------------------------------------------------------------------------------------
# Byte mutations (the CLI reads files): (rng, text) -> bytes


def binary_garbage(rng: random.Random, text: str) -> bytes:
    data = bytearray(text.encode("utf-8"))
    size = rng.choice((16, 256, 4096))
    garbage = bytes(rng.randrange(256) for _ in range(size))
    at = rng.randint(0, len(data))
    return bytes(data[:at] + garbage + data[at:]) if rng.random() < 0.5 else garbage


def invalid_utf8(rng: random.Random, text: str) -> bytes:
    """Stray continuation bytes, truncated sequences, overlong forms, encoded surrogates, Latin-1."""
    data = text.encode("utf-8")
    bad = rng.choice((b"\xff", b"\xc3", b"\x80", b"\xc0\xaf", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\xe9t\xe9"))
    at = rng.randint(0, len(data))
    return data[:at] + bad + data[at:]


def nul_bytes(rng: random.Random, text: str) -> bytes:
    data = text.encode("utf-8")
    at = rng.randint(0, len(data))
    return data[:at] + b"\x00" * rng.randint(1, 3) + data[at:]


def bom_bytes(rng: random.Random, text: str) -> bytes:
    """A UTF-8 BOM (sometimes with CRLF endings, sometimes twice, or UTF-16 with its BOM)."""
    choice = rng.randrange(4)
    if choice == 0:
        return b"\xef\xbb\xbf" + text.encode("utf-8")
    if choice == 1:
        return b"\xef\xbb\xbf" + _LINE_BREAK.sub("\r\n", text).encode("utf-8")
    if choice == 2:
        return b"\xef\xbb\xbf\xef\xbb\xbf" + text.encode("utf-8")
    return text.encode("utf-16")


BYTE_KINDS: dict[str, Callable[[random.Random, str], bytes]] = {
    "binary_garbage": binary_garbage,
    "invalid_utf8": invalid_utf8,
    "nul_bytes": nul_bytes,
    "bom_bytes": bom_bytes,
}


# ---------------------------------------------------------------------------------------------
# Notebook mutations: (rng, notebook JSON) -> notebook JSON


_JUPYTER_LINES = re.compile(r"[^\n]*\n|[^\n]+$")  # a cell's source as Jupyter stores it, line by line


def _random_code_cell(rng: random.Random, data: dict) -> dict | None:
    cells = [c for c in data["cells"] if c.get("cell_type") == "code"]
    return rng.choice(cells) if cells else None


def _cell_text(cell: dict) -> str:
    return cell["source"] if isinstance(cell["source"], str) else "".join(cell["source"])


def notebook_cell(rng: random.Random, raw: str) -> str:
    """A code cell's source mutated like a Python file (cells keep their line lists)."""
    data = json.loads(raw)
    cell = _random_code_cell(rng, data)
    if cell is None:
        return raw
    kind = rng.choice(CHEAP_TEXT_KINDS)
    new = TEXT_KINDS[kind](rng, _cell_text(cell))
    cell["source"] = _JUPYTER_LINES.findall(new) if rng.random() < 0.8 else new
    return json.dumps(data, indent=1, ensure_ascii=rng.random() < 0.5) + "\n"


def notebook_magic(rng: random.Random, raw: str) -> str:
    """IPython syntax in a cell: %magics, %%cell magics, !shell, `obj?`."""
    data = json.loads(raw)
    cell = _random_code_cell(rng, data)
    if cell is None:
        return raw
    lines = _JUPYTER_LINES.findall(_cell_text(cell))
    magic = rng.choice(("%matplotlib inline\n", "%%time\n", "%%bash\n", "!pip install tensorflow\n", "model?\n",
                        "x = !ls\n", "    %time y = f(x)\n", "%%capture\n", "tf.GradientTape??\n"))
    at = 0 if magic.startswith("%%") else rng.randint(0, len(lines))
    lines.insert(at, magic)
    cell["source"] = lines
    return json.dumps(data, indent=1) + "\n"


def notebook_json(rng: random.Random, raw: str) -> str:
    """The JSON itself damaged: truncated, a cell that is not an object, a source that is not text."""
    data = json.loads(raw)
    choice = rng.randrange(6)
    if choice == 0:
        return raw[:rng.randint(0, len(raw))]
    if choice == 1:
        data["cells"].insert(rng.randint(0, len(data["cells"])), rng.choice((1, None, "cell", [])))
    elif choice == 2:
        cell = rng.choice(data["cells"]) if data["cells"] else {}
        cell["source"] = rng.choice((42, None, [1, 2], {"a": "b"}, ["ok\n", 3]))
    elif choice == 3:
        data = rng.choice(([], {"cells": {}}, {"nbformat": 4}, "text"))
    elif choice == 4:
        for cell in data["cells"]:
            cell.pop("cell_type", None)
    else:
        data["cells"] = data["cells"] + data["cells"]
    return json.dumps(data, indent=rng.choice((None, 1, 2, 4)))


NOTEBOOK_KINDS: dict[str, Callable[[random.Random, str], str]] = {
    "notebook_cell": notebook_cell,
    "notebook_magic": notebook_magic,
    "notebook_json": notebook_json,
}

ALL_KINDS = (*TEXT_KINDS, *BYTE_KINDS, *NOTEBOOK_KINDS)


# ---------------------------------------------------------------------------------------------
# Samples


@dataclass(frozen=True)
class Sample:
    """One fuzz input, reproducible from (kind, program, seed)."""

    kind: str
    program: str          # corpus file name
    seed: int
    text: str | None      # Python source for the analyzer (None for byte and notebook samples)
    data: bytes | None    # the file content the CLI reads
    suffix: str           # ".py" or ".ipynb"

    @property
    def label(self) -> str:
        return f"{self.kind}/{self.program}/{self.seed}"


def make_sample(kind: str, prog: Program, seed: int) -> Sample:
    rng = random.Random(f"{kind}/{prog.name}/{seed}")
    if kind in TEXT_KINDS:
        text = TEXT_KINDS[kind](rng, prog.text)
        try:
            data = text.encode("utf-8")
        except UnicodeEncodeError:
            data = None  # a lone surrogate cannot be written to a file
        return Sample(kind, prog.name, seed, text, data, ".py")
    if kind in BYTE_KINDS:
        return Sample(kind, prog.name, seed, None, BYTE_KINDS[kind](rng, prog.text), ".py")
    if kind in NOTEBOOK_KINDS:
        raw = prog.raw if prog.is_notebook else _as_notebook(rng, prog.text)
        return Sample(kind, prog.name, seed, None, NOTEBOOK_KINDS[kind](rng, raw).encode("utf-8"), ".ipynb")
    raise KeyError(kind)


def _as_notebook(rng: random.Random, text: str) -> str:
    """A Python program cut into code cells at random top-level statement boundaries."""
    lines = _JUPYTER_LINES.findall(text)
    cuts = sorted({0, len(lines), *(i for i, line in enumerate(lines) if line[:1].isalpha() and rng.random() < 0.2)})
    cells = [{"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [],
              "source": lines[a:b]} for a, b in zip(cuts, cuts[1:])]
    cells.insert(min(1, len(cells)), {"cell_type": "markdown", "metadata": {}, "source": ["# notes\n"]})
    return json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}, indent=1) + "\n"


def random_sample(rng: random.Random, kinds: tuple[str, ...] = ALL_KINDS) -> Sample:
    """A sample of a random kind (heavy kinds drawn less often) from a random program."""
    weights = [HEAVY_KINDS.get(k, 1.0) for k in kinds]
    kind = rng.choices(kinds, weights)[0]
    prog = rng.choice(corpus())
    return make_sample(kind, prog, rng.randrange(2**32))
