"""The incremental parser gives exactly the tree a full parse gives, and reuses what it can."""
from __future__ import annotations

import ast
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from gradguard.rules.source.incremental import IncrementalParser

PROGRAMS = sorted((Path(__file__).parent / "programs").glob("*.py"))
EDITS = st.sampled_from(["x", " ", "(", ")", ":", "#", "\t", "é", "0", "\n", "", "'", "\\"])


def _dump(tree: ast.AST) -> str:
    return ast.dump(tree, include_attributes=True)


def _full(source: str) -> str | None:
    try:
        return _dump(ast.parse(source))
    except (SyntaxError, ValueError):
        return None


def _incremental(parser: IncrementalParser, source: str) -> str | None:
    try:
        return _dump(parser.parse(source))
    except (SyntaxError, ValueError):
        return None


def _edited(source: str, where: float, column: int, text: str, delete: bool) -> str:
    """`text` typed at a column of the line `where` (0-1) down the source, over one character if
    `delete`."""
    lines = source.split("\n")
    line = min(int(where * len(lines)), len(lines) - 1)
    column = min(column, len(lines[line]))
    end = column + 1 if delete and column < len(lines[line]) else column
    lines[line] = lines[line][:column] + text + lines[line][end:]
    return "\n".join(lines)


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(PROGRAMS), st.lists(st.tuples(st.floats(0, 1), st.integers(0, 200), EDITS,
                                                     st.booleans()), min_size=1, max_size=12))
def test_same_tree_as_a_full_parse_after_any_edits(path, edits):
    source = path.read_text(encoding="utf-8")
    parser = IncrementalParser()
    assert _incremental(parser, source) == _full(source)
    for where, column, text, delete in edits:
        source = _edited(source, where, column, text, delete)
        assert _incremental(parser, source) == _full(source)


def test_typing_inside_one_function_reparses_only_that_function():
    source = (PROGRAMS[0].read_text(encoding="utf-8") + "\n\ndef helper(x):\n    return x + 1\n")
    parser = IncrementalParser()
    parser.parse(source)
    parsed_before, reused_before = parser.parsed, parser.reused
    edited = source.replace("    return x + 1\n", "    return x + 12\n")
    assert _dump(parser.parse(edited)) == _dump(ast.parse(edited))
    assert parser.parsed - parsed_before == 1
    assert parser.reused - reused_before >= 5


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(PROGRAMS), st.lists(st.tuples(st.floats(0, 1), st.integers(0, 200), EDITS),
                                           min_size=1, max_size=6))
def test_node_index_is_the_full_walk(path, edits):
    from gradguard.rules.source.document import Document

    source = path.read_text(encoding="utf-8")
    parser = IncrementalParser()
    for where, column, text in [(0.0, 0, ""), *edits]:
        lines = source.split("\n")
        line = min(int(where * len(lines)), len(lines) - 1)
        lines[line] = lines[line][:column] + text + lines[line][column:]
        candidate = "\n".join(lines)
        if _full(candidate) is None:
            continue
        source = candidate
        document = Document(source, "t.py", parser)
        walked = list(ast.walk(document.tree))
        assert document.nodes == walked
        expected = {child: parent for parent in walked for child in ast.iter_child_nodes(parent)}
        # Load/Store, operators and comparisons are shared singletons: their "parent" means nothing.
        assert _without_contexts(document.parents) == _without_contexts(expected)


def _without_contexts(parents: dict) -> dict:
    singletons = (ast.expr_context, ast.operator, ast.unaryop, ast.cmpop, ast.boolop)
    return {child: parent for child, parent in parents.items() if not isinstance(child, singletons)}


def test_a_line_added_keeps_the_statements_above_it():
    """Enter inside the last function: the statements above keep their nodes (and their parts'
    analyses); the rest is parsed again, and the tree is the full parse's."""
    source = (PROGRAMS[0].read_text(encoding="utf-8") + "\n\ndef helper(x):\n    return x + 1\n")
    parser = IncrementalParser()
    before = parser.parse(source)
    edited = source.replace("    return x + 1\n", "    y = x\n    return y + 1\n")
    after = parser.parse(edited)
    assert _dump(after) == _dump(ast.parse(edited))
    assert all(a is b for a, b in zip(before.body[:-1], after.body[:-1]))  # the same nodes above
    assert after.body[-1] is not before.body[-1]


def test_an_else_added_below_a_statement_is_parsed_with_it():
    """A line at column 0 that continues the statement above (`else:`) is not a new statement:
    the statement it extends is parsed again."""
    parser = IncrementalParser()
    parser.parse("x = 1\nif x:\n    y = 2\nz = 3\n")
    edited = "x = 1\nif x:\n    y = 2\nelse:\n    y = 4\nz = 3\n"
    assert _dump(parser.parse(edited)) == _dump(ast.parse(edited))


def test_the_changed_lines_are_found_from_both_ends():
    """`_changed_lines` compares blocks of lines before single lines: the first and last line
    that differ, whatever the length and wherever the blocks end."""
    import random

    from gradguard.rules.source.incremental import _changed_lines

    rng = random.Random(7)
    for size in (0, 1, 2, 255, 256, 257, 513, 1000):
        for _ in range(100):
            old = [str(rng.randrange(3)) for _ in range(size)]
            new = list(old)
            for _ in range(rng.randrange(3)):
                if size:
                    new[rng.randrange(size)] = "changed"
            differ = [i for i in range(size) if old[i] != new[i]]
            assert _changed_lines(old, new) == ((differ[0], differ[-1]) if differ else (size, -1))


def test_a_backslash_at_the_end_of_the_statement_above_joins_the_line_added_below():
    """Found by hypothesis: `opt = SGD(0.1)\\` then a blank line parses; typing `x` on the blank
    line joins it to the statement above (`SGD(0.1)x`, a syntax error), so the statements above
    cannot be kept while the rest is parsed alone."""
    source = "import tensorflow as tf\nopt = tf.keras.optimizers.SGD(0.1)\\\n\nfor step in range(2):\n    pass\n"
    parser = IncrementalParser()
    assert _incremental(parser, source) == _full(source) is not None
    edited = source.replace("\\\n\n", "\\\nx\n")
    assert _incremental(parser, edited) == _full(edited) is None


NEEDLES = st.sampled_from(["tape", "x", "import", "TF_USE_LEGACY_KERAS", "gradient(", "xx", "é"])


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(PROGRAMS), st.lists(NEEDLES, min_size=1, max_size=3),
       st.lists(st.tuples(st.floats(0, 1), st.integers(0, 200), EDITS, st.booleans(), st.booleans()),
                min_size=1, max_size=10))
def test_contains_is_a_search_of_the_whole_text_after_any_edits(path, needles, edits):
    """`contains` counts the lines holding a needle from one text to the next, searching only the
    lines an edit changed (those the parse compared, or its own comparison of two texts)."""
    from gradguard.rules.source.document import Document

    source = path.read_text(encoding="utf-8")
    parser = IncrementalParser()
    for where, column, text, delete, parse in [(0.0, 0, "", False, True), *edits]:
        source = _edited(source, where, column, text, delete)
        document = Document(source, "t.py", parser)
        if parse and _full(source) is not None:
            document.tree  # the parse compares the texts (when their lines are as many)
        assert [document.contains(needle) for needle in needles] == [needle in source for needle in needles]


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 30), st.sampled_from(["# NoQA", "x = 1", "# noqa: GG101", "", "y"]),
                          st.booleans()), min_size=1, max_size=15))
def test_contains_in_any_case_follows_lines_added_and_removed(edits):
    lines = ["import tensorflow as tf", "x = 1"]
    parser = IncrementalParser()
    for at, text, remove in edits:
        at = min(at, len(lines) - 1 if remove else len(lines))
        if remove and len(lines) > 1:
            del lines[at]
        else:
            lines.insert(at, text)
        source = "\n".join(lines) + "\n"
        assert parser.contains("noqa", parser.lines_of(source), fold_case=True) == ("noqa" in source.lower())
