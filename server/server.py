"""Starts the gradguard language server: `GradguardServer` (state.py) with every handler registered.

Each handler module registers its LSP features on `state.server` when it is imported:
lifecycle (initialize, initialized, shutdown), sync (documents and notebooks), configuration
(settings, watched files, workspace folders), diagnostics (pull, registered in initialize) and
actions (code actions, resolve, the fix-all command), and the gradient lens (hover, inlay hints
and their code-lens fallback).
"""
from __future__ import annotations

from . import actions, configuration, diagnostics, hover, inlay, lifecycle, sync  # noqa: F401  (importing registers their handlers)
from .state import server


def start(tcp: tuple[str, int] | None = None) -> None:
    if tcp is None:
        server.start_io()
    else:
        server.start_tcp(*tcp)
