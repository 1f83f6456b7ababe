"""A publication written from each diagnostic's kept JSON says what pygls's own encoding says."""
from __future__ import annotations

import json

from lsprotocol import types

from gradguard.rules.project.config import Config
from gradguard.rules.source.incremental import IncrementalParser
from gradguard.server import analysis, publication
from gradguard.server.documents import Encoding, TextDocument

CONVERTER = publication.lsp_converter()

TRAIN = """import numpy as np
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
opt = tf.keras.optimizers.SGD(0.1)
x = np.ones((4, 3), "float32")

for step in range(2):
    with tf.GradientTape() as tape:
        prediction = model(x).numpy()
        loss = tf.reduce_mean(tf.round(model(x)) + prediction)
    grads = tape.gradient(loss, model.trainable_variables)
    if grads:
        opt.apply_gradients(zip(grads, model.trainable_variables))
"""


def _as_pygls_writes(notification) -> object:
    return json.loads(json.dumps(notification, default=CONVERTER.unstructure))


def _notification(uri: str, diagnostics, version) -> types.PublishDiagnosticsNotification:
    return types.PublishDiagnosticsNotification(
        method=types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS, jsonrpc="2.0",
        params=types.PublishDiagnosticsParams(uri, diagnostics, version))


def test_kept_diagnostics_with_their_fixes_versions_say_what_pygls_says():
    document = TextDocument("file:///w/train.py", TRAIN, 1)
    parser = IncrementalParser("/w/train.py")
    texts = []
    for version in (1, 2, 3):  # kept diagnostics: their fixes' versions renewed from a template
        document.version = version
        if version == 3:
            document.text = document.text.replace("step in range(2)", "step in range(3)")
        snap = analysis.snapshot(document.uri, "/w/train.py", [document], False, Config(), Encoding(), parser=parser)
        diagnostics = analysis.analyze(snap).by_uri[document.uri]
        assert any(d.data["fixes"] for d in diagnostics)
        notification = _notification(document.uri, diagnostics, version)
        body = publication.body(notification, CONVERTER)
        assert json.loads(body) == _as_pygls_writes(notification)
        assert f'"version": {version}' in body and body.isascii()
        texts.append(body)
    assert texts[0] != texts[1]


def test_unknown_and_empty_publications_say_what_pygls_says():
    loose = types.Diagnostic(types.Range(types.Position(0, 0), types.Position(0, 1)), "a “quoted” \"message\"",
                             code="GG101", data={"fixes": [{"edits": [{"uri": "file:///a.py", "version": 4}]}]})
    for notification in (_notification("file:///a.py", [], None), _notification("file:///a.py", [loose], 7),
                         _notification("file:///a b.py", [loose], None)):
        assert json.loads(publication.body(notification, CONVERTER)) == _as_pygls_writes(notification)
