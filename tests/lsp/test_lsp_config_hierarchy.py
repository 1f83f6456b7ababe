"""The server configures each document as `gradguard check` configures the file: by the nearest
pyproject.toml with [tool.gradguard] at or above it, alone (tests/test_config_hierarchy.py for the CLI)."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from lsp_harness import lsp_session, open_file, wait_for_diagnostics

# GG101 (.numpy()) and GG402 (tf.argmax): one finding of each family.
BOTH = '''\
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(3)])
x = tf.ones((2, 4))
with tf.GradientTape() as tape:
    a = tf.reduce_mean(model(x).numpy())
    b = tf.cast(tf.argmax(model(x), axis=1), tf.float32)
    loss = a + tf.reduce_mean(b)
grads = tape.gradient(loss, model.trainable_variables)
'''


def _cli(root: Path) -> set[tuple[str, str]]:
    run = subprocess.run([sys.executable, "-c", "from gradguard.rules.app.cli import main; raise SystemExit(main())",
                          "check", "--no-cache", "--format", "json", "."], cwd=root, capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 1, run.stderr
    return {(Path(item["path"]).as_posix(), item["code"]) for item in json.loads(run.stdout)}


async def test_the_server_and_the_cli_configure_a_subfolder_alike(tmp_path):
    (tmp_path / "sub" / "deeper").mkdir(parents=True)
    (tmp_path / "pyproject.toml").write_text('[tool.gradguard]\nignore = ["GG1"]\n')
    (tmp_path / "sub" / "pyproject.toml").write_text('[tool.gradguard]\nignore = ["GG4"]\n')
    names = ["top.py", "sub/s.py", "sub/deeper/d.py"]
    async with lsp_session(tmp_path) as client:
        uris = {name: open_file(client, tmp_path / name, BOTH) for name in names}
        server = set()
        for name, uri in uris.items():
            published = await wait_for_diagnostics(client, uri, 1)
            server |= {(name, d.code) for d in published.diagnostics}
    assert server == {("top.py", "GG402"), ("sub/s.py", "GG101"), ("sub/deeper/d.py", "GG101")}
    assert _cli(tmp_path) == server
