"""The error a configuration raises, apart from config.py so that the command line can catch it
without importing the configuration's machinery (`gradguard --version` imports no analyzer)."""
from __future__ import annotations


class ConfigError(Exception):
    """A configuration problem; the message names the file (or option) and what is wrong."""
