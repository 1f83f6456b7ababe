"""No finding hides another (issue 15, item 2): what a rule reports does not depend on which other
rules are selected, suppressed or fixed. The bundled example has three bugs; each is reported
with all rules on, with only its own family selected, with the others' lines suppressed, and
after the others' fixes are applied."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

from test_cli_ruff import gradguard

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "dqn_no_gradients.py"
BUGS = {"GG202": 41, "GG101": 45, "GG309": 51}


def _codes(out: str) -> dict[str, int]:
    return {m["code"]: int(m["line"]) for m in re.finditer(r"^\S+?:(?P<line>\d+):\d+: (?P<code>GG\d+) ", out, re.M)}


def _copy(tmp_path: Path) -> Path:
    path = tmp_path / "dqn.py"
    shutil.copy(EXAMPLE, path)
    return path


def test_the_example_reports_its_three_bugs(tmp_path):
    code, out, _ = gradguard("check", "--no-cache", str(_copy(tmp_path)), cwd=tmp_path)
    assert code == 1 and _codes(out) == BUGS


def test_each_family_alone_reports_what_it_reports_with_all_rules(tmp_path):
    path = _copy(tmp_path)
    for rule, line in BUGS.items():
        _, out, _ = gradguard("check", "--no-cache", "--select", rule[:3], str(path), cwd=tmp_path)
        assert _codes(out) == {rule: line}, (rule, out)


def test_suppressing_one_finding_leaves_the_others(tmp_path):
    path = _copy(tmp_path)
    lines = path.read_text(encoding="utf-8").split("\n")
    lines[BUGS["GG101"] - 1] += "  # noqa: GG101"
    path.write_text("\n".join(lines), encoding="utf-8")
    _, out, _ = gradguard("check", "--no-cache", str(path), cwd=tmp_path)
    assert _codes(out) == {"GG202": 41, "GG309": 51}


def test_fixing_the_numpy_break_leaves_the_target_finding(tmp_path):
    path = _copy(tmp_path)
    gradguard("check", "--no-cache", "--select", "GG1", "--fix", "--unsafe-fixes", str(path), cwd=tmp_path)
    assert ".numpy()" not in path.read_text(encoding="utf-8").split("\n")[BUGS["GG101"] - 1]
    _, out, _ = gradguard("check", "--no-cache", str(path), cwd=tmp_path)
    found = _codes(out)
    assert found.get("GG202") == 41 and "GG101" not in found
