"""GG900 (unused suppression comments) is turned on from the configuration as from the command
line: `extend-select = ["GG900"]` or `select = [..., "GG900"]` in `[tool.gradguard]`; `select =
["GG"]` alone leaves it off (like ruff's RUF100), and `ignore` turns it off again."""
from __future__ import annotations

import pytest

from test_cli_ruff import gradguard

SOURCE = "import tensorflow as tf\nx = 1  # noqa: GG101\n"


@pytest.mark.parametrize("table, reported", [
    ('extend-select = ["GG900"]', True),
    ('select = ["GG", "GG900"]', True),
    ('select = ["GG"]', False),
    ("", False),
    ('extend-select = ["GG900"]\nignore = ["GG9"]', False),
])
def test_gg900_from_the_configuration(tmp_path, table, reported):
    (tmp_path / "pyproject.toml").write_text(f"[tool.gradguard]\n{table}\n", encoding="utf-8")
    (tmp_path / "a.py").write_text(SOURCE, encoding="utf-8")
    code, out, err = gradguard("check", "--no-cache", "a.py", cwd=tmp_path)
    assert not err
    assert ("a.py:2:8: GG900" in out) is reported and code == (1 if reported else 0), out


def test_extend_select_adds_to_select(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.gradguard]\nselect = ["GG2"]\nextend-select = ["GG1"]\n',
                                             encoding="utf-8")
    (tmp_path / "a.py").write_text(
        "import tensorflow as tf\nw = tf.Variable(1.0)\nwith tf.GradientTape() as tape:\n"
        "    loss = tf.constant(w.numpy() * 2.0)\ngrads = tape.gradient(loss, [w])\n", encoding="utf-8")
    _, out, _ = gradguard("check", "--no-cache", "a.py", cwd=tmp_path)
    assert "GG101" in out


def test_an_unknown_code_in_extend_select_is_a_config_error(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.gradguard]\nextend-select = ["GG999"]\n', encoding="utf-8")
    (tmp_path / "a.py").write_text("x = 1\n", encoding="utf-8")
    code, _, err = gradguard("check", "--no-cache", "a.py", cwd=tmp_path)
    assert code == 2 and "extend-select: unknown rule code 'GG999'" in err
