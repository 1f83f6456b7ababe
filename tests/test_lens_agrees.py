"""The lens agrees with the diagnostics (issue 16): on every bad program of tests/programs (but
those whose `# gap:` says gradguard misses something), the break or missing link a diagnostic
names is what `explain` names for some source of some sink, and the hover at the diagnostic's
position names the same cut; on every good program without findings, no source is ✗."""
from __future__ import annotations

from pathlib import Path

import pytest

from gradguard.rules import api
from gradguard.rules.catalogue.registry import break_rules
from gradguard.rules.lens.lens import Lens
from gradguard.rules.model.record import recording
from gradguard.rules.source.notebook import Notebook

PROGRAMS = Path(__file__).resolve().parent / "programs"
BREAKS = {rule.code for rule in break_rules()}
# The check rules whose finding is one source's lost gradient (the verdict they own).
PER_SOURCE = {"GG301", "GG302", "GG304", "GG306"}


def _bad_programs() -> list[Path]:
    found = []
    for path in sorted(PROGRAMS.glob("bad_*")):
        if path.suffix not in (".py", ".ipynb"):
            continue
        if any(line.startswith("# gap:") for line in path.read_text(encoding="utf-8").splitlines()[:20]):
            continue
        found.append(path)
    return found


def _lens(path: Path) -> Lens:
    text = path.read_text(encoding="utf-8")
    source = Notebook(text).source if path.suffix == ".ipynb" else text
    with recording() as recorder:
        diagnostics = api.lint(source, str(path))
    return Lens(recorder.analysis, recorder.values, diagnostics)


def test_the_selection_is_the_bad_programs_without_a_gap():
    programs = _bad_programs()
    assert len(programs) > 60
    assert all("# gap:" not in p.read_text(encoding="utf-8").split("import", 1)[0] for p in programs)


@pytest.mark.parametrize("path", _bad_programs(), ids=lambda p: p.name)
def test_explain_and_hover_name_the_cut_the_diagnostic_names(path):
    lens = _lens(path)
    explained = [source for sink in lens.analysis.sinks for source in lens.explain_sink(sink).sources]
    # (GG302 also reports moving statistics asked for with `.variables`, GG306 a trainable integer
    # weight a layer makes: neither is a source's verdict at a sink.)
    checked = [d for d in lens.diagnostics if d.code in BREAKS | PER_SOURCE and "non-trainable" not in d.message
               and "trainable integer weight" not in d.message]
    for diagnostic in checked:
        named = [s for s in explained if s.diagnostic == diagnostic]
        assert named, f"{diagnostic.code} at {diagnostic.span}: no source explained names it"
        if diagnostic.code in BREAKS:
            assert all(s.brk.code == diagnostic.code and (s.brk.via or s.brk.span) == diagnostic.span for s in named)
            label = named[0].brk.name
            assert all(label in s.summary for s in named)
            # At the diagnostic's last character: its first is often its receiver's (`q_net(x).numpy()`).
            hover = lens.hover_lines(diagnostic.span.end_line, max(diagnostic.span.end_col - 1, 0))
            assert hover is not None, f"no hover at {diagnostic.code}'s {diagnostic.span}"
            assert any(f"cut by {label}" in line for line in hover[1]), hover
        else:
            assert all(s.ok is False for s in named)


def _ok_programs() -> list[Path]:
    return [p for p in sorted(PROGRAMS.glob("ok_*")) if p.suffix in (".py", ".ipynb")]


@pytest.mark.parametrize("path", _ok_programs(), ids=lambda p: p.name)
def test_where_no_diagnostic_is_reported_the_lens_says_no_source_lacks_its_gradient(path):
    lens = _lens(path)
    if lens.diagnostics:
        pytest.skip("the program has findings of its own (advice)")
    lacking = [(sink.node.lineno, source.summary) for sink in lens.analysis.sinks
               for source in lens.explain_sink(sink, steps=False).sources if source.ok is False]
    assert lacking == []
    assert all(not label.startswith("✗") for _, _, label, _ in lens.hints())
