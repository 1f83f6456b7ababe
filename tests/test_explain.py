"""`gradguard explain FILE:LINE[:COL]` (issue 16, the gradient lens), run as users run it."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from test_cli_ruff import gradguard  # the CLI's main in this process, output captured

ROOT = Path(__file__).resolve().parents[1]

DQN = '''import numpy as np
import tensorflow as tf

q_net = tf.keras.Sequential([tf.keras.layers.Dense(2)])
target_net = tf.keras.Sequential([tf.keras.layers.Dense(2)])
optimizer = tf.keras.optimizers.Adam()


def train_step(states, actions, targets):
    with tf.GradientTape() as tape:
        q_values = q_net(states)
        chosen = tf.reduce_sum(q_values * tf.one_hot(actions, 2), axis=1)
        loss = tf.reduce_mean(tf.square(targets - chosen))
    grads = tape.gradient(loss, q_net.trainable_variables + target_net.trainable_variables)
    return grads


def numpy_step(states, targets):
    with tf.GradientTape() as tape:
        q = q_net(states).numpy()
        loss = tf.reduce_mean(tf.square(targets - q))
    return tape.gradient(loss, q_net.trainable_variables)


def good_step(states, targets):
    with tf.GradientTape() as tape:
        q = q_net(states)
        loss = tf.reduce_mean(tf.square(targets - q))
    return tape.gradient(loss, q_net.trainable_variables)
'''


@pytest.fixture
def project(tmp_path):
    (tmp_path / "train.py").write_text(DQN)
    return tmp_path


def test_a_cut_source_is_explained_from_its_model_call_to_the_loss(project):
    code, out, err = gradguard("explain", "train.py:22", cwd=project)
    assert (code, err) == (1, "")
    assert out.splitlines() == [
        "train.py:22: `tape.gradient` on line 22: its source gets no gradient",
        "└── ✗ q_net: cut by `.numpy()` at 20:13",
        "    ├── 20:9  q = q_net(states).numpy()   ← `q_net` starts the gradient here; cut by `.numpy()` at 20:13",
        "    ├── 21:9  loss = tf.reduce_mean(tf.square(targets - q))",
        "    ├── 22:5  return tape.gradient(loss, q_net.trainable_variables)",
        "    └── GG101 at 20:13: `q_net(states)` (output of `q_net`) leaves TensorFlow through `.numpy()`; the loss "
        "given to `tape.gradient` on line 22 gets no gradient for `q_net.trainable_variables`",
    ]
    # The diagnostic quoted is the one `check` reports, word for word.
    _, checked, _ = gradguard("check", "--no-cache", "--quiet", "train.py", cwd=project)
    assert "train.py:20:13: GG101 `q_net(states)` (output of `q_net`) leaves TensorFlow through `.numpy()`" in checked


def test_each_source_of_a_partial_gradient_and_the_untouched_one(project):
    code, out, _ = gradguard("explain", "train.py:14:13", cwd=project)
    assert code == 1
    lines = out.splitlines()
    assert lines[0] == "train.py:14:13: `tape.gradient` on line 14: 1 of 2 sources get a gradient"
    assert "├── ✓ q_net" in lines
    assert "│   ├── 11:9  q_values = q_net(states)   ← `q_net` starts the gradient here" in lines
    assert "└── ✗ target_net: loss never uses it" in lines
    assert any(line.startswith("    └── GG302 at 14:61: the loss given to `tape.gradient` on line 14 never uses "
                               "`target_net`") for line in lines), lines


def test_every_source_with_a_gradient_exits_0(project):
    code, out, _ = gradguard("explain", "train.py:29", cwd=project)
    assert code == 0
    assert out.splitlines()[:2] == ["train.py:29: `tape.gradient` on line 29: its source gets a gradient",
                                    "└── ✓ q_net"]


def test_a_value_is_explained_where_there_is_no_sink(project):
    code, out, _ = gradguard("explain", "train.py:20:13", cwd=project)
    assert (code, out.splitlines()) == (0, ["train.py:20:13: `q_net(states)`",
                                            "└── ✓ carries the gradient of `q_net` (started at 20:13)"])
    code, out, _ = gradguard("explain", "train.py:21:31", cwd=project)
    assert (code, out.splitlines()) == (1, [
        "train.py:21:31: `tf.square(targets - q)`",
        "└── ✗ constant to `tape`: cut by `.numpy()` at 20:13 (was the output of `q_net`)"])


def test_json_for_tools(project):
    code, out, _ = gradguard("explain", "--format", "json", "train.py:22", cwd=project)
    assert code == 1
    report = json.loads(out)
    assert (report["kind"], report["sink"], report["callee"], report["ok"]) == ("sink", "gradient", "tape.gradient", False)
    (source,) = report["sources"]
    assert source["name"] == "q_net" and source["verdict"] == "cut" and source["gradient"] is False
    assert source["break"] == {"code": "GG101", "label": "`.numpy()`", "cell": None, "line": 20, "column": 13}
    assert source["diagnostic"]["code"] == "GG101" and (source["diagnostic"]["line"], source["diagnostic"]["column"]) == (20, 13)
    assert source["start"] == {"cell": None, "line": 20, "column": 13}
    assert [(s["line"], s["start"], s["cut"]) for s in source["steps"]] == [(20, True, True), (21, False, False), (22, False, False)]
    assert source["term_cut"] is False and report["warnings"] == []


@pytest.mark.parametrize("position, message", [
    ("missing.py:3", "explain: cannot read missing.py: No such file or directory"),
    ("train.py:400", "explain: train.py has 29 lines, no line 400"),
    ("train.py:2", "explain: nothing to explain at train.py:2: no tape.gradient, minimize, fit, loss function or "
                   "value with a gradient dependency there"),
    ("train.py", "explain: expected FILE:LINE[:COL] (or FILE.ipynb:cellN:LINE[:COL]), got 'train.py'"),
    ("train.py:cell2:3", "explain: train.py is not a notebook: give FILE:LINE[:COL]"),
    ("train.py:3:0", "explain: columns start at 1, got 0"),
])
def test_bad_input_is_one_line_and_exit_2(project, position, message):
    code, out, err = gradguard("explain", position, cwd=project)
    assert (code, out, err) == (2, "", f"gradguard: {message}\n")


def test_a_file_that_does_not_parse_has_nothing_to_explain(project):
    (project / "broken.py").write_text("def f(:\n    pass\n")
    code, _, err = gradguard("explain", "broken.py:1", cwd=project)
    assert code == 2 and err.startswith("gradguard: explain: broken.py: does not parse (")


def test_notebook_positions_are_cells_as_check_prints_them(tmp_path):
    shutil.copy(ROOT / "tests/programs/bad_nb_reinforce_numpy_probs.ipynb", tmp_path / "nb.ipynb")
    code, out, _ = gradguard("explain", "nb.ipynb:cell4:6", cwd=tmp_path)
    lines = out.splitlines()
    assert code == 1
    assert lines[0] == "nb.ipynb:cell 4:6: `tape.gradient` in cell 4, line 6: its source gets no gradient"
    assert lines[1] == "└── ✗ policy: cut by `.numpy()` at cell 4:3:13"
    assert lines[-1].startswith("    └── GG101 at cell 4:3:13: `policy(states, training=True)` (output of `policy`)")
    _, checked, _ = gradguard("check", "--no-cache", "--quiet", "nb.ipynb", cwd=tmp_path)
    assert "nb.ipynb:cell 4:3:13: GG101" in checked
    code, _, err = gradguard("explain", "nb.ipynb:6", cwd=tmp_path)
    assert (code, err) == (2, "gradguard: explain: nb.ipynb is a notebook: give the cell, as in nb.ipynb:cell3:6\n")
    code, _, err = gradguard("explain", "nb.ipynb:cell1:1", cwd=tmp_path)
    assert code == 2 and "has no code cell 1" in err


def test_explain_is_in_the_usage(project):
    code, out, _ = gradguard("help", cwd=project)
    assert code == 0 and "explain" in out and "FILE:LINE[:COL]" in out


LOSS = '''import numpy as np
from tensorflow import keras
from keras import ops as K


def rounded_error(y_true, y_pred):
    errors = K.abs(y_true - K.round(y_pred))
    return K.mean(errors)


model = keras.Sequential([keras.Input(shape=(6,)), keras.layers.Dense(1)])
model.compile(optimizer="sgd", loss=rounded_error)
model.fit(np.zeros((8, 6)), np.zeros((8, 1)), epochs=1, verbose=0)
'''


@pytest.mark.parametrize("line", [6, 12, 13])
def test_a_loss_function_is_explained_at_its_def_its_compile_and_its_fit(tmp_path, line):
    (tmp_path / "loss.py").write_text(LOSS)
    code, out, _ = gradguard("explain", f"loss.py:{line}", cwd=tmp_path)
    assert code == 1
    assert out.splitlines()[:4] == [
        f"loss.py:{line}: the loss `rounded_error`: its source gets no gradient",
        "└── ✗ y_pred: cut by `K.round` at 7:29",
        "    ├── 6:27  def rounded_error(y_true, y_pred):   ← `y_pred` starts the gradient here",
        "    ├── 7:5  errors = K.abs(y_true - K.round(y_pred))   ← cut by `K.round` at 7:29",
    ]


EPISODE = '''import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(2)])
losses = []
for state in tf.random.normal((3, 1, 4)):
    out = model(state)
    losses.append(tf.reduce_sum(out))
with tf.GradientTape() as tape:
    loss = tf.add_n(losses)
grads = tape.gradient(loss, model.trainable_variables)
logits = tf.zeros((2, 2))
with tf.GradientTape() as tape2:
    other = tf.reduce_sum(logits)
grads2 = tape2.gradient(other, model.trainable_variables)
'''


def test_the_way_goes_through_appended_lists_and_an_unused_source_says_what_the_loss_uses(tmp_path):
    (tmp_path / "episode.py").write_text(EPISODE)
    code, out, _ = gradguard("explain", "episode.py:10", cwd=tmp_path)
    assert code == 1
    assert out.splitlines()[1:5] == [
        "└── ✗ model: not recorded by `tape`: computed outside its `with` block (at 6:11)",
        "    ├── 6:5  out = model(state)   ← `model` starts the gradient here",
        "    ├── 7:5  losses.append(tf.reduce_sum(out))",
        "    ├── 9:5  loss = tf.add_n(losses)",
    ]
    assert "GG301 at 6:11: `model(state)` runs outside the `with` block of `tape`" in out
    code, out, _ = gradguard("explain", "episode.py:14", cwd=tmp_path)
    assert out.splitlines()[1] == "└── ✗ model: loss never uses it (it depends on nothing trainable)"


MINIMIZE = '''import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
optimizer = tf.keras.optimizers.legacy.SGD()
x = tf.ones((2, 3))


def cost():
    out = model(x).numpy()
    return tf.reduce_mean(out)


optimizer.minimize(cost, model.trainable_variables)
optimizer.minimize(lambda: tf.reduce_mean(model(x)), model.trainable_variables)
'''


def test_minimize_its_loss_function_and_a_column_on_an_argument(tmp_path):
    (tmp_path / "mini.py").write_text(MINIMIZE)
    code, out, _ = gradguard("explain", "mini.py:13", cwd=tmp_path)
    assert code == 1 and out.splitlines()[:3] == [
        "mini.py:13: `optimizer.minimize` on line 13: its source gets no gradient",
        "└── ✗ model: cut by `.numpy()` at 9:11",
        "    ├── 9:5  out = model(x).numpy()   ← `model` starts the gradient here; cut by `.numpy()` at 9:11"]
    # Inside the function minimize differentiates: its values (no tape: "constant", no tape named).
    code, out, _ = gradguard("explain", "mini.py:10:27", cwd=tmp_path)
    assert (code, out.splitlines()[1]) == (1, "└── ✗ constant: cut by `.numpy()` at 9:11 (was the output of `model`)")
    # On the callee: the sink; on an argument: that value.
    code, out, _ = gradguard("explain", "mini.py:14:3", cwd=tmp_path)
    assert (code, out.splitlines()[0]) == (0, "mini.py:14:3: `optimizer.minimize` on line 14: its source gets a gradient")
    code, out, _ = gradguard("explain", "mini.py:14:40", cwd=tmp_path)
    assert (code, out.splitlines()) == (0, ["mini.py:14:40: `tf.reduce_mean(model(x))`",
                                            "└── ✓ carries the gradient of `model` (started at 14:43)"])


def test_explain_follows_calls_into_other_modules_as_check_does():
    project = ROOT / "tests" / "crossmodule" / "project"
    code, out, _ = gradguard("explain", "bad_helper_to_numpy.py:16", cwd=project)
    assert code == 1
    assert out.splitlines()[1] == ("└── ✗ model: cut by `.numpy()` inside a helper (rlkit/convert.py, line 6), "
                                   "called at 14:9")
    assert "GG101 at 14:9: `to_numpy(model(states))` (output of `model`) leaves TensorFlow through `.numpy()`, " \
           "inside a helper (rlkit/convert.py, line 6)" in out
    code, out, _ = gradguard("explain", "--no-jedi", "bad_helper_to_numpy.py:16", cwd=project)
    assert (code, out.splitlines()[1]) == (0, "└── ✓ model")


def test_what_no_diagnostic_reports_is_a_question_mark_as_check_is_silent(project):
    text = DQN.replace("target_net.trainable_variables)\n", "target_net.trainable_variables)  # gradguard: ignore[GG302]\n", 1)
    (project / "train.py").write_text(text)
    code, out, _ = gradguard("explain", "train.py:14:13", cwd=project)
    lines = out.splitlines()
    assert code == 0
    assert lines[0] == "train.py:14:13: `tape.gradient` on line 14: 1 of 2 sources get a gradient, 1 cannot tell"
    assert lines[-2:] == ["└── ? target_net: loss never uses it",
                          "    └── no diagnostic reports it (another finding says it, a rule that is not selected, "
                          "or a suppression comment)"]


ENTROPY_BONUS = """import numpy as np
import tensorflow as tf

policy = tf.keras.Sequential([tf.keras.layers.Dense(2, activation="softmax")])


def step(states, advantages):
    with tf.GradientTape() as tape:
        probs = policy(states)
        bonus = np.mean(-tf.reduce_sum(probs * tf.math.log(probs), axis=1))
        loss = -tf.reduce_mean(tf.math.log(probs[:, 0]) * advantages) - 0.01 * bonus
    return tape.gradient(loss, policy.trainable_variables)
"""


def test_a_term_cut_on_the_way_exits_0_but_says_the_warning_check_reports(tmp_path):
    # The issue: exit 0 when every requested source gets a gradient. Here it does (the policy term
    # trains it), but the entropy bonus is a constant: `check` warns, and explain says so too.
    (tmp_path / "train.py").write_text(ENTROPY_BONUS)
    check_code, check_out, _ = gradguard("check", "--no-cache", "--output-format", "json", "train.py", cwd=tmp_path)
    [finding] = json.loads(check_out)
    assert (check_code, finding["code"], finding["severity"], finding["line"]) == (1, "GG102", "warning", 10)
    code, out, _ = gradguard("explain", "train.py:12", cwd=tmp_path)
    lines = out.splitlines()
    assert code == 0
    assert lines[1] == "└── ✓ policy (a term is cut by `np.mean` at 10:17)"
    assert lines[-2].startswith("    └── ⚠ GG102 at 10:17: ")
    assert lines[-1] == ("⚠ 1 warning: a term of the loss is cut (GG102 at 10:17), so training silently ignores it; "
                         "the sources still get a gradient (exit 0), `check` reports it")
    code, out, _ = gradguard("explain", "--format", "json", "train.py:12", cwd=tmp_path)
    report = json.loads(out)
    assert (code, report["ok"]) == (0, True)
    [source] = report["sources"]
    assert (source["gradient"], source["term_cut"], source["diagnostic"]["code"]) == (True, True, "GG102")
    [warning] = report["warnings"]
    assert (warning["code"], warning["severity"], warning["line"], warning["column"]) == ("GG102", "warning", 10, 17)
    assert warning["message"] == finding["message"]


def test_a_model_given_as_the_sources_is_explained_as_the_rule_reports_it(project):
    (project / "train.py").write_text(DQN.replace("tape.gradient(loss, q_net.trainable_variables)\n\n\ndef good_step",
                                                  "tape.gradient(loss, q_net)\n\n\ndef good_step"))
    code, out, _ = gradguard("explain", "train.py:22", cwd=project)
    assert code == 1
    assert out.splitlines()[1:] == [
        "└── ✗ q_net: a Keras model, not its variables: `tape.gradient` raises AttributeError "
        "(ask for `q_net.trainable_variables`)",
        "    └── GG306 at 22:32: `q_net` is a Keras model, not a list of variables: `tape.gradient` raises "
        "AttributeError; ask for `q_net.trainable_variables`"]
