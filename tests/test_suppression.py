"""Suppression comments and the "Ignore GGxxx for this line" edit (rules/suppression.py)."""
from __future__ import annotations

import pytest

from gradguard.rules.api import apply_edits
from gradguard.rules.diagnostics import Diagnostic, Severity, Span
from gradguard.rules.report.suppression import line_suppressions, suppressed, suppression_edit, unused_suppressions


def diag(code: str = "GG101", line: int = 1) -> Diagnostic:
    return Diagnostic(code, Severity.ERROR, "message", Span(line, 0, line, 5))


def is_suppressed(line: str, code: str = "GG101") -> bool:
    return suppressed(diag(code), [line])


@pytest.mark.parametrize(
    "line",
    [
        "y = x.numpy()  # gradguard: ignore[GG101]",
        "y = x.numpy()  # gradguard: ignore[GG102, GG101]",
        "y = x.numpy()  # gradguard: ignore[GG4,GG1]",          # prefixes, like select
        "y = x.numpy()  # gradguard: ignore[GG2, GG10]",
        "y = x.numpy()  # gradguard: ignore",
        "y = x.numpy()  #gradguard:ignore[gg101]",
        "y = x.numpy()  # noqa: GG101",
        "y = x.numpy()  # noqa:GG102,GG101",
        "y = x.numpy()  # noqa: GG102 GG101",
        "y = x.numpy()  # noqa",
        "y = x.numpy()  # NOQA",
        "y = x.numpy()  # type: ignore  # noqa: GG101",
        "    y = x.numpy()  # gradguard: ignore[GG101]\n",      # indented, with its newline
        "y = f(x.numpy(),  # noqa: GG101",                     # first line of a longer call
    ],
)
def test_suppressed(line):
    assert is_suppressed(line)


@pytest.mark.parametrize(
    "line",
    [
        "y = x.numpy()",
        "y = x.numpy()  # gradguard: ignore[GG102]",
        "y = x.numpy()  # noqa: GG1",                          # noqa codes are exact, as in ruff
        "y = x.numpy()  # noqa: E501",
        'y = "# noqa"  + x.numpy()',                            # inside a string: not a comment
        "y = '# gradguard: ignore'",
        "y = x.numpy()  # see gradguard docs",
    ],
)
def test_not_suppressed(line):
    assert not is_suppressed(line)


def test_only_the_first_line_counts():
    lines = ["y = f(", "    x.numpy(),  # noqa", ")"]
    assert not suppressed(Diagnostic("GG101", Severity.ERROR, "m", Span(1, 4, 3, 1)), lines)
    assert suppressed(Diagnostic("GG101", Severity.ERROR, "m", Span(2, 4, 2, 9)), lines)


def test_line_outside_source_is_not_suppressed():
    assert not suppressed(diag(line=5), ["# noqa"])


def test_regex_fallback_when_the_line_does_not_tokenize():
    # The first line of a multi-line string cannot be tokenized alone.
    assert line_suppressions('y = g(x.numpy(), """  # noqa: GG101') == [("noqa", "GG101")]


def test_line_suppressions_kinds():
    assert line_suppressions("x  # gradguard: ignore[GG101, gg2]  # noqa") == [
        ("gradguard", "GG101"), ("gradguard", "GG2"), ("noqa", None)
    ]


# ------------------------------------------------------------------------------ suppression_edit


def edited(source: str, line: int, code: str) -> str:
    return apply_edits(source, [suppression_edit(source, line, code)])


def test_edit_appends_a_comment():
    source = "import tensorflow as tf\ny = x.numpy()\nz = 1\n"
    assert edited(source, 2, "GG101") == "import tensorflow as tf\ny = x.numpy()  # gradguard: ignore[GG101]\nz = 1\n"


def test_edit_replaces_trailing_whitespace_and_keeps_crlf():
    source = "y = x.numpy()   \r\nz = 1\r\n"
    assert edited(source, 1, "GG101") == "y = x.numpy()  # gradguard: ignore[GG101]\r\nz = 1\r\n"


def test_edit_on_last_line_without_newline():
    assert edited("y = x.numpy()", 1, "GG101") == "y = x.numpy()  # gradguard: ignore[GG101]"


def test_edit_extends_an_existing_comment():
    source = "y = x.numpy()  # gradguard: ignore[GG102]  # why\n"
    assert edited(source, 1, "GG101") == "y = x.numpy()  # gradguard: ignore[GG102, GG101]  # why\n"


def test_edit_after_another_comment():
    source = "y = x.numpy()  # type: ignore\n"
    assert edited(source, 1, "GG101") == "y = x.numpy()  # type: ignore  # gradguard: ignore[GG101]\n"


@pytest.mark.parametrize(
    "source", ["y = x.numpy()  # gradguard: ignore[GG101]\n", "y = x.numpy()  # gradguard: ignore\n"]
)
def test_edit_is_a_no_op_when_already_suppressed(source):
    assert edited(source, 1, "GG101") == source


def test_edit_then_suppressed_round_trip():
    source = "def f(x):\n    return x.numpy()\n"
    fixed = edited(source, 2, "GG101")
    assert suppressed(Diagnostic("GG101", Severity.ERROR, "m", Span(2, 11, 2, 20)), fixed.splitlines())
    compile(fixed, "<test>", "exec")


@pytest.mark.parametrize(
    ("source", "line"),
    [
        ("y = a + \\\n    x.numpy()\n", 1),        # a comment after a backslash breaks the code
        ('s = """\ntext\n"""\n', 2),               # inside a multi-line string
        ("y = 1\n", 3),                            # no such line
    ],
)
def test_edit_refuses_where_no_comment_fits(source, line):
    with pytest.raises(ValueError):
        suppression_edit(source, line, "GG101")


def test_edit_on_the_first_line_of_a_multiline_string_refuses():
    with pytest.raises(ValueError, match="cannot take a comment"):
        suppression_edit('y = f(x.numpy(), """\ndoc\n""")\n', 1, "GG101")


# ------------------------------------------------------------------------------ file level


@pytest.mark.parametrize(("comment", "hidden", "kept"), [
    ("# gradguard: noqa", ["GG101", "GG401"], []),
    ("# gradguard: noqa: GG1", ["GG101"], ["GG401"]),
    ("  #gradguard:NOQA:gg4, GG101", ["GG101", "GG401"], []),
])
def test_file_level_noqa(comment, hidden, kept):
    lines = ["import tensorflow as tf", comment, "y = x.numpy()"]
    assert [code for code in hidden + kept if suppressed(diag(code, 3), lines)] == hidden


@pytest.mark.parametrize("lines", [
    ["x = 1  # gradguard: noqa", "y = x.numpy()"],          # not on a line of its own: line-level only
    ['"""', "# gradguard: noqa", '"""', "y = x.numpy()"],   # inside a string
    ["# gradguard: noqa-ish", "y = x.numpy()"],
])
def test_not_a_file_level_noqa(lines):
    assert not suppressed(diag("GG101", len(lines)), lines)


def test_file_level_codes_are_read_again_for_another_file():
    assert suppressed(diag("GG101", 2), ["# gradguard: noqa", "y"])
    assert not suppressed(diag("GG101", 2), ["# nothing", "y"])


# ------------------------------------------------------------------------------ unused (GG900)


def test_unused_suppressions_name_the_unused_codes_and_fix_them():
    source = ("# gradguard: noqa: GG4\n"
              "x = 1  # noqa: GG101, F401\n"
              "y = 2  # gradguard: ignore[GG2, GG101]\n"
              "z = 3  # noqa\n"
              "# gradguard: ignore\n")
    found = [diag("GG101", 3)]
    unused = unused_suppressions(source, found)
    assert [(d.code, d.span.line, d.message) for d in unused] == [
        ("GG900", 1, "Unused suppression comment (unused: GG4)"),
        ("GG900", 2, "Unused suppression comment (unused: GG101)"),
        ("GG900", 3, "Unused suppression comment (unused: GG2)"),
        ("GG900", 5, "Unused suppression comment: it hides no finding"),
    ]
    assert unused[1].span == Span(2, 7, 2, 26)
    fixed = source
    for diagnostic in reversed(unused):
        fixed = apply_edits(fixed, diagnostic.fix.edits)
    assert fixed == "x = 1  # noqa: F401\ny = 2  # gradguard: ignore[GG101]\nz = 3  # noqa\n"
    assert unused_suppressions(fixed, [diag("GG101", 2)]) == []  # the first line is gone
