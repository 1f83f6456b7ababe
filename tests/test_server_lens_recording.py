"""The server records values for the lens only when hover or inlay hints are on (issue 16): the
recording costs some 6% of an edit's analysis. In process, on the server's own snapshots."""
from __future__ import annotations

import pytest

from gradguard.rules.model import engine
from gradguard.rules.project.config import Config
from gradguard.server import analysis
from gradguard.server.documents import Encoding, TextDocument

TRAIN = '''\
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(1)])


def step(x):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(model(x).numpy())
    return tape.gradient(loss, model.trainable_variables)
'''


def _snap(lens: bool) -> analysis.Snapshot:
    return analysis.snapshot("file:///t.py", "/t.py", [TextDocument("file:///t.py", TRAIN, 1)], False, Config(),
                             Encoding(), lens=lens)


@pytest.fixture
def entered(monkeypatch) -> list[int]:
    """How often the analysis entered `recording()`, and how many recording engines were built."""
    counts = [0, 0]
    real_recording, real_class = analysis.recording, engine.engine_class

    def counting_recording():
        counts[0] += 1
        return real_recording()

    def counting_class(base):
        cls = real_class(base)
        counts[1] += cls is not base
        return cls

    monkeypatch.setattr(analysis, "recording", counting_recording)
    monkeypatch.setattr(engine, "engine_class", counting_class)
    return counts


def test_with_the_lens_off_the_analysis_never_records(entered):
    result = analysis.analyze(_snap(lens=False))
    assert [d.code for d in result.diagnostics] == ["GG101"]
    assert result.lens is None
    assert entered == [0, 0]


def test_with_the_lens_on_it_records(entered):
    result = analysis.analyze(_snap(lens=True))
    assert [d.code for d in result.diagnostics] == ["GG101"]
    assert result.lens is not None and result.lens.values
    assert entered[0] == 1 and entered[1] >= 1

