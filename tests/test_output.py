"""Report formats (rules/output.py) and rule documentation (rules/docs.py, scripts/gen_rule_docs.py)."""
from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

import pytest

from gradguard.rules import __version__
from gradguard.rules.catalogue import registry
from gradguard.rules.diagnostics import Diagnostic, Edit, Fix, Related, Safety, Severity, Span
from gradguard.rules.catalogue.docs import render_index, render_rule_doc
from gradguard.rules.source.notebook import Notebook
from gradguard.rules.app.output import (
    Style,
    diff_summary,
    display_width,
    utf16_column,
    format_github,
    format_json,
    format_sarif,
    format_statistics,
    format_text,
    render,
    summary_line,
)
from gradguard.rules.catalogue.rule import Rule

ROOT = Path(__file__).resolve().parent.parent


class NumpyRule(Rule):
    code = "GG999"
    name = "fake-numpy"
    summary = "`.numpy()` on a tensor | with a pipe"
    what = "Finds `.numpy()`."
    why = "NumPy arrays are constants to TensorFlow."
    error = "ValueError: No gradients provided for any variable."
    bad = """
        import tensorflow as tf
        y = x.numpy()
    """
    good = """
        import tensorflow as tf
        y = x
    """
    fix_safety = "Dropping `.numpy()` changes the type: unsafe."


class CastRule(NumpyRule):
    code = "GG998"
    name = "fake-cast"
    summary = "float() on a tensor"
    severity = Severity.WARNING
    fixed_outcome = "nofix"


@pytest.fixture(autouse=True)
def fake_registry(monkeypatch):
    monkeypatch.setattr(registry, "all_rules", lambda: (CastRule, NumpyRule))


SOURCE = "import tensorflow as tf\ny = x.numpy()\nz = float(w)\n"
SAFE_FIX = Fix("Remove `.numpy()`", Safety.SAFE, (Edit(Span(2, 5, 2, 13), ""),), preferred=True)
UNSAFE_FIX = Fix("Use tf.cast", Safety.UNSAFE, (Edit(Span(3, 4, 3, 12), "tf.cast(w, tf.float32)"),))
NUMPY = Diagnostic("GG999", Severity.ERROR, "`.numpy()` cuts the gradient", Span(2, 5, 2, 13), fixes=(SAFE_FIX,))
CAST = Diagnostic("GG998", Severity.WARNING, "float() cuts the gradient", Span(3, 4, 3, 12), fixes=(UNSAFE_FIX,))
PLAIN = Diagnostic("GG997", Severity.INFO, "advice", Span(1, 0, 1, 6))
FINDINGS = [("pkg/a.py", SOURCE, NUMPY), ("pkg/a.py", SOURCE, CAST)]


# ------------------------------------------------------------------------------ text


def test_text_location_snippet_and_caret():
    out = format_text([FINDINGS[0]])
    assert out.splitlines()[:5] == [
        "pkg/a.py:2:6: GG999 [*] `.numpy()` cuts the gradient",
        "  |",
        "2 | y = x.numpy()",
        "  |      ^^^^^^^^",
        "  |",
    ]


def test_text_marks_unsafe_fixes_only_when_shown():
    assert "GG998 float()" in format_text(FINDINGS)
    assert "GG998 [*] float()" in format_text(FINDINGS, unsafe_fixes=True)


def test_text_caret_of_multiline_span_runs_to_end_of_line_and_expands_tabs():
    diag = Diagnostic("GG999", Severity.ERROR, "m", Span(2, 1, 3, 2))
    out = format_text([("a.py", "x\n\ty = f(\n  1)\n", diag)], summary=False)
    assert "2 |         y = f(" in out
    assert "  |         ^^^^^^" in out


def test_text_related_notes():
    diag = Diagnostic("GG999", Severity.ERROR, "m", Span(2, 5, 2, 13), (Related(Span(3, 0, 3, 1), "loss here"),))
    assert "  = note: 3:1: loss here" in format_text([("a.py", SOURCE, diag)])


def test_text_without_a_source_line_has_no_snippet():
    diag = Diagnostic("E902", Severity.ERROR, "binary file", Span(1, 0, 1, 0))
    assert format_text([("b.py", "", diag)], summary=False) == "b.py:1:1: E902 binary file\n"


def test_text_notebook_positions_are_per_cell():
    cells = [{"cell_type": "code", "source": ["import tensorflow as tf\n"], "metadata": {}, "outputs": []},
             {"cell_type": "markdown", "source": ["text"], "metadata": {}},
             {"cell_type": "code", "source": ["z = 1\n", "y = x.numpy()\n"], "metadata": {}, "outputs": []}]
    notebook = Notebook(json.dumps({"cells": cells}))
    diag = Diagnostic("GG999", Severity.ERROR, "m", Span(3, 5, 3, 13), (Related(Span(2, 0, 2, 1), "here"),))
    out = format_text([("nb.ipynb", notebook, diag)])
    assert out.startswith("nb.ipynb:cell 3:2:6: GG999 m\n  |\n2 | y = x.numpy()\n  |      ^^^^^^^^\n")
    assert "= note: cell 3:1:1: here" in out


@pytest.mark.parametrize(
    ("findings", "unsafe", "fixed", "expected"),
    [
        ([], False, 0, "All checks passed!"),
        # ruff 0.17's words (`ruff check` on E711, unsafe, and F541, safe)
        (FINDINGS, False, 0,
         "Found 2 errors.\n[*] 1 fixable with `--fix` (1 unsafe fix available with `--fix --unsafe-fixes`)."),
        (FINDINGS + FINDINGS[1:], False, 0,
         "Found 3 errors.\n[*] 1 fixable with `--fix` (2 unsafe fixes available with `--fix --unsafe-fixes`)."),
        (FINDINGS, True, 0, "Found 2 errors.\n[*] 2 fixable with `--fix`."),
        ([FINDINGS[1]], False, 0, "Found 1 error.\n1 unsafe fix available with `--fix --unsafe-fixes`."),
        ([("a.py", SOURCE, PLAIN)], False, 0, "Found 1 error."),
        ([FINDINGS[1]], False, 2, "Found 3 errors (2 fixed, 1 remaining).\n1 unsafe fix available with `--fix --unsafe-fixes`."),
        ([("a.py", SOURCE, PLAIN)], False, 2, "Found 3 errors (2 fixed, 1 remaining)."),
        ([], False, 1, "Found 1 error (1 fixed, 0 remaining)."),
    ],
)
def test_summary_line(findings, unsafe, fixed, expected):
    assert summary_line(findings, unsafe, fixed) == expected
    assert format_text(findings, unsafe_fixes=unsafe, fixed=fixed).endswith(expected + "\n")


def test_text_without_summary():
    assert "Found" not in format_text(FINDINGS, summary=False)


# ------------------------------------------------------------------------------ json


def test_json_has_exactly_the_documented_fields():
    items = json.loads(format_json(FINDINGS + [("b.py", "", PLAIN)]))
    assert items[0] == {
        "path": "pkg/a.py", "cell": None, "line": 2, "column": 6, "end_line": 2, "end_column": 14, "code": "GG999",
        "name": "fake-numpy", "url": NumpyRule.doc_url(), "severity": "error", "message": "`.numpy()` cuts the gradient",
        "fix": {"title": "Remove `.numpy()`", "safety": "safe", "edits": [
            {"cell": None, "line": 2, "column": 6, "end_line": 2, "end_column": 14, "content": ""}]},
        "related": [],
    }
    assert items[1]["fix"] == {"title": "Use tf.cast", "safety": "unsafe", "edits": [
        {"cell": None, "line": 3, "column": 5, "end_line": 3, "end_column": 13, "content": "tf.cast(w, tf.float32)"}]}
    assert items[2]["url"] is None and items[2]["name"] == ""
    assert items[1]["severity"] == "warning"
    assert items[2]["fix"] is None and items[2]["severity"] == "info"
    assert json.loads(format_json([])) == []


def test_json_uses_the_preferred_fix():
    other = Fix("other", Safety.UNSAFE, ())
    diag = Diagnostic("GG999", Severity.ERROR, "m", Span(1, 0, 1, 1), fixes=(other, SAFE_FIX))
    assert json.loads(format_json([("a.py", "x", diag)]))[0]["fix"]["title"] == "Remove `.numpy()`"


# ------------------------------------------------------------------------------ sarif


def test_sarif_document():
    sarif = json.loads(format_sarif(FINDINGS + [("c.py", "", PLAIN)]))
    assert sarif["version"] == "2.1.0" and "sarif-2.1.0" in sarif["$schema"]
    driver = sarif["runs"][0]["tool"]["driver"]
    assert driver["name"] == "gradguard" and driver["version"] == __version__
    assert [r["id"] for r in driver["rules"]] == ["GG998", "GG999", "E999", "E902", "GG900"]
    assert driver["rules"][1]["helpUri"] == NumpyRule.doc_url()
    assert driver["rules"][1]["name"] == "fake-numpy"
    assert driver["rules"][0]["defaultConfiguration"] == {"level": "warning"}
    assert driver["rules"][1]["help"]["markdown"] == render_rule_doc(NumpyRule)
    assert driver["rules"][1]["help"]["text"].endswith("Documentation: " + NumpyRule.doc_url())
    results = sarif["runs"][0]["results"]
    assert [(r["ruleId"], r["level"]) for r in results] == [("GG999", "error"), ("GG998", "warning"), ("GG997", "note")]
    assert results[0]["ruleIndex"] == 1 and "ruleIndex" not in results[2]
    location = results[0]["locations"][0]["physicalLocation"]
    assert location["artifactLocation"] == {"uri": "pkg/a.py", "uriBaseId": "%SRCROOT%"}
    assert sarif["runs"][0]["originalUriBaseIds"]["%SRCROOT%"]["uri"] == Path.cwd().as_uri() + "/"
    assert sarif["runs"][0]["columnKind"] == "utf16CodeUnits"
    assert location["region"] == {"startLine": 2, "startColumn": 6, "endLine": 2, "endColumn": 14}
    assert results[0]["message"]["text"] == "`.numpy()` cuts the gradient"


def test_sarif_absolute_path_is_a_file_uri(tmp_path):
    sarif = json.loads(format_sarif([(str(tmp_path / "a b.py"), SOURCE, NUMPY)]))
    uri = sarif["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
    assert uri.startswith("file:///") and uri.endswith("/a%20b.py")


# ------------------------------------------------------------------------------ github


def test_github_annotations():
    out = format_github(FINDINGS + [("c.py", "", PLAIN)])
    assert out.splitlines() == [
        "::error file=pkg/a.py,line=2,col=6,endLine=2,endColumn=14,title=GG999::`.numpy()` cuts the gradient",
        "::warning file=pkg/a.py,line=3,col=5,endLine=3,endColumn=13,title=GG998::float() cuts the gradient",
        "::notice file=c.py,line=1,col=1,endLine=1,endColumn=7,title=GG997::advice",
    ]


def test_github_escapes_special_characters():
    diag = Diagnostic("GG999", Severity.ERROR, "100% broken\nsecond line", Span(1, 0, 1, 1))
    out = format_github([("dir,x/a:b.py", "", diag)])
    assert out == "::error file=dir%2Cx/a%3Ab.py,line=1,col=1,endLine=1,endColumn=2,title=GG999::100%25 broken%0Asecond line\n"


# ------------------------------------------------------------------------------ statistics


def test_statistics_sorted_by_count_with_names():
    findings = FINDINGS + [("b.py", SOURCE, NUMPY), ("c.py", "", Diagnostic("E999", Severity.ERROR, "x", Span(1, 0, 1, 0)))]
    assert format_statistics(findings).splitlines() == [
        "2\tGG999\t[*] fake-numpy",
        "1\tE999\t[ ] syntax-error",
        "1\tGG998\t[ ] fake-cast",
    ]
    assert "1\tGG998\t[*] fake-cast" in format_statistics(findings, unsafe_fixes=True)


def test_statistics_json():
    rows = json.loads(format_statistics(FINDINGS + [("b.py", SOURCE, NUMPY)], as_json=True))
    assert rows[0] == {"code": "GG999", "name": "fake-numpy", "count": 2, "fixable": True}
    assert rows[1]["code"] == "GG998" and rows[1]["fixable"] is False


def test_render_dispatches_by_format():
    assert render("json", FINDINGS) == format_json(FINDINGS)
    assert render("github", FINDINGS) == format_github(FINDINGS)
    assert render("sarif", FINDINGS) == format_sarif(FINDINGS)
    assert render("text", FINDINGS, summary=False) == format_text(FINDINGS, summary=False)


# ------------------------------------------------------------------------------ rule docs


def test_rule_doc_sections_in_order():
    doc = render_rule_doc(NumpyRule)
    headings = [line for line in doc.splitlines() if line.startswith("#")]
    assert headings == [
        "# GG999: fake-numpy", "## What it does", "## Why is this bad?", "## What you see", "## Example",
        "## Use instead", "## Fix safety",
    ]
    assert "```python\nimport tensorflow as tf\ny = x.numpy()\n```" in doc  # dedented
    assert "```python\nimport tensorflow as tf\ny = x\n```" in doc
    assert "## What you see\n\nValueError: No gradients provided for any variable.\n\n## Example" in doc
    assert "NumPy arrays are constants to TensorFlow." in doc
    assert "**Severity:** error" in doc and "**Automatic fix:** yes" in doc
    assert doc.endswith("unsafe.\n")


def test_rule_doc_without_fix():
    assert "**Severity:** warning · **Automatic fix:** no" in render_rule_doc(CastRule)


def test_rule_index_table():
    index = render_index([CastRule, NumpyRule])
    assert "| Code | Name | Summary | Severity | Fix |" in index
    assert "| [GG998](GG998.md) | fake-cast | float() on a tensor | warning | no |" in index
    assert "| [GG999](GG999.md) | fake-numpy | `.numpy()` on a tensor \\| with a pipe | error | yes |" in index


def load_gen_script():
    spec = importlib.util.spec_from_file_location("gen_rule_docs", ROOT / "scripts" / "gen_rule_docs.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_gen_rule_docs_writes_then_check_passes(tmp_path, capsys):
    script = load_gen_script()
    out = tmp_path / "rules"
    assert script.main(["--check", "--out", str(out)]) == 1  # nothing written yet
    assert script.main(["--out", str(out)]) == 0
    assert sorted(p.name for p in out.iterdir()) == ["GG998.md", "GG999.md", "README.md"]
    assert (out / "GG999.md").read_text() == render_rule_doc(NumpyRule)
    assert (out / "README.md").read_text() == render_index([CastRule, NumpyRule])
    assert script.main(["--check", "--out", str(out)]) == 0


@pytest.mark.parametrize("damage", ["edit", "extra", "delete"])
def test_gen_rule_docs_check_finds_stale_files(tmp_path, capsys, damage):
    script = load_gen_script()
    out = tmp_path / "rules"
    script.main(["--out", str(out)])
    if damage == "edit":
        (out / "GG998.md").write_text("old\n")
    elif damage == "extra":
        (out / "GG100.md").write_text("a rule that is gone\n")
    else:
        (out / "README.md").unlink()
    capsys.readouterr()
    assert script.main(["--check", "--out", str(out)]) == 1
    assert "stale:" in capsys.readouterr().err
    script.main(["--out", str(out)])  # regenerating repairs it
    assert script.main(["--check", "--out", str(out)]) == 0
    assert not (out / "GG100.md").exists()


# ------------------------------------------------------------------------------ text: fixes, colour, widths


def test_text_says_each_fix_and_marks_unsafe_ones():
    out = format_text(FINDINGS, summary=False)
    assert "  = help: Remove `.numpy()`\n" in out and "  = help: Use tf.cast (unsafe fix)\n" in out
    assert "help" not in format_text([("a.py", SOURCE, PLAIN)], summary=False)


@pytest.mark.parametrize(("text", "width"), [
    ("abc", 3), ("中文", 4), ("😀", 2), ("e\u0301", 1), ("a\tb", 9), ("\t", 8), ("1234567\tx", 9), ("中\t", 8),
])
def test_display_width_counts_terminal_columns(text, width):
    assert display_width(text) == width


def test_carets_under_wide_characters_and_a_tab_inside_the_line():
    source = 'y = "中文😀"\tx.numpy()\n'
    diag = Diagnostic("GG999", Severity.ERROR, "m", Span(1, 10, 1, 19))
    out = format_text([("a.py", source, diag)], summary=False).splitlines()
    assert out[2] == '1 | y = "中文😀"    x.numpy()'  # 12 columns, the tab reaches column 16
    assert out[3] == "  | " + " " * 16 + "^" * 9


def test_colour_only_when_asked():
    plain = format_text(FINDINGS)
    coloured = format_text(FINDINGS, style=Style(True))
    assert "\x1b[" not in plain and "\x1b[1;31mGG999\x1b[0m" in coloured and "\x1b[36m[*]\x1b[0m" in coloured
    assert re.sub(r"\x1b\[[0-9;]*m", "", coloured) == plain
    assert format_text([], style=Style(True)) == "\x1b[1;32mAll checks passed!\x1b[0m\n"


@pytest.mark.parametrize(("fixed", "remaining", "unsafe", "expected"), [
    (2, [], False, "Would fix 2 errors."),
    (1, [FINDINGS[1]], False, "Would fix 1 error (1 additional fix available with `--unsafe-fixes`)."),
    (0, [FINDINGS[1], FINDINGS[1]], False, "No errors would be fixed (2 fixes available with `--unsafe-fixes`)."),
    (0, [FINDINGS[1]], True, None),
    (0, [("a.py", SOURCE, PLAIN)], False, None),
])
def test_diff_summary_in_ruffs_words(fixed, remaining, unsafe, expected):
    assert diff_summary(fixed, remaining, unsafe) == expected


def test_utf16_columns_count_astral_characters_twice():
    assert utf16_column("a😀b", 2) == 3 and utf16_column("中文x", 2) == 2
    source = 'y = "😀" + x.numpy()\n'
    diag = Diagnostic("GG999", Severity.ERROR, "m", Span(1, 11, 1, 20))
    region = json.loads(format_sarif([("a.py", source, diag)]))["runs"][0]["results"][0]["locations"][0]
    assert region["physicalLocation"]["region"] == {"startLine": 1, "startColumn": 13, "endLine": 1, "endColumn": 22}
    assert json.loads(format_json([("a.py", source, diag)]))[0]["column"] == 12  # characters, like ruff's JSON


def test_notebook_positions_in_json_sarif_and_github():
    cells = [{"cell_type": "code", "source": ["import tensorflow as tf\n"], "metadata": {}, "outputs": []},
             {"cell_type": "markdown", "source": ["text"], "metadata": {}},
             {"cell_type": "code", "source": ["z = 1\n", "y = x.numpy()\n"], "metadata": {}, "outputs": []}]
    notebook = Notebook(json.dumps({"cells": cells}))
    fix = Fix("Remove `.numpy()`", Safety.SAFE, (Edit(Span(3, 5, 3, 13), ""),))
    diag = Diagnostic("GG999", Severity.ERROR, "loss on line 3", Span(3, 5, 3, 13),
                      (Related(Span(1, 0, 1, 6), "used on line 2"),), fixes=(fix,))
    item = json.loads(format_json([("nb.ipynb", notebook, diag)]))[0]
    assert (item["cell"], item["line"], item["column"], item["end_line"], item["end_column"]) == (3, 2, 6, 2, 14)
    assert item["related"] == [{"path": None, "cell": 1, "line": 1, "column": 1, "end_line": 1, "end_column": 7,
                                "message": "used in cell 3, line 1"}]
    assert item["fix"]["edits"] == [{"cell": 3, "line": 2, "column": 6, "end_line": 2, "end_column": 14, "content": ""}]
    result = json.loads(format_sarif([("nb.ipynb", notebook, diag)]))["runs"][0]["results"][0]
    assert result["message"]["text"] == "cell 3: loss on line 3" and result["properties"] == {"cell": 3}
    assert result["locations"][0]["physicalLocation"]["region"]["startLine"] == 2 and "fixes" not in result
    assert format_github([("nb.ipynb", notebook, diag)]) == (
        "::error file=nb.ipynb,line=2,col=6,endLine=2,endColumn=14,title=GG999::cell 3, line 2: loss on line 3\n")
