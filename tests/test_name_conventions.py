"""What gradguard guesses from names (rules/model/conventions.py, docs/name-conventions.md): each
guess is documented, configurable in [tool.gradguard], and named in a note on the findings it makes."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from gradguard.rules import analyze
from gradguard.rules.api import lint
from gradguard.rules.model.conventions import MODEL_WORDS, MODIFIER_WORDS, NameConventions
from gradguard.rules.project.config import ConfigError, load_config_file

DOC = (Path(__file__).resolve().parents[1] / "docs" / "name-conventions.md").read_text(encoding="utf-8")

# `policy` is a parameter: nothing but its name says it is a model.
GUESSED_MODEL = """\
import tensorflow as tf


def train_step(policy, states):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(policy(states).numpy())
    return tape.gradient(loss, policy.trainable_variables)
"""
# The same step, the model built in the file: a fact, no guess.
BUILT_MODEL = """\
import tensorflow as tf

policy = tf.keras.Sequential([tf.keras.layers.Dense(1)])


def train_step(states):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(policy(states).numpy())
    return tape.gradient(loss, policy.trainable_variables)
"""


def test_the_page_lists_every_model_word_and_every_setting():
    listed = re.search(r"optionally followed by digits:\n\n(.*?)\n\n", DOC, re.S).group(1)
    assert re.findall(r"`(\w+)`", listed) == list(MODEL_WORDS)
    modifiers = re.search(r"may follow it: (.*?)\. So", DOC, re.S).group(1)
    assert re.findall(r"`(\w+)`", modifiers) == list(MODIFIER_WORDS)
    for key in ("model-names", "next-state-names", "guess-from-names"):
        assert key in DOC


@pytest.mark.parametrize("name, guessed", [
    ("model", True), ("q_net", True), ("target_network", True), ("policy_head", True), ("actor2", True),
    ("self_encoder", True), ("critic_target", True), ("q_net_target", True), ("model_old", True),
    ("layer_norm_eps", False), ("actor_units", False), ("actor_fn", False), ("model_fn", False),
    ("encoder_output", False), ("generator_optimizer", False), ("num_layers", False),
    ("fn", False), ("brain", False), ("predictor", False),
])
def test_model_names(name, guessed):
    assert NameConventions().model(name) is guessed


@pytest.mark.parametrize("text, guessed", [
    ("next_states", True), ("s2", True), ("obs_tp1", True), ("state_prime", True), ("obs_b", False),
    ("states", False),
])
def test_next_state_names(text, guessed):
    assert NameConventions().next_state(text) is guessed


def test_a_finding_that_rests_on_a_guess_says_so_in_a_note():
    finding = next(d for d in analyze(GUESSED_MODEL) if d.code == "GG101")
    notes = [r for r in finding.related if "only because of its name" in r.message]
    assert [(n.span.line, n.span.col, n.message) for n in notes] == [
        (4, 15, "`policy` is taken for a Keras model only because of its name (docs/name-conventions.md)")]


def test_a_finding_backed_by_facts_has_no_such_note():
    finding = next(d for d in analyze(BUILT_MODEL) if d.code == "GG101")
    assert not [r for r in finding.related if "only because" in r.message]


def config(tmp_path, text):
    path = tmp_path / "pyproject.toml"
    path.write_text("[tool.gradguard]\n" + text, encoding="utf-8")
    return load_config_file(path)


def test_guesses_can_be_turned_off(tmp_path):
    off = config(tmp_path, "guess-from-names = false\n")
    assert [d.code for d in lint(GUESSED_MODEL, "a.py", off)] == []
    assert [d.code for d in lint(BUILT_MODEL, "a.py", off)] == ["GG101"]


def test_more_model_names_can_be_given(tmp_path):
    source = GUESSED_MODEL.replace("policy", "brain")
    assert [d.code for d in lint(source, "a.py")] == []
    assert [d.code for d in lint(source, "a.py", config(tmp_path, 'model-names = ["brain"]\n'))] == ["GG101"]


def test_more_next_state_names_can_be_given(tmp_path):
    source = """\
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(2)])


def train(states, obs_after, rewards):
    with tf.GradientTape() as tape:
        target = rewards + 0.9 * tf.reduce_max(model(obs_after), axis=1)
        loss = tf.reduce_mean(tf.square(target - tf.reduce_max(model(states), axis=1)))
    return tape.gradient(loss, model.trainable_variables)
"""
    assert [d.code for d in lint(source, "a.py")] == []
    found = lint(source, "a.py", config(tmp_path, 'next-state-names = ["obs_after"]\n'))
    assert [(d.code, d.span.line) for d in found] == [("GG202", 8)]


@pytest.mark.parametrize("text, problem", [
    ('model-names = "brain"\n', "model-names: expected a list of strings"),
    ('model-names = ["my brain"]\n', "model-names: 'my brain' is not a Python name"),
    ("guess-from-names = 1\n", "guess-from-names: expected true or false"),
])
def test_bad_settings_are_named(tmp_path, text, problem):
    with pytest.raises(ConfigError, match=re.escape(problem)):
        config(tmp_path, text)
