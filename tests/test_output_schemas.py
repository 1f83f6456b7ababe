"""Every machine format of `gradguard check` (the real CLI and analyzer), validated against its schema: SARIF against
the OASIS SARIF 2.1.0 schema, JSON against gradguard's own (tests/data/), GitHub workflow commands
against their grammar, on a project with every kind of finding: fixes safe and unsafe, related
locations, a notebook, a syntax error (E999), an unreadable file (E902) and GG900."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from test_cli_ruff import gradguard  # the CLI's main in this process, output captured

jsonschema = pytest.importorskip("jsonschema")

DATA = Path(__file__).parent / "data"

ROUND = '''import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
x = tf.ones((2, 3))  # gradguard: ignore[GG101]
with tf.GradientTape() as tape:
    y = model(x)
    loss = tf.reduce_mean(tf.round(y))  # 中文 😀
grads = tape.gradient(loss, model.trainable_variables)
'''
UNWATCHED = '''import tensorflow as tf

x = tf.constant([1.0, 2.0, 3.0])
with tf.GradientTape() as tape:
    y = tf.reduce_sum(x ** 2)
dy_dx = tape.gradient(y, x)
'''


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("project")
    (root / "pkg").mkdir()
    (root / "pkg" / "round.py").write_text(ROUND)
    (root / "pkg" / "watch.py").write_text(UNWATCHED)
    (root / "pkg" / "broken.py").write_text("def f(:\n")
    (root / "pkg" / "binary.py").write_bytes(b"\x00\x01")
    cells = [{"cell_type": "code", "execution_count": None, "id": f"c{i}", "metadata": {}, "outputs": [],
              "source": text.splitlines(keepends=True)} for i, text in enumerate(ROUND.split("with tf.Gradient"))]
    cells[1]["source"][0] = "with tf.Gradient" + cells[1]["source"][0]
    (root / "nb.ipynb").write_text(json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}))
    return root


def output(project: Path, fmt: str, *extra: str) -> str:
    code, out, err = gradguard("check", "--no-cache", "--extend-select", "GG900", "--format", fmt, *extra, ".",
                               cwd=project)
    assert code == 1, err
    return out


def test_the_project_has_every_kind_of_finding(project):
    items = json.loads(output(project, "json"))
    assert {item["code"] for item in items} == {"GG401", "GG306", "GG900", "E999", "E902"}
    assert {item["fix"]["safety"] for item in items if item["fix"]} == {"safe", "unsafe"}
    assert any(item["cell"] for item in items) and any(item["related"] for item in items)


def test_sarif_is_valid_sarif_2_1_0(project):
    schema = json.loads((DATA / "sarif-schema-2.1.0.json").read_text())
    sarif = json.loads(output(project, "sarif"))
    jsonschema.Draft4Validator.check_schema(schema)
    errors = sorted(jsonschema.Draft4Validator(schema).iter_errors(sarif), key=lambda e: list(e.path))
    assert not errors, [f"{list(e.path)}: {e.message}" for e in errors]
    run = sarif["runs"][0]
    assert all(run["tool"]["driver"]["rules"][r["ruleIndex"]]["id"] == r["ruleId"] for r in run["results"])


def test_a_broken_sarif_fails_the_schema(project):
    """The validation can fail: a result without a message is not SARIF."""
    schema = json.loads((DATA / "sarif-schema-2.1.0.json").read_text())
    sarif = json.loads(output(project, "sarif"))
    del sarif["runs"][0]["results"][0]["message"]
    sarif["runs"][0]["columnKind"] = "bytes"
    assert len(list(jsonschema.Draft4Validator(schema).iter_errors(sarif))) == 2


def test_json_matches_its_schema(project):
    schema = json.loads((DATA / "gradguard-json.schema.json").read_text())
    items = json.loads(output(project, "json"))
    jsonschema.Draft202012Validator.check_schema(schema)
    errors = list(jsonschema.Draft202012Validator(schema).iter_errors(items))
    assert not errors, [f"{list(e.path)}: {e.message}" for e in errors]
    items[0]["extra"] = 1  # the schema names every field: an undocumented one fails it
    assert list(jsonschema.Draft202012Validator(schema).iter_errors(items))


def test_statistics_json_rows(project):
    rows = json.loads(output(project, "json", "--statistics"))
    schema = {"type": "array", "items": {"type": "object", "additionalProperties": False,
              "required": ["code", "name", "count", "fixable"],
              "properties": {"code": {"type": "string"}, "name": {"type": "string", "minLength": 1},
                             "count": {"type": "integer", "minimum": 1}, "fixable": {"type": "boolean"}}}}
    assert not list(jsonschema.Draft202012Validator(schema).iter_errors(rows))


# https://docs.github.com/actions/using-workflows/workflow-commands-for-github-actions: properties
# escape % \r \n : , and the message % \r \n.
_GITHUB = re.compile(
    r"::(error|warning|notice) file=(?:[^,:\r\n%]|%25|%0D|%0A|%3A|%2C)+,line=[1-9]\d*,col=[1-9]\d*,"
    r"endLine=[1-9]\d*,endColumn=[1-9]\d*,title=(GG\d{3}|E999|E902)::(?:[^\r\n%]|%25|%0D|%0A)+"
)


def test_github_annotations_follow_the_workflow_command_grammar(project):
    lines = output(project, "github").splitlines()
    assert len(lines) == len(json.loads(output(project, "json")))
    for line in lines:
        assert _GITHUB.fullmatch(line), line
