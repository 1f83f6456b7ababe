"""Workspace diagnostics walk the folders as `gradguard check` does (issue 15, item 5): a
subfolder's own pyproject.toml says what it excludes, and `.ipynb_checkpoints/` is skipped."""
from __future__ import annotations

import asyncio

from lsp_harness import TIMEOUT, lsp_session
from test_lsp_pull import BAD, by_uri, pull_capabilities, uri_of, workspace_request


async def test_workspace_diagnostics_honour_a_subfolders_excludes(tmp_path):
    (tmp_path / "top.py").write_text(BAD, encoding="utf-8")
    sub = tmp_path / "sub"
    (sub / "generated").mkdir(parents=True)
    (sub / "pyproject.toml").write_text('[tool.gradguard]\nextend-exclude = ["generated/"]\n', encoding="utf-8")
    (sub / "kept.py").write_text(BAD, encoding="utf-8")
    (sub / "generated" / "skipped.py").write_text(BAD, encoding="utf-8")
    (tmp_path / ".ipynb_checkpoints").mkdir()
    (tmp_path / ".ipynb_checkpoints" / "top-checkpoint.py").write_text(BAD, encoding="utf-8")
    async with lsp_session(tmp_path, pull_capabilities()) as client:
        report = await asyncio.wait_for(workspace_request(client), TIMEOUT)
    assert set(by_uri(report)) == {uri_of(tmp_path / "top.py"), uri_of(sub / "kept.py")}
