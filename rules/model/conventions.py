"""Name conventions: what the model guesses from how a thing is named, when nothing else is known.

The analysis prefers facts: an import (`keras.Sequential`), a constructor it can see, a class of
this file that subclasses `keras.Model`, jedi's answer for another module. Only when none of those
says what a name is does it guess from the name itself:

* a **model**: a parameter, attribute or called name such as `model`, `q_net`, `self.actor`,
  `policy_head`, `critic_target`: its last snake_case word is a `MODEL_WORDS` word (digits allowed
  after it), or only `MODIFIER_WORDS` follow one; `actor_units`, `model_fn` and `encoder_output`
  are not models (the last word names what the thing is). A parameter whose default is a literal
  (`actor_units=(256, 256)`) is never one;
* **next states**: a model called on `next_states`, `s2`, `obs_tp1`, ... computes a TD target
  (`NEXT_STATE`), which GG202 wants wrapped in `tf.stop_gradient`;
* a **gradient tape**: `.gradient(...)` on a receiver whose name contains "tape".

A finding that rests on such a guess says so in a note, and `[tool.gradguard]` can extend or turn
off the guesses (`model-names`, `next-state-names`, `guess-from-names`). docs/name-conventions.md
is the user's page for all of this.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property

MODEL_WORDS = (
    "model", "models", "net", "nets", "network", "networks", "qnet", "dqn", "actor", "critic", "generator",
    "discriminator", "gen", "disc", "encoder", "decoder", "policy", "classifier", "regressor", "layer",
    "layers", "dense", "mlp", "cnn", "rnn", "lstm", "gru", "backbone", "head", "embedding",
)
# Words that may follow the model word without changing what the name is (`critic_target`, `model_old`).
MODIFIER_WORDS = ("target", "targ", "tgt", "old", "new", "online", "main", "eval", "local", "global", "ema", "avg",
                  "copy", "clone", "prime", "base", "shared")
NEXT_STATE = r"next|new_?(state|obs)|_tp1\b|tp1|_prime\b|\bs_\b|\bs2\b|\bobs2\b|succ"
DOCS = "docs/name-conventions.md"
_COUNT = re.compile(r"(num|n|number_of|max|min)_", re.IGNORECASE)  # `num_layers`: a number of them


@dataclass(unsafe_hash=True)
class NameConventions:
    """The guesses in force for one analysis (the defaults, or as `[tool.gradguard]` sets them)."""

    extra_model_names: tuple[str, ...] = ()
    extra_next_state_names: tuple[str, ...] = ()
    enabled: bool = True

    def model(self, name: str) -> bool:
        """`name` (a parameter, an attribute, a called name) is guessed to be a Keras model or layer."""
        return self.enabled and self._model_pattern.search(name) is not None and not _COUNT.match(name)

    def next_state(self, text: str) -> bool:
        """A model called on `text` (its first argument, as written) computes a TD target."""
        return self.enabled and self._next_state_pattern.search(text) is not None

    def tape(self, receiver_text: str) -> bool:
        """`<receiver>.gradient(...)` is a GradientTape's, though nothing else says what it is."""
        return self.enabled and "tape" in receiver_text.lower()

    @cached_property  # asked at every parameter, attribute and call: compiled once per conventions
    def _model_pattern(self) -> re.Pattern:
        words = "|".join(re.escape(word) for word in (*MODEL_WORDS, *self.extra_model_names))
        modifiers = "|".join(MODIFIER_WORDS)
        return re.compile(rf"(^|_)({words})\d*(_({modifiers})\d*)*_?$", re.IGNORECASE)

    @cached_property
    def _next_state_pattern(self) -> re.Pattern:
        names = "".join(rf"|\b{re.escape(name)}\b" for name in self.extra_next_state_names)
        return re.compile(f"({NEXT_STATE}{names})", re.IGNORECASE)


DEFAULT = NameConventions()
