"""Security: the CLI, the server and the jedi pass never import or run the analysed code, never
open a network connection, and the server never writes files (its edits go to the client).

The fixture project's modules each write a marker file the moment they are imported. The
analysis must still see into them (the helper's `.numpy()` is reported, which proves the jedi
pass read `evil/helpers.py`), and no marker may appear.
"""
from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import textwrap
import time
from pathlib import Path

from lsprotocol import types

from lsp_harness import lsp_session, open_file, wait_for_diagnostics

MARKER_CODE = '''\
import pathlib as _pathlib
_pathlib.Path({marker!r}).joinpath(__name__ + ".imported").write_text("imported")
'''

TRAIN = '''\
import tensorflow as tf
from tensorflow import keras

from evil import to_numpy

model = keras.Sequential([keras.Input(shape=(4,)), keras.layers.Dense(2)])
states = tf.random.normal((8, 4))
with tf.GradientTape() as tape:
    q = to_numpy(model(states))
    loss = tf.reduce_mean(q)
grads = tape.gradient(loss, model.trainable_variables)
'''


def _project(tmp_path: Path) -> tuple[Path, Path]:
    root, markers = tmp_path / "project", tmp_path / "markers"
    markers.mkdir()
    marker = MARKER_CODE.format(marker=str(markers))
    (root / "evil").mkdir(parents=True)
    (root / "evil" / "__init__.py").write_text(marker + "from .helpers import to_numpy\n")
    (root / "evil" / "helpers.py").write_text(marker + "\n\ndef to_numpy(t):\n    return t.numpy()\n")
    for name in ("conftest.py", "setup.py", "sitecustomize.py", "usercustomize.py", "__main__.py"):
        (root / name).write_text(marker)
    (root / "train.py").write_text(marker + TRAIN)
    (root / "pyproject.toml").write_text("[tool.gradguard]\njedi-time-budget = 30\n")
    return root, markers


# An audit hook in the child records what the process does: imports of the project's modules,
# network connections, and files opened for writing.
AUDITED_CLI = textwrap.dedent('''
    import json, sys
    events = []
    project = sys.argv[1]
    def hook(event, args):
        if event == "socket.connect" or event == "socket.bind":
            events.append([event, repr(args[1:])])
        elif event == "open" and isinstance(args[0], str) and args[0].startswith(project):
            mode = args[1] or "r"
            if any(flag in str(mode) for flag in "wax+"):
                events.append([event, args[0], str(mode)])
        elif event == "import" and args[0] in ("evil", "evil.helpers", "train", "conftest", "setup"):
            events.append([event, args[0]])
    sys.addaudithook(hook)
    from gradguard.rules.app.cli import main
    code = main(["check", "--format", "json", project])
    print("AUDIT" + json.dumps(events), file=sys.stderr)
    sys.exit(code)
''')


def test_cli_with_jedi_reads_the_helpers_but_never_imports_them_or_uses_the_network(tmp_path):
    root, markers = _project(tmp_path)
    result = subprocess.run([sys.executable, "-c", AUDITED_CLI, str(root)], capture_output=True, text=True,
                            timeout=300, cwd=root)
    findings = json.loads(result.stdout)
    assert any(f["code"] == "GG101" and "evil/helpers.py" in f["message"] for f in findings), result.stdout
    audit = json.loads(result.stderr.rsplit("AUDIT", 1)[1])
    assert audit == [], f"the CLI imported, wrote or connected: {audit}"
    assert list(markers.iterdir()) == []


async def test_server_and_its_jedi_pass_never_import_the_project_nor_write_files(tmp_path):
    root, markers = _project(tmp_path)
    before = {p: p.read_bytes() for p in root.rglob("*") if p.is_file()}
    async with lsp_session(root, "visual-studio-code", settings={"jedi": {"timeBudget": 30}}) as client:
        uri = open_file(client, root / "train.py")
        await wait_for_diagnostics(client, uri, 1)
        deadline = time.monotonic() + 60
        while not any(p.uri == uri and p.diagnostics for p in client.published) and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        reported = [d for p in client.published if p.uri == uri for d in p.diagnostics]
        actions = await client.text_document_code_action_async(types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri),
            range=types.Range(types.Position(0, 0), types.Position(20, 0)),
            context=types.CodeActionContext(diagnostics=reported)))
        await client.workspace_execute_command_async(types.ExecuteCommandParams("gradguard.applyFixAll", [uri]))
    assert any(d.code == "GG101" and "evil/helpers.py" in d.message for d in reported), reported
    assert actions, "the server offered no action"
    assert list(markers.iterdir()) == []
    after = {p: p.read_bytes() for p in root.rglob("*") if p.is_file()}
    assert after == before, "the server wrote into the project"
