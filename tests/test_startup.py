"""A command imports what it runs (issue 23: a fast start): `--version`, `help` and `rule` no
analyzer, `check` no libcst or jedi unless a fix is written or a name is looked up in another
module, nothing of pygls outside the server, and the server no analyzer before its first document.

Each case runs in a fresh interpreter and reads its `sys.modules` afterwards. How long a start
takes is bench/startup.py's to measure (docs/performance.md), never a test's.
"""
from __future__ import annotations

import json
import subprocess
import sys
import textwrap

from gradguard.rules import __version__

ANALYZER = {"gradguard.rules.api", "gradguard.rules.model.engine", "gradguard.rules.report.diagnose",
            "gradguard.rules.lens.lens", "gradguard.rules.fix.loop", "gradguard.rules.model.inference"}
RULES = {"gradguard.rules.catalogue.registry", "gradguard.rules.catalogue.rule"}  # what `rule` reads
HEAVY = {"libcst", "jedi", "parso", "pygls", "lsprotocol", "cattrs"}

PLAIN = '''\
"""Training code without a lost gradient."""
import numpy as np
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
optimizer = tf.keras.optimizers.Adam()


def train_step(x, y):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model(x) - y))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss


print(np.mean([train_step(tf.ones((4, 3)), tf.zeros((4, 1))) for _ in range(3)]))
'''

# GG102 whose fix renames keywords (a_min -> clip_value_min): written with libcst.
CLIPPED = PLAIN.replace("tf.reduce_mean(tf.square(model(x) - y))", "tf.reduce_mean(np.clip(model(x), a_min=0.0, a_max=1.0))")

HELPER = '''\
def to_numpy(tensor):
    return tensor.numpy()
'''
# A name imported from the project's own module: jedi is asked where `to_numpy` is defined.
CALLS_HELPER = PLAIN.replace("import tensorflow as tf\n", "import tensorflow as tf\nfrom helpers import to_numpy\n") \
    .replace("tf.reduce_mean(tf.square(model(x) - y))", "tf.reduce_mean(to_numpy(model(x)) - y)")


def _run(code: str, cwd) -> dict:
    """Run `code` (which sets `result`) in a fresh interpreter; its result and the modules it imported."""
    program = textwrap.dedent('''\
        import contextlib, io, json, sys
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
        {code}
        print(json.dumps({{"result": result, "out": out.getvalue(), "modules": sorted(sys.modules)}}))
    ''').format(code=textwrap.indent(textwrap.dedent(code), "    "))
    done = subprocess.run([sys.executable, "-c", program], cwd=cwd, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.splitlines()[-1])
    report["modules"] = set(report["modules"])
    return report


def _cli(cwd, *argv: str) -> dict:
    return _run(f"from gradguard.rules.app.cli import main\nresult = main({list(argv)!r})", cwd)


def test_version_imports_no_analyzer_and_no_server(tmp_path):
    run = _cli(tmp_path, "--version")
    assert run["result"] == 0 and run["out"] == f"gradguard {__version__}\n"
    assert run["modules"] & (ANALYZER | RULES | HEAVY) == set()
    ours = {m for m in run["modules"] if m.startswith("gradguard")}
    assert ours <= {"gradguard", "gradguard.rules", "gradguard.rules.app", "gradguard.rules.app.cli",
                    "gradguard.rules.app.arguments", "gradguard.rules.project", "gradguard.rules.project.errors"}


def test_help_and_rule_import_no_analyzer(tmp_path):
    for argv in (["help"], ["help", "check"]):
        run = _cli(tmp_path, *argv)
        assert run["result"] == 0 and "usage: gradguard" in run["out"], argv
        assert run["modules"] & (ANALYZER | RULES | HEAVY) == set(), argv
    for argv in (["rule", "GG101"], ["rule", "--all", "--format", "json"]):
        run = _cli(tmp_path, *argv)
        assert run["result"] == 0 and "GG101" in run["out"], argv
        assert RULES <= run["modules"] and run["modules"] & (ANALYZER | HEAVY) == set(), argv


def test_server_version_imports_no_pygls(tmp_path):
    run = _cli(tmp_path, "server", "--version")
    assert run["result"] == 0 and run["out"] == f"gradguard {__version__}\n"
    assert run["modules"] & (ANALYZER | RULES | HEAVY) == set()


def test_check_of_a_plain_file_imports_no_libcst_jedi_or_pygls(tmp_path):
    (tmp_path / "train.py").write_text(PLAIN)
    run = _cli(tmp_path, "check", "--no-cache", "train.py")
    assert run["result"] == 0 and "All checks passed!" in run["out"]
    assert "gradguard.rules.model.engine" in run["modules"]  # it did analyse the file
    assert run["modules"] & HEAVY == set()
    assert {"gradguard.rules.fix.loop", "gradguard.rules.lens.lens", "gradguard.rules.app.explain"} \
        & run["modules"] == set()  # no fix to write, nothing to explain
    # Nothing is imported from other code: no jedi resolver is made, and --no-cache hashes nothing.
    assert {"gradguard.rules.model.inference", "hashlib"} & run["modules"] == set()
    # ... and nothing the analysis does not use: typing (TYPE_CHECKING is a constant), the import
    # machinery of importlib.resources and pkgutil (data files and rule modules are read directly).
    assert {"typing", "importlib.resources", "pkgutil"} & run["modules"] == set()
    # ... nor what only help or the server needs: shutil (with bz2 and lzma) for argparse's width,
    # threading for the parse lock.
    assert {"shutil", "bz2", "lzma", "threading"} & run["modules"] == set()


def test_a_check_answered_from_the_result_cache_imports_no_analyzer(tmp_path):
    (tmp_path / "train.py").write_text(CLIPPED)
    first = _cli(tmp_path, "check", "train.py")  # analyses, and stores the result
    again = _cli(tmp_path, "check", "train.py")
    assert first["result"] == again["result"] == 1 and again["out"] == first["out"] and "GG102" in again["out"]
    assert "gradguard.rules.model.engine" in first["modules"]
    assert again["modules"] & (ANALYZER | RULES | HEAVY) == set()


def test_check_imports_libcst_to_write_a_rewriting_fix(tmp_path):
    """The other side of the probe: the import the plain check did without does happen when it is
    needed (and --fix writes the rewritten call)."""
    (tmp_path / "train.py").write_text(CLIPPED)
    run = _cli(tmp_path, "check", "--no-cache", "--fix", "--unsafe-fixes", "train.py")
    assert run["result"] == 0 and "1 fixed" in run["out"]
    assert "tf.clip_by_value(model(x), clip_value_min=0.0, clip_value_max=1.0)" in (tmp_path / "train.py").read_text()
    assert {"libcst", "gradguard.rules.fix.loop"} <= run["modules"]
    assert run["modules"] & {"jedi", "pygls", "lsprotocol"} == set()


def test_check_imports_jedi_only_for_a_name_from_another_module(tmp_path):
    (tmp_path / ".git").mkdir()  # the project root jedi searches
    (tmp_path / "helpers.py").write_text(HELPER)
    (tmp_path / "train.py").write_text(CALLS_HELPER)
    run = _cli(tmp_path, "check", "--no-cache", "--no-jedi", "train.py")
    assert run["result"] == 0 and run["modules"] & {"jedi", "parso"} == set()
    run = _cli(tmp_path, "check", "--no-cache", "train.py")
    assert run["result"] == 1 and "GG101" in run["out"] and "helpers.py" in run["out"]  # found through jedi
    assert "jedi" in run["modules"] and run["modules"] & {"pygls", "lsprotocol"} == set()


def test_the_server_imports_the_analyzer_at_its_first_analysis(tmp_path):
    run = _run('''
        from gradguard.server import analysis, server, settings
        from gradguard.server.documents import Encoding, TextDocument
        from gradguard.rules.project.config import Config

        settings.parse_settings(None)  # what `initialize` does with the client's options
        before = sorted(sys.modules)
        snap = analysis.snapshot("file:///t.py", "/t.py", [TextDocument("file:///t.py", TEXT, 1)], False, Config(),
                                 Encoding())
        result = {"before": before, "codes": [d.code for d in analysis.analyze(snap).diagnostics]}
    '''.replace("TEXT", repr(CLIPPED)), tmp_path)
    before = set(run["result"]["before"])
    assert {"pygls", "lsprotocol", "gradguard.server.server"} <= before
    assert before & (ANALYZER | RULES | {"libcst", "jedi", "parso"}) == set()
    assert run["result"]["codes"] == ["GG102"]
    assert {"gradguard.rules.api", "gradguard.rules.model.engine"} <= run["modules"]
