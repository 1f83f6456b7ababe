"""[tool.gradguard] loading, rule selection (rules/project/config.py) and gitignore-style globs
(rules/project/globs.py)."""
from __future__ import annotations

from pathlib import Path

import pytest

from gradguard.rules.catalogue import registry
from gradguard.rules.project.config import Config, ConfigError, load_config, load_config_file
from gradguard.rules.project.globs import GitIgnore, glob_matches, glob_matches_path
from gradguard.rules.diagnostics import Severity
from gradguard.rules.catalogue.rule import Rule

CODES = ("GG101", "GG102", "GG201", "GG202", "GG401")


def _fake_rule(code: str) -> type[Rule]:
    return type(f"Fake{code}", (Rule,), {"code": code, "name": f"fake-{code.lower()}", "summary": "s"})


@pytest.fixture(autouse=True)
def fake_registry(monkeypatch):
    monkeypatch.setattr(registry, "all_rules", lambda: tuple(_fake_rule(code) for code in CODES))


def write_pyproject(folder: Path, body: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "pyproject.toml"
    path.write_text(body, encoding="utf-8")
    return path


# ------------------------------------------------------------------------------ selection


def test_default_config_enables_every_gg_code():
    config = Config()
    assert config.enabled("GG101") and config.enabled("GG401", "any/file.py")
    assert not config.enabled("E999")  # only GG codes are rules


def test_select_is_a_prefix_like_ruff():
    config = Config(select=("GG1",))
    assert config.enabled("GG101") and config.enabled("GG102")
    assert not config.enabled("GG201")


def test_ignore_wins_over_select():
    config = Config(select=("GG101", "GG2"), ignore=("GG101", "GG20"))
    assert not config.enabled("GG101")
    assert not config.enabled("GG201")
    assert Config(select=("GG",), ignore=("GG20",)).enabled("GG102")


def test_per_file_ignores_are_relative_to_the_config_folder(tmp_path):
    config = Config(per_file_ignores=(("tests/*.py", ("GG2",)), ("*_nb.py", ("GG101",))), root=tmp_path)
    assert not config.enabled("GG201", tmp_path / "tests" / "test_a.py")
    assert config.enabled("GG101", tmp_path / "tests" / "test_a.py")  # other codes still run
    assert config.enabled("GG201", tmp_path / "src" / "tests" / "test_a.py")  # "tests/" is anchored
    assert not config.enabled("GG101", tmp_path / "deep" / "down" / "x_nb.py")  # a name matches anywhere
    assert config.enabled("GG102", tmp_path / "deep" / "down" / "x_nb.py")


def test_per_file_ignores_match_a_folder_glob(tmp_path):
    config = Config(per_file_ignores=(("legacy/", ("GG",)),), root=tmp_path)
    assert not config.enabled("GG101", tmp_path / "legacy" / "sub" / "a.py")
    assert config.enabled("GG101", tmp_path / "legacy.py")


def test_severity_override_and_default():
    config = Config(severity={"GG202": Severity.INFO})
    assert config.severity_for("GG202", Severity.WARNING) is Severity.INFO
    assert config.severity_for("GG101", Severity.ERROR) is Severity.ERROR


def test_excluded_uses_exclude_and_extend_exclude(tmp_path):
    config = Config(exclude=("generated/",), extend_exclude=("legacy/**", "*_pb2.py"), root=tmp_path)
    assert config.excluded(tmp_path / "generated", is_dir=True)
    assert config.excluded(tmp_path / "generated" / "a.py")
    assert config.excluded(tmp_path / "legacy" / "old.py")
    assert config.excluded(tmp_path / "pkg" / "model_pb2.py")
    assert not config.excluded(tmp_path / "pkg" / "model.py")


# ------------------------------------------------------------------------------ CLI merge


def test_cli_select_replaces_and_ignore_extends():
    config = Config(select=("GG1",), ignore=("GG102",)).with_cli(select="gg2, GG401", ignore="GG201")
    assert config.select == ("GG2", "GG401")
    assert config.ignore == ("GG102", "GG201")
    assert config.enabled("GG202") and config.enabled("GG401")
    assert not config.enabled("GG201") and not config.enabled("GG101")


def test_cli_without_options_keeps_the_file_config():
    config = Config(select=("GG1",))
    assert config.with_cli(None, None) == config


@pytest.mark.parametrize(("option", "value"), [("select", "GG9"), ("ignore", "GG101,bogus")])
def test_cli_unknown_code_names_the_option(option, value):
    with pytest.raises(ConfigError, match=f"--{option}"):
        Config().with_cli(**{option: value})


# ------------------------------------------------------------------------------ loading


def test_no_pyproject_gives_defaults(tmp_path):
    assert load_config(tmp_path) == (Config(), None)


def test_nearest_pyproject_with_the_table_is_used(tmp_path):
    outer = write_pyproject(tmp_path, '[tool.gradguard]\nselect = ["GG1"]\n')
    write_pyproject(tmp_path / "pkg", "[project]\nname = 'x'\n")  # no [tool.gradguard]: keep looking
    (tmp_path / "pkg" / "sub").mkdir()
    config, path = load_config(tmp_path / "pkg" / "sub" / "file.py")
    assert path == outer
    assert config.select == ("GG1",)
    assert config.root == tmp_path


def test_nearer_pyproject_wins(tmp_path):
    write_pyproject(tmp_path, '[tool.gradguard]\nselect = ["GG1"]\n')
    inner = write_pyproject(tmp_path / "pkg", '[tool.gradguard]\nselect = ["GG2"]\n')
    config, path = load_config(tmp_path / "pkg")
    assert path == inner and config.select == ("GG2",)


def test_every_key_is_read(tmp_path):
    write_pyproject(tmp_path, """
[tool.gradguard]
select = ["GG1", "GG2"]
ignore = ["GG102"]
exclude = ["generated/"]
extend-exclude = ["legacy/**"]

[tool.gradguard.per-file-ignores]
"tests/*.py" = ["GG201"]

[tool.gradguard.severity]
GG202 = "info"
""")
    config, _ = load_config(tmp_path)
    assert config.select == ("GG1", "GG2")
    assert config.ignore == ("GG102",)
    assert config.exclude == ("generated/",)
    assert config.extend_exclude == ("legacy/**",)
    assert config.per_file_ignores == (("tests/*.py", ("GG201",)),)
    assert config.severity == {"GG202": Severity.INFO}


def test_explicit_config_file_pyproject_and_standalone(tmp_path):
    pyproject = write_pyproject(tmp_path, '[tool.gradguard]\nignore = ["GG4"]\n')
    assert load_config_file(pyproject).ignore == ("GG4",)
    standalone = tmp_path / "gradguard.toml"
    standalone.write_text('select = ["GG101"]\n')
    config = load_config_file(standalone)
    assert config.select == ("GG101",) and config.root == tmp_path


def test_explicit_config_file_missing(tmp_path):
    with pytest.raises(ConfigError, match="not found"):
        load_config_file(tmp_path / "nope.toml")


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ('[tool.gradguard]\nselet = ["GG1"]\n', r"\[tool.gradguard\]: unknown key 'selet' \(did you mean 'select'"),
        ('[tool.gradguard]\nselect = "GG1"\n', "select: expected a list of strings, got a string"),
        ('[tool.gradguard]\nignore = [1]\n', "ignore: expected a list of strings"),
        ('[tool.gradguard]\nselect = ["GG6"]\n', "select: unknown rule code 'GG6'"),
        ('[tool.gradguard]\nselect = ["gg-1"]\n', "is not a rule code"),
        ('[tool.gradguard]\nper-file-ignores = ["x"]\n', "per-file-ignores: expected a table"),
        ('[tool.gradguard.per-file-ignores]\n"a.py" = ["GG777"]\n', "unknown rule code 'GG777'"),
        ('[tool.gradguard.severity]\nGG101 = "fatal"\n', "severity.GG101: expected"),
        ('[tool.gradguard.severity]\nGG1 = "info"\n', "severity: unknown rule code 'GG1'"),
        ("[tool.gradguard]\nexclude = 3\n", "exclude: expected a list of strings, got an integer"),
        ("[tool.gradguard\nselect = 1\n", r"TOML syntax error: .*line 1"),
        ('[tool.gradguard]\nselect = ["GG1"\n', r"TOML syntax error: Unclosed array \(at end of document, line 3\)"),
    ],
)
def test_config_errors_name_the_file_and_problem(tmp_path, body, expected):
    path = write_pyproject(tmp_path, body)
    with pytest.raises(ConfigError, match=expected) as info:
        load_config(tmp_path)
    assert str(info.value).startswith(str(path))


def test_unreadable_toml_encoding(tmp_path):
    (tmp_path / "pyproject.toml").write_bytes(b"[tool.gradguard]\nselect = ['\xff']\n")
    with pytest.raises(ConfigError, match="cannot read"):
        load_config(tmp_path)


# ------------------------------------------------------------------------------ globs


@pytest.mark.parametrize(
    ("glob", "path", "is_dir", "expected"),
    [
        ("*.py", "a.py", False, True),
        ("*.py", "deep/down/a.py", False, True),          # no slash: a name at any depth
        ("*.py", "a.pyc", False, False),
        ("/build", "build", True, True),                  # leading slash anchors
        ("/build", "src/build", True, False),
        ("build/", "src/build", True, True),              # trailing slash: folders only, any depth
        ("build/", "build", False, False),
        ("docs/*.md", "docs/a.md", False, True),          # a middle slash anchors
        ("docs/*.md", "x/docs/a.md", False, False),
        ("docs/*.md", "docs/sub/a.md", False, False),     # * does not cross folders
        ("**/cache", "a/b/cache", True, True),
        ("**/cache", "cache", True, True),
        ("a/**/b", "a/b", False, True),
        ("a/**/b", "a/x/y/b", False, True),
        ("a/**/b", "c/a/x/b", False, False),
        ("logs/**", "logs/x/y.txt", False, True),
        ("logs/**", "logs", True, False),                 # "/**" is what is inside
        ("file?.py", "file1.py", False, True),
        ("file?.py", "file10.py", False, False),
        ("[ab].py", "b.py", False, True),
        ("[!ab].py", "b.py", False, False),
        ("[!ab].py", "c.py", False, True),
        ("\\#hash", "#hash", False, True),
        ("# comment", "# comment", False, False),
        ("", "a", False, False),
    ],
)
def test_glob_matches_gitignore_semantics(glob, path, is_dir, expected):
    assert glob_matches(glob, path, is_dir) is expected


def test_glob_matches_path_covers_parent_folders():
    assert glob_matches_path("build/", "build/lib/x.py")
    assert not glob_matches_path("build/", "src/builder.py")


def test_gitignore_negation_and_nesting(tmp_path):
    (tmp_path / ".gitignore").write_text("# generated\n*.py\n!keep.py\nout/\n")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / ".gitignore").write_text("!sub_keep.py\n/local.py\n")
    root = GitIgnore().extended(tmp_path)
    sub = root.extended(tmp_path / "sub")
    assert root.ignored(tmp_path / "a.py", False)
    assert not root.ignored(tmp_path / "keep.py", False)           # "!" re-includes
    assert root.ignored(tmp_path / "out", True)
    assert not root.ignored(tmp_path / "out", False)               # "out/" is folders only
    assert sub.ignored(tmp_path / "sub" / "x.py", False)           # parent rules still apply
    assert not sub.ignored(tmp_path / "sub" / "sub_keep.py", False)  # deeper file wins
    assert sub.ignored(tmp_path / "sub" / "local.py", False)
    assert not root.ignored(tmp_path / "notes.txt", False)


def test_gitignore_without_file_is_unchanged(tmp_path):
    empty = GitIgnore()
    assert empty.extended(tmp_path) is empty
