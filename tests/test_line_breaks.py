"""One rule for where a line ends: "\\r\\n", "\\r" or "\\n" (Python's tokenizer, `ast` and LSP agree).

`str.splitlines` also breaks at the characters below; anything that numbered lines with it put
text on the wrong line after one of them (the "Ignore GG101 for this line" edit wrote its comment
into the middle of the code: `y = x  # gradguard: ignore[GG101].numpy()`).
"""
from __future__ import annotations

import pytest

from gradguard.rules import analyze, fix_source
from gradguard.rules.api import apply_edits
from gradguard.rules.report.suppression import suppression_edit
from gradguard.rules.source.text import line_starts, line_texts, newline_of, split_lines

# Line breaks for str.splitlines, not for Python or the Language Server Protocol.
NOT_LINE_BREAKS = ["\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"]

BAD = """\
import numpy as np
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
x = np.ones((4, 3), dtype="float32")
# a comment with a {char} in it
with tf.GradientTape() as tape:
    loss = tf.reduce_sum(model(x).numpy())
grads = tape.gradient(loss, model.trainable_variables)
"""


@pytest.mark.parametrize("char", NOT_LINE_BREAKS, ids=lambda c: f"U+{ord(c):04X}")
def test_the_splitter_does_not_break_there(char):
    text = f"a = 1  # {char}\nb = 2\r\nc = 3\rd = 4"
    assert split_lines(text) == [f"a = 1  # {char}\n", "b = 2\r\n", "c = 3\r", "d = 4"]
    assert line_texts(text) == [f"a = 1  # {char}", "b = 2", "c = 3", "d = 4"]
    assert line_starts(text) == [0, len(f"a = 1  # {char}\n"), len(f"a = 1  # {char}\nb = 2\r\n"),
                                 len(f"a = 1  # {char}\nb = 2\r\nc = 3\r")]


@pytest.mark.parametrize("char", NOT_LINE_BREAKS, ids=lambda c: f"U+{ord(c):04X}")
def test_ignore_edit_lands_on_the_finding_line_after_such_a_character(char):
    source = BAD.format(char=char)
    finding = next(d for d in analyze(source) if d.code == "GG101")
    assert finding.span.line == 8
    fixed = apply_edits(source, [suppression_edit(source, finding.span.line, "GG101")])
    assert fixed.splitlines(keepends=False)[-1] == "grads = tape.gradient(loss, model.trainable_variables)"
    assert "    loss = tf.reduce_sum(model(x).numpy())  # gradguard: ignore[GG101]\n" in fixed
    assert [d.code for d in analyze(fixed)] == [d.code for d in analyze(source) if d.code != "GG101"]


@pytest.mark.parametrize("char", NOT_LINE_BREAKS, ids=lambda c: f"U+{ord(c):04X}")
def test_fixes_edit_the_finding_line_after_such_a_character(char):
    source = BAD.format(char=char)
    fixed = fix_source(source, unsafe=True)
    assert "    loss = tf.reduce_sum(model(x))\n" in fixed
    assert f"# a comment with a {char} in it\n" in fixed


def test_newline_rule_is_the_majority():
    assert newline_of("a\r\nb\r\nc\n") == "\r\n"
    assert newline_of("a\nb\nc\r\n") == "\n"
    assert newline_of("a\rb\r") == "\r"
    assert newline_of("no newline") == "\n"


def test_text_output_shows_the_line_of_a_file_with_old_mac_line_endings(tmp_path, capsys):
    from gradguard.rules.app import cli

    path = tmp_path / "cr.py"
    path.write_bytes(BAD.format(char="-").replace("\n", "\r").encode())
    assert cli.main(["check", "--no-cache", str(path)]) == 1
    out = capsys.readouterr().out
    assert "8 |     loss = tf.reduce_sum(model(x).numpy())" in out
