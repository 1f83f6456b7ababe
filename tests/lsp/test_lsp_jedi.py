"""The jedi pass in the server: the fast pass publishes first, the cross-module pass publishes again."""
from __future__ import annotations

import asyncio
import shutil
import time
from pathlib import Path

from lsp_harness import change_document, lsp_session, open_file, wait_for_diagnostics

PROJECT = Path(__file__).parents[1] / "crossmodule" / "project"
SLOW_CI = {"jedi": {"timeBudget": 30}}  # cold jedi on a loaded machine; the default is 1 s


def _workspace(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    shutil.copytree(PROJECT, root)
    return root


async def _wait_for(client, predicate, timeout=60.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = [p for p in client.published if predicate(p)]
        if found:
            return found[0]
        await asyncio.sleep(0.02)
    raise AssertionError(f"not published within {timeout} s: {[(p.uri, p.version) for p in client.published]}")


async def test_fast_pass_first_then_the_cross_module_break_for_the_same_version(tmp_path):
    root = _workspace(tmp_path)
    async with lsp_session(root, "neovim@v0.7.0", initialization_options=SLOW_CI) as client:
        uri = open_file(client, root / "bad_helper_to_numpy.py")
        fast = await wait_for_diagnostics(client, uri, 1)
        refined = await _wait_for(client, lambda p: p.uri == uri and p.version == 1 and p.diagnostics)
    assert list(fast.diagnostics) == []
    [diagnostic] = refined.diagnostics
    assert diagnostic.code == "GG101" and "rlkit/convert.py" in diagnostic.message
    helper = [r.location.uri for r in diagnostic.related_information if r.location.uri != uri]
    assert helper == [(root / "rlkit" / "convert.py").as_uri()]


async def test_jedi_off_publishes_only_the_one_file_result(tmp_path):
    root = _workspace(tmp_path)
    settings = {"jedi": {"enable": False}}
    async with lsp_session(root, "neovim@v0.7.0", initialization_options=settings) as client:
        uri = open_file(client, root / "bad_helper_to_numpy.py")
        await wait_for_diagnostics(client, uri, 1)
        await asyncio.sleep(3)  # long enough for a warm jedi pass on this small file
    assert [list(p.diagnostics) for p in client.published if p.uri == uri] == [[]]


async def test_a_jedi_pass_for_an_old_version_is_dropped(tmp_path):
    root = _workspace(tmp_path)
    async with lsp_session(root, "neovim@v0.7.0", initialization_options=SLOW_CI) as client:
        uri = open_file(client, root / "bad_helper_to_numpy.py")
        change_document(client, uri, 2, (0, 0), (0, 0), "# edited\n")
        await _wait_for(client, lambda p: p.uri == uri and p.version == 2 and p.diagnostics)
        await asyncio.sleep(1)
    versions = [p.version for p in client.published if p.uri == uri]
    assert versions == sorted(versions), f"a stale pass was published after a newer one: {versions}"
