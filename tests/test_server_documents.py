"""The server's document copy: after any sequence of incremental edits it equals the client's."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from lsprotocol import types

from gradguard.server.documents import DocumentStore, Encoding, TextDocument

UTF16 = Encoding(types.PositionEncodingKind.Utf16)
ALPHABET = st.sampled_from(["a", "b", " ", "\n", "\r\n", "\r", "é", "😀", "\t", "\f", "\u2028"])
TEXTS = st.lists(ALPHABET, max_size=40).map("".join)


def _client_lines(text: str) -> list[str]:
    """What an LSP client considers lines: split at \\r\\n, \\r and \\n only."""
    lines, current, i = [], "", 0
    while i < len(text):
        if text.startswith("\r\n", i):
            lines.append(current)
            current, i = "", i + 2
        elif text[i] in "\r\n":
            lines.append(current)
            current, i = "", i + 1
        else:
            current, i = current + text[i], i + 1
    return [*lines, current]


def _client_offset(text: str, line: int, units: int) -> int:
    """The client's reading of a UTF-16 position (clamped as the specification says)."""
    lines = _client_lines(text)
    if line >= len(lines):
        return len(text)
    offset = 0
    for index in range(line):
        offset += len(lines[index])
        offset += 2 if text.startswith("\r\n", offset) else 1
    count = 0
    for char in lines[line]:
        if count >= units:
            break
        count += 2 if ord(char) > 0xFFFF else 1
        offset += 1
    return offset


@st.composite
def edits(draw, text: str):
    lines = _client_lines(text)
    line_a = draw(st.integers(0, len(lines)))
    line_b = draw(st.integers(line_a, len(lines)))
    char_a = draw(st.integers(0, 2 * len(lines[line_a]) + 1 if line_a < len(lines) else 2))
    char_b = draw(st.integers(0, 2 * len(lines[line_b]) + 1 if line_b < len(lines) else 2))
    return (line_a, char_a), (line_b, char_b), draw(TEXTS)


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_incremental_edits_keep_the_copy_equal_to_the_clients(data):
    text = data.draw(TEXTS)
    store = DocumentStore()
    store.open(types.TextDocumentItem(uri="file:///t.py", language_id="python", version=1, text=text))
    for version in range(2, 2 + data.draw(st.integers(1, 8))):
        (la, ca), (lb, cb), new = data.draw(edits(text))
        start, end = _client_offset(text, la, ca), _client_offset(text, lb, cb)
        start, end = min(start, end), max(start, end)
        # A position between the two halves of a surrogate pair or of "\r\n" is not valid LSP.
        text = text[:start] + new + text[end:]
        store.change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri="file:///t.py", version=version),
            content_changes=[types.TextDocumentContentChangePartial(
                range=types.Range(types.Position(la, ca), types.Position(lb, cb)), text=new)],
        ), UTF16)
        assert store.get("file:///t.py").text == text
        assert store.get("file:///t.py").version == version


def test_lines_end_only_at_lsp_line_breaks():
    document = TextDocument("u", "a\fb\u2028c\r\nd\re\nf")
    assert [document.line(i) for i in range(document.line_count)] == ["a\fb\u2028c", "d", "e", "f"]


def test_positions_past_the_end_are_clamped():
    document = TextDocument("u", "ab\ncd")
    assert document.offset_at(types.Position(0, 99), UTF16) == 2
    assert document.offset_at(types.Position(99, 0), UTF16) == 5
    assert document.position_at(99, 0, UTF16) == types.Position(1, 2)


def test_utf16_columns_count_astral_characters_twice():
    document = TextDocument("u", "x = '😀' + y")
    assert document.position_at(0, 10, UTF16) == types.Position(0, 11)
    assert document.offset_at(types.Position(0, 11), UTF16) == 10
    utf8 = Encoding(types.PositionEncodingKind.Utf8)
    assert document.position_at(0, 10, utf8) == types.Position(0, 13)


def test_notebook_structure_changes_open_and_close_cells():
    store = DocumentStore()
    cell = lambda uri, text: types.TextDocumentItem(uri=uri, language_id="python", version=1, text=text)  # noqa: E731
    store.open_notebook(types.DidOpenNotebookDocumentParams(
        notebook_document=types.NotebookDocument(uri="nb", notebook_type="jupyter-notebook", version=1, cells=[
            types.NotebookCell(kind=types.NotebookCellKind.Code, document="c1")]),
        cell_text_documents=[cell("c1", "a = 1\n")]))
    store.change_notebook(types.DidChangeNotebookDocumentParams(
        notebook_document=types.VersionedNotebookDocumentIdentifier(version=2, uri="nb"),
        change=types.NotebookDocumentChangeEvent(cells=types.NotebookDocumentCellChanges(
            structure=types.NotebookDocumentCellChangeStructure(
                array=types.NotebookCellArrayChange(start=0, delete_count=0, cells=[
                    types.NotebookCell(kind=types.NotebookCellKind.Code, document="c0")]),
                did_open=[cell("c0", "import tensorflow as tf\n")])))), UTF16)
    assert [c.uri for c in store.notebooks["nb"].cells] == ["c0", "c1"]
    assert store.target_of("c0") == "nb" and store.get("c0").text == "import tensorflow as tf\n"
    store.close_notebook("nb")
    assert store.get("c0") is None and store.get("c1") is None


def _random_edits(seed: int, pieces: list[str], count: int = 20000):
    """(old text, start, end, new text) of random texts and replacements."""
    import random

    rng = random.Random(seed)
    for _ in range(count):
        old = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 10)))
        start = rng.randint(0, len(old))
        end = rng.randint(start, len(old))
        yield old, start, end, "".join(rng.choice(pieces) for _ in range(rng.randint(0, 4)))


def test_line_starts_follow_partial_edits_as_a_recount_would():
    """`apply_change` moves the line starts instead of counting them again (issue 23: an edit costs
    its function); random texts and edits, "\\r\\n" and lone "\\r" included, against a recount."""
    from gradguard.rules.source.text import line_starts
    from gradguard.server.documents import _shifted_starts

    moved = 0
    for old, start, end, new in _random_edits(5, ["a", "\n", "\r\n", "\r", "xy", "é", "\n\n"]):
        shifted = _shifted_starts(line_starts(old), old, start, end, new)
        if shifted is not None:
            moved += 1
            assert shifted == line_starts(old[:start] + new + old[end:]), (old, start, end, new)
    assert moved > 5000  # most edits are moved, not recounted


def test_lines_follow_partial_edits_as_a_split_would():
    """`apply_change` splits again only the lines an edit touched (issue 23: the analysis of a
    keystroke is given the document's lines, not a split of the whole text); random texts and
    edits, "\\r\\n" and lone "\\r" included, against a split."""
    from gradguard.rules.source.text import line_starts, split_lines
    from gradguard.server.documents import _edited_lines

    edited = 0
    for old, start, end, new in _random_edits(7, ["a", "\n", "\r\n", "\r", "xy", "é", "\n\n", "\f"]):
        lines = _edited_lines(split_lines(old), line_starts(old), old, start, end, new)
        if lines is not None:
            edited += 1
            assert lines == split_lines(old[:start] + new + old[end:]), (old, start, end, new)
    assert edited > 5000


def test_a_document_s_lines_after_edits_are_its_text_s():
    from gradguard.rules.source.text import split_lines

    document = TextDocument("file:///t.py", "import tensorflow as tf\n\nx = 1\n", 1)
    assert document.lines == split_lines(document.text)
    for line, character, text in [(2, 5, "2"), (1, 0, "y = x\nz = y\n"), (0, 0, "\n"), (5, 0, "w")]:
        position = types.Position(line, character)
        document.apply_change(types.TextDocumentContentChangePartial(range=types.Range(position, position),
                                                                     text=text), UTF16)
        assert document.lines == split_lines(document.text), document.text
