"""The generator's `construct` dimension: the Keras and TensorFlow constructs of the bug categories
found in public reports (issue 22) that are not a cut on a path, drawn from a random stream of
their own (`Random(f"{seed}:{index}:construct")`) so that at the first value, `none`, a program
keeps the exact text it had before the dimension existed:

* `regularized`      the first model's layers declare a regularizer (`kernel_regularizer=`,
                     `bias_regularizer=` or `activity_regularizer=`, spelled as an object or a
                     string), and the hand-written loss adds `model.losses` or does not (GG311);
                     `fit` adds them itself. TensorFlow's label: the worker runs the program again
                     with every L1/L2 penalty doubled; gradients that do not change mean the
                     regularization was left out of the loss (runner.py, `_regularization_fact`);
* `custom_gradient`  the first path goes through a `@tf.custom_gradient` function of the program:
                     a scale, a straight-through round, a clipped or zeroed gradient (all train:
                     zeros are not None), a `grad` that returns None, or a function reading a
                     variable of the module with a `grad` that does or does not take `variables`
                     (without it TensorFlow raises a TypeError) (GG314, GG401's STE);
* `symbolic`         a functional model's saliency after training (the first holder's, or one
                     built for it): the gradient of its score with respect to `model.inputs` or
                     `model.input` (a symbolic Keras tensor, which the tape refuses with a
                     ValueError) or to the batch itself (GG312).

A value the program's other dimensions rule out falls back to `none`, the program unchanged.

`layer_flaw`, from a stream of its own (`...:layer_flaw`), changes the first holder's class when the
program defines one: none (the first value); `build_transform`, the Layer's weight transformed
once in `build()` and the result used in `call` (GG303; the variant `call_transform` does it in
`call`, and trains); `dropped_output`, the subclassed Model's `call` computes its hidden layer's
output and drops it, applying the head to the inputs side by side (GG302/GG303 territory; the
variant `used_output` keeps it).

TensorFlow-free, like the generator.
"""
from __future__ import annotations

import random
import re

CONSTRUCTS = ("none", "regularized", "custom_gradient", "symbolic")
CONSTRUCT_WEIGHTS = (0.84, 0.06, 0.06, 0.04)

# Holders whose layers the generator writes as `keras.layers.Dense(units...)`.
REGULARIZED_HOLDERS = {"dense", "sequential", "functional", "subclassed_model", "factory", "tuple_assigned",
                       "list_of_models", "dict_of_models", "attribute"}
REGULARIZERS = ("keras.regularizers.L2(0.01)", "keras.regularizers.l2(1e-3)", '"l2"', "keras.regularizers.L1(0.01)")
REGULARIZER_KEYWORDS = ("kernel_regularizer", "kernel_regularizer", "bias_regularizer", "activity_regularizer")
LOSS_ADDITIONS = ("loss = loss + tf.add_n({m}.losses)", "loss += sum({m}.losses)",
                  "loss = loss + tf.reduce_sum({m}.losses)")

# (forward expression of `t`, the grad's body of `dy`, whether TensorFlow then gives every
# gradient): the ways a custom gradient is written.
CUSTOM_GRADIENTS = {
    "scale": ("t * 2.0", "dy * 2.0"),
    "straight_through": ("tf.round(t)", "dy"),
    "clip": ("tf.identity(t)", "tf.clip_by_norm(dy, 1.0)"),
    "zeros": ("t * 1.0", "tf.zeros_like(dy)"),
    "returns_none": ("t * 2.0", "None"),
    "captured_without_variables": ("t * gain", "dy * gain"),
    "captured_with_variables": ("t * gain", "dy * gain"),
}
SYMBOLIC_TARGETS = ("{m}.inputs", "{m}.input", "batch", "variable_batch")


class Construct:
    """The draws of the `construct` stream for one program (`seed`, `index`)."""

    def __init__(self, seed: int, index: int) -> None:
        rng = random.Random(f"{seed}:{index}:construct")
        self.value = rng.choices(CONSTRUCTS, CONSTRUCT_WEIGHTS)[0]
        # Drawn now, whatever the value, so the draws do not depend on the program.
        self.regularizer = rng.choice(REGULARIZERS)
        self.keyword = rng.choice(REGULARIZER_KEYWORDS)
        self.adds_losses = rng.random() < 0.5
        self.addition = rng.choice(LOSS_ADDITIONS)
        self.custom = rng.choice(sorted(CUSTOM_GRADIENTS))
        self.custom_lambda = rng.random() < 0.3
        self.symbolic_target = rng.choice(SYMBOLIC_TARGETS)

    def applies(self, kind: str, asked: str) -> bool:
        """Whether the drawn value can be written for a first holder of `kind` asked by `asked`."""
        if self.value == "regularized":
            return kind in REGULARIZED_HOLDERS and asked != "minimize"
        if self.value == "symbolic":
            return asked not in ("fit", "fit_eager", "minimize")
        return self.value == "custom_gradient"

    def detail(self) -> str:
        """The variant, for `--where construct_detail=...` and the table."""
        if self.value == "regularized":
            return f"{self.keyword}:{'added' if self.adds_losses else 'left_out'}"
        if self.value == "custom_gradient":
            return self.custom
        if self.value == "symbolic":
            return self.symbolic_target.replace("{m}.", "")
        return "none"


def regularize(text: str, construct: Construct) -> str:
    """`text` (a holder's setup or class) with each of its Dense layers declaring the regularizer."""
    return re.sub(r"keras\.layers\.Dense\((\d+)",
                  lambda m: f"keras.layers.Dense({m.group(1)}, {construct.keyword}={construct.regularizer}", text)


def loss_addition(construct: Construct, model: str) -> list[str]:
    return [construct.addition.format(m=model)] if construct.adds_losses else []


def custom_gradient_step(construct: Construct, e: str, w) -> str:
    """`e` through a `@tf.custom_gradient` function the program defines (its definition into `w`)."""
    forward, backward = CUSTOM_GRADIENTS[construct.custom]
    fn = w.fresh("custom")
    captured = construct.custom.startswith("captured")
    if captured:
        w.const("gain = tf.Variable(2.0)")
    if construct.custom == "captured_with_variables":
        body = (f"    def grad(dy, variables=None):\n"
                f"        return {backward}, [tf.reduce_sum(dy * t)]\n")
    elif construct.custom_lambda:
        body = None
    else:
        body = f"    def grad(dy):\n        return {backward}\n"
    if body is None:
        text = f"@tf.custom_gradient\ndef {fn}(t):\n    return {forward}, lambda dy: {backward}\n"
    else:
        text = f"@tf.custom_gradient\ndef {fn}(t):\n    y = {forward}\n{body}    return y, grad\n"
    w.defs.append(text)
    return f"{fn}({e})"


def saliency_lines(construct: Construct, model: str | None) -> list[str]:
    """After training: the gradient of a functional model's score with respect to its input (the
    first holder's when it is one, else a small one built for it)."""
    target = construct.symbolic_target
    built: list[str] = []
    if model is None:
        model = "scorer"
        built = ["scorer_input = keras.Input((3,))",
                 "scorer = keras.Model(scorer_input, keras.layers.Dense(1)(scorer_input))"]
    return built + _saliency(target, model)


def _saliency(target: str, model: str) -> list[str]:
    if target == "batch":
        return ["x_in = tf.convert_to_tensor(x)", "with tf.GradientTape() as saliency_tape:",
                "    saliency_tape.watch(x_in)", f"    score = tf.reduce_sum({model}(x_in))",
                "saliency = saliency_tape.gradient(score, x_in)"]
    if target == "variable_batch":
        return ["x_in = tf.Variable(x)", "with tf.GradientTape() as saliency_tape:",
                f"    score = tf.reduce_sum({model}(x_in))", "saliency = saliency_tape.gradient(score, x_in)"]
    symbolic = target.format(m=model)
    return ["with tf.GradientTape() as saliency_tape:", f"    saliency_tape.watch({symbolic})",
            f"    score = tf.reduce_sum({model}(x))", f"saliency = saliency_tape.gradient(score, {symbolic})"]


LAYER_FLAWS = ("none", "build_transform", "dropped_output")
LAYER_FLAW_WEIGHTS = (0.4, 0.3, 0.3)
# How `build` (or `call`) transforms the weight: an expression of `{w}`.
TRANSFORMS = ("{w} * 2.0", "tf.nn.l2_normalize({w}, axis=0)", "tf.transpose(tf.transpose({w}))",
              "tf.clip_by_value({w}, -1.0, 1.0)")


class LayerFlaw:
    """The draws of the `layer_flaw` stream for one program (`seed`, `index`)."""

    def __init__(self, seed: int, index: int) -> None:
        rng = random.Random(f"{seed}:{index}:layer_flaw")
        self.value = rng.choices(LAYER_FLAWS, LAYER_FLAW_WEIGHTS)[0]
        self.transform = rng.choice(TRANSFORMS)
        self.correct = rng.random() < 0.35  # the near miss: transformed in `call`, the output used

    def applies(self, kind: str) -> bool:
        return (self.value, kind) in (("build_transform", "layer_build"), ("dropped_output", "subclassed_model"))

    def detail(self) -> str:
        if self.value == "build_transform":
            return "call_transform" if self.correct else "build_transform"
        if self.value == "dropped_output":
            return "used_output" if self.correct else "dropped_output"
        return "none"


def flawed_class(flaw: LayerFlaw, text: str) -> str:
    """The generator's class text (generator._CLASSES) with the flaw written into it."""
    if flaw.value == "build_transform":
        transformed = flaw.transform.format(w="self.w")
        if flaw.correct:
            return text.replace("        return tf.matmul(inputs, self.w) + self.b\n",
                                f"        kernel = {transformed}\n        return tf.matmul(inputs, kernel) + self.b\n")
        text = text.replace("        self.b = self.add_weight(",
                            f"        self.kernel = {transformed}\n        self.b = self.add_weight(")
        return text.replace("tf.matmul(inputs, self.w)", "tf.matmul(inputs, self.kernel)")
    if flaw.value == "dropped_output":
        if flaw.correct:
            return text.replace("        return self.head(self.hidden(inputs))\n",
                                "        features = self.hidden(inputs)\n        return self.head(features)\n")
        return text.replace("        return self.head(self.hidden(inputs))\n",
                            "        features = self.hidden(inputs)\n        return self.head(inputs)\n")
    return text
