"""Settings: the editor's `gradguard` section over the project's `[tool.gradguard]`.

The editor's settings come from `workspace/configuration` (per workspace folder) when the client
offers it, else from `workspace/didChangeConfiguration` or `initializationOptions`. Editor
settings win, as in ruff's default "editorFirst": `select` replaces the file's selection,
`ignore` adds to its ignores, `severity` overrides per rule. A bad value is reported once and its
default used; nothing stops the server.
"""
from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass, field
from pathlib import Path

from gradguard.rules.project.config import Checker, Config, ConfigError, load_config

SECTION = "gradguard"


@dataclass(frozen=True)
class ClientSettings:
    enable: bool = True
    select: tuple[str, ...] | None = None
    ignore: tuple[str, ...] = ()
    severity: dict = field(default_factory=dict, hash=False)
    fix_all: bool = True             # offer source.fixAll.gradguard
    ignore_actions: bool = True      # offer "Ignore GGxxx for this line"
    jedi_enable: bool = True
    jedi_time_budget: float = 1.0    # seconds per document
    jedi_environment: str | None = None
    lens_hover: bool = True          # the gradient lens: hover on values (server/hover.py)
    lens_inlay_hints: bool = True    # ... and inlay hints (or code lenses) after sinks (server/inlay.py)

    def apply_to(self, config: Config) -> Config:
        if self.select is not None:
            config = dataclasses.replace(config, select=self.select)
        if self.ignore:
            config = dataclasses.replace(config, ignore=config.ignore + self.ignore)
        if self.severity:
            config = dataclasses.replace(config, severity={**config.severity, **self.severity})
        return config


def unwrap(options: object) -> object:
    """Settings as clients send them: bare, under "settings", or under "gradguard"."""
    for key in ("settings", SECTION):
        if isinstance(options, dict) and isinstance(options.get(key), dict):
            options = options[key]
    return options


def parse_settings(raw: object) -> tuple[ClientSettings, list[str]]:
    """The settings, and one message per problem (the default is used for that setting)."""
    if raw is None:
        return ClientSettings(), []
    raw = unwrap(raw)
    if not isinstance(raw, dict):
        return ClientSettings(), [f"editor settings \"{SECTION}\": expected an object, got {type(raw).__name__}"]
    problems: list[str] = []
    check = Checker("editor settings")
    values = {}

    def take(name: str, key: str, convert) -> None:
        value = _get(raw, key)
        if value is None:
            return
        try:
            values[name] = convert(f"{SECTION}.{key}", value)
        except ConfigError as error:  # the table checker names keys without the section: add it
            problems.append(str(error).replace("editor settings: severity", f"editor settings: {SECTION}.severity"))

    take("enable", "enable", check.boolean)
    take("select", "select", lambda k, v: check.codes(k, v) or None)
    take("ignore", "ignore", check.codes)
    take("severity", "severity", lambda k, v: check.severities(_lower_values(v)))
    take("fix_all", "fixAll", check.boolean)
    take("ignore_actions", "codeAction.disableRuleComment.enable", check.boolean)
    take("jedi_enable", "jedi.enable", check.boolean)
    take("jedi_time_budget", "jedi.timeBudget", check.seconds)
    take("jedi_environment", "jedi.environment", lambda k, v: _text(check, k, v))
    take("lens_hover", "lens.hover", check.boolean)
    take("lens_inlay_hints", "lens.inlayHints", check.boolean)
    return ClientSettings(**values), problems


def _get(raw: dict, dotted: str) -> object:
    """A nested value, accepting `{"a": {"b": 1}}` and `{"a.b": 1}` alike."""
    if dotted in raw:
        return raw[dotted]
    head, _, rest = dotted.partition(".")
    value = raw.get(head)
    if not rest:
        return value
    return _get(value, rest) if isinstance(value, dict) else None


def _text(check: Checker, key: str, value: object) -> str | None:
    if not isinstance(value, str):
        raise check.fail(f"{key}: expected a path, got {value!r}")
    return value or None


def _lower_values(value: object) -> object:
    # VS Code users write "Information" as often as "info".
    aliases = {"information": "info", "hint": "info"}
    if isinstance(value, dict):
        return {k: aliases.get(str(v).lower(), str(v).lower()) if isinstance(v, str) else v for k, v in value.items()}
    return value


# ---------------------------------------------------------------------------------------------
# [tool.gradguard] files, cached by the state of the file that was read


@dataclass
class FileConfigs:
    """The nearest `[tool.gradguard]` for a path; re-read when a pyproject.toml changes on disk."""

    _cache: dict[str, tuple[tuple, Config, Path | None]] = field(default_factory=dict)

    def for_path(self, path: str) -> tuple[Config, Path | None]:
        """The config and its file; raises ConfigError for a broken file."""
        folder = os.path.dirname(os.path.abspath(path))
        stamp = _stamp(folder)
        cached = self._cache.get(folder)
        if cached is not None and cached[0] == stamp:
            return cached[1], cached[2]
        config, found = load_config(Path(folder))
        self._cache[folder] = (stamp, config, found)
        return config, found

    def clear(self) -> None:
        self._cache.clear()


def _stamp(folder: str) -> tuple:
    """The (mtime, size) of every pyproject.toml from `folder` up: any change invalidates."""
    stamp = []
    current = folder
    while True:
        try:
            info = os.stat(os.path.join(current, "pyproject.toml"))
            stamp.append((current, info.st_mtime_ns, info.st_size))
        except OSError:
            pass
        parent = os.path.dirname(current)
        if parent == current:
            return tuple(stamp)
        current = parent
