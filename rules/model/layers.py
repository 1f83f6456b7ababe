"""Layers and models as summaries: what calling one cuts.

A Keras layer or model class of this file is summarised by its `call`: does the gradient go from
its first input to its output, and from its own weights? A layer known from Keras (`Flatten`) has
no weights; a `Lambda` layer or an `activation=` is what its function does. `keras.Sequential`
composes the effects of its layers in order, and a functional `keras.Model(inputs, outputs)`
shows in its outputs whether any of its layers still reaches them.

An effect only ever records a break the file shows: where a summary cannot tell (no `call`, a
path the model cannot follow), calling the layer keeps today's meaning, a live output that
depends on the layer's variables and on its inputs.
"""
from __future__ import annotations

import ast

from .facts import ClassInfo
from .frame import Frame
from .values import NO_EFFECT, UNKNOWN, Break, Cut, Grad, Kind, LayerEffect, Origin, OriginKind, Site, Value, evolve, join

# Keras layers without trainable weights: in a `Sequential`, a break after them still leaves the
# layers before it (and them) nothing to train.
WEIGHTLESS_LAYERS = {
    "Activation", "ActivityRegularization", "Add", "AlphaDropout", "Average", "AveragePooling1D",
    "AveragePooling2D", "AveragePooling3D", "Concatenate", "Cropping1D", "Cropping2D", "Cropping3D", "Dot",
    "Dropout", "ELU", "Flatten", "GaussianDropout", "GaussianNoise", "GlobalAveragePooling1D",
    "GlobalAveragePooling2D", "GlobalAveragePooling3D", "GlobalMaxPooling1D", "GlobalMaxPooling2D",
    "GlobalMaxPooling3D", "InputLayer", "Lambda", "LeakyReLU", "MaxPooling1D", "MaxPooling2D", "MaxPooling3D",
    "Maximum", "Minimum", "Multiply", "Permute", "ReLU", "RepeatVector", "Rescaling", "Reshape", "Softmax",
    "SpatialDropout1D", "SpatialDropout2D", "SpatialDropout3D", "Subtract", "UpSampling1D", "UpSampling2D",
    "UpSampling3D", "ZeroPadding1D", "ZeroPadding2D", "ZeroPadding3D",
}
SEQUENTIAL = ("keras.Sequential", "keras.models.Sequential")
FUNCTIONAL = ("keras.Model", "keras.models.Model")


class Layers:
    # ------------------------------------------------------------------ classes of this file
    def class_effect(self, cls: ClassInfo) -> LayerEffect | None:
        """What calling an instance of a Keras class of this file cuts, from its `call`."""
        key = id(cls)
        if key in self.effects:
            return self.effects[key]
        self.effects[key] = None  # recursion guard: a `call` that calls `self(...)`
        call = next((m for m in cls.node.body if isinstance(m, ast.FunctionDef) and m.name == "call"), None)
        effect = None
        if call is not None and cls.is_keras and cls.origin is not None:
            self.ensure_attributes(cls)
            summary = self.summary(call, cls)
            if summary is not None:
                effect = _effect_of_summary(summary, cls.origin, f"`{cls.node.name}.call`", name=cls.node.name)
        self.effects[key] = effect
        return effect

    def ensure_attributes(self, cls: ClassInfo) -> None:
        """Analyse `__init__` and `build` now, so a summary of `call` sees `self.w` and `self.dense`
        even when the class is instantiated by module code run before the classes are analysed."""
        for method in cls.node.body:
            if isinstance(method, ast.FunctionDef) and method.name in ("__init__", "build") \
                    and id(method) not in self.analyzed_methods:
                self.analyzed_methods.add(id(method))
                self.analyze_function(method, self.module, cls)

    def effect_of(self, model: Value) -> LayerEffect | None:
        if model.effect is not None:
            return model.effect
        if model.model is not None and model.model.kind is OriginKind.MODEL and model.model.key.startswith("class:"):
            info = self.classes.get(model.model.key[len("class:"):])
            if info is not None and info.origin == model.model:
                return self.class_effect(info)  # `self(x)` in a model's own `train_step`
        return None

    # ------------------------------------------------------------------ Keras constructors
    def keras_layer_effect(self, site: Site, frame: Frame) -> LayerEffect | None:
        """The effect of a layer or model Keras builds: `Sequential([...])`, `Model(inputs, outputs)`,
        `Lambda(fn)`, `Dense(..., activation=fn)`, a weightless layer."""
        qual = site.qualname or ""
        name = qual.rsplit(".", 1)[-1]
        if qual in SEQUENTIAL:
            layers = site.args[0] if site.args else site.keywords.get("layers", UNKNOWN)
            return _sequential_effect(layers.items or ()) if layers.items else None
        if qual in FUNCTIONAL:
            outputs = site.args[1] if len(site.args) > 1 else site.keywords.get("outputs")
            return _functional_effect(outputs) if outputs is not None else None
        if name == "Lambda":
            function = site.arg_node(0, "function")
            brk = self._function_break(function, frame, "the function of `Lambda`") if function is not None else None
            return LayerEffect(input_cut=brk, weightless=True, name="Lambda")
        activation = site.keyword_node("activation")
        if activation is not None:
            brk = self._function_break(activation, frame, f"the activation of `{name}`")
            if brk is not None:  # the activation runs after the weights: it cuts them too
                return LayerEffect(input_cut=brk, weights_cut=brk, name=name)
        if name in WEIGHTLESS_LAYERS:
            return LayerEffect(weightless=True, name=name)
        return None

    def _function_break(self, function: ast.AST, frame: Frame, inside: str) -> Break | None:
        """The break a function given to a layer puts on every path from its argument, if any:
        a lambda or function of this file by its summary, a library function by the break rules."""
        callee = self.eval(function, frame)
        if callee.kind == Kind.CALLABLE and isinstance(callee.func, (ast.FunctionDef, ast.Lambda)):
            summary = self.summary(callee.func, self.class_of_function.get(id(callee.func)))
            if summary is None:
                return None
            effect = _effect_of_summary(summary, None, inside, param=0)
            return effect.input_cut if effect else None
        qual = self.imports.qualname(function)
        if qual is None:
            return None
        origin = Origin(OriginKind.PARAM, "x", "param0", self.doc.span(function), index=0)
        argument = Value(frozenset({Grad(origin, self.doc.span(function), None)}), kind=Kind.TENSOR)
        site = Site(function, qual, None, None, [argument], {}, self.doc)
        for rule in self.break_rules:
            label = rule.match(site)
            if label is not None:
                return Break(rule.code, self.doc.span(function), label, self.doc.short(function), function,
                             deliberate=rule.absorbs_cuts, inside=inside)
        return None

    # ------------------------------------------------------------------ calling a layer
    def run_layer(self, model: Value, site: Site, frame: Frame) -> Value:
        """`layer(x)`: its output depends on its variables and its inputs, except what it cuts."""
        output = self._model_output(model, site.node, frame)
        args = list(site.args)
        effect = self.effect_of(model)
        if effect is not None and effect.earlier_cut is not None and model.model is not None and output.live:
            part = evolve(model.model, key=f"{model.model.key}#before:{effect.name}", part=f"before `{effect.name}`",
                          part_of=model.model.key)
            brk = evolve(effect.earlier_cut, via=self.doc.span(site.node), value_text=self.doc.short(site.node))
            output = evolve(output, cut=output.cut | {Cut(brk, evolve(g, origin=part)) for g in output.live})
        if effect is not None and (effect.weights_cut or effect.input_cut):
            via, text = self.doc.span(site.node), self.doc.short(site.node)
            if effect.weights_cut is not None:
                brk = evolve(effect.weights_cut, via=via, value_text=text)
                output = Value(frozenset(), frozenset(Cut(brk, g) for g in output.live), Kind.TENSOR)
            if effect.input_cut is not None and args:
                brk = evolve(effect.input_cut, via=via, value_text=text)
                first = args[0]
                args[0] = Value(frozenset(), first.cut | frozenset(Cut(brk, g) for g in first.live), Kind.TENSOR)
        return self.op(join([output, *args, *site.keywords.values()]), site.node, frame)


def _effect_of_summary(summary: Value, own: Origin | None, inside: str, param: int = 1,
                       name: str = "") -> LayerEffect | None:
    """A function's effect from its summary: parameter `param` is the input; `own` the origin of
    the layer's weights. A path counts as cut only when the summary has a cut and no live path."""
    def first_cut(matches) -> Break | None:
        if any(matches(g) for g in summary.live):
            return None
        cuts = sorted((c for c in summary.cut if matches(c.grad)), key=lambda c: (c.brk.span, c.brk.code))
        return evolve(cuts[0].brk, inside=cuts[0].brk.inside or inside) if cuts else None

    input_cut = first_cut(lambda g: g.origin.kind is OriginKind.PARAM and g.origin.index == param)
    weights_cut = first_cut(lambda g: g.origin == own) if own is not None else None
    if input_cut is None and weights_cut is None:
        return None
    return LayerEffect(input_cut=input_cut, weights_cut=weights_cut, name=name)


def _sequential_effect(layers: tuple[Value, ...]) -> LayerEffect | None:
    """Layers in order: a layer that cuts its input cuts every layer before it; the model's
    weights are all cut when every layer that may have weights is cut."""
    models = [layer for layer in layers if layer.kind == Kind.MODEL]
    effects = [layer.effect or NO_EFFECT for layer in models]
    last = max((i for i, e in enumerate(effects) if e.input_cut is not None), default=None)
    if last is None:
        return None
    input_cut = effects[last].input_cut
    weights_cut = input_cut
    for effect in effects[last:]:
        if effect.weightless:
            continue
        if effect is effects[last] and effect.weights_cut is not None:
            continue
        if effect.weights_cut is None:
            weights_cut = None  # some layer at or after the break still trains
            break
    trained_before = any(not e.weightless for e in effects[:last])
    earlier_cut = input_cut if weights_cut is None and trained_before else None
    return LayerEffect(input_cut=input_cut, weights_cut=weights_cut, name=effects[last].name, earlier_cut=earlier_cut)


def _functional_effect(outputs: Value) -> LayerEffect | None:
    """`keras.Model(inputs, outputs)`: when no layer reaches the outputs any more and some did,
    calling the model gives its weights nothing."""
    if outputs.live or not outputs.cut:
        return None
    cut = sorted(outputs.cut, key=lambda c: (c.brk.span, c.brk.code))[0]
    return LayerEffect(weights_cut=cut.brk)
