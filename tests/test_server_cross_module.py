"""The server's jedi pass runs only where jedi could be asked something: a document importing
only the libraries the analyzer knows gets none (a parse instead of a second analysis)."""
from __future__ import annotations

from gradguard.rules.model.budget import Budget
from gradguard.rules.project.config import Config
from gradguard.server import analysis
from gradguard.server.documents import Encoding, TextDocument

PLAIN = "import tensorflow as tf\n\nw = tf.Variable(1.0)\nloss = tf.round(w)\n"
HELPER = "import tensorflow as tf\nfrom helpers import to_numpy\n\nw = tf.Variable(1.0)\nloss = to_numpy(w)\n"


class Resolver:
    """A resolver that records the questions (a real one would start jedi)."""

    def __init__(self) -> None:
        self.asked = []

    def callable_for(self, doc, func, *args):
        self.asked.append(doc.text(func))
        return None

    def is_model(self, doc, node, *args):
        self.asked.append(doc.text(node))
        return False


def _snap(text: str) -> analysis.Snapshot:
    return analysis.snapshot("file:///t.py", "/t.py", [TextDocument("file:///t.py", text, 1)], False, Config(),
                             Encoding(), lens=False)


def test_no_jedi_pass_for_a_document_of_known_libraries_only():
    resolver = Resolver()
    assert analysis.cross_module(_snap(PLAIN), resolver, Budget(5.0)) is None
    assert resolver.asked == []


def test_a_jedi_pass_for_a_document_importing_other_code():
    resolver = Resolver()
    result = analysis.cross_module(_snap(HELPER), resolver, Budget(5.0))
    assert result is not None and result.cross_module
    assert "to_numpy" in resolver.asked


def test_a_document_that_does_not_parse_still_gets_its_jedi_pass():
    assert analysis.cross_module(_snap(HELPER + "def broken(:\n"), Resolver(), Budget(5.0)) is not None
