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

from .facts import ClassInfo, Sink, SinkKind, SourceItem, name_key
from .frame import Frame
from .library import VARIABLE_CONSTRUCTORS, keyword_constant
from .objects import FUNCTION_NODES
from .regularizers import declarations, declared_regularizer, gives, regularizer_conditions, regularizer_keyword, zero_strength
from .values import NO_EFFECT, UNKNOWN, Break, Cut, Grad, Kind, LayerEffect, Origin, OriginKind, Site, Value, evolve, join
from .weights import makes_no_weights

# Keras layers without trainable weights: in a `Sequential`, a break after them still leaves the
# layers before it (and them) nothing to train.
WEIGHTLESS_LAYERS = {
    "Activation", "ActivityRegularization", "Add", "AlphaDropout", "Average", "AveragePooling1D",
    "AveragePooling2D", "AveragePooling3D", "Concatenate", "Cropping1D", "Cropping2D", "Cropping3D", "Dot",
    "Dropout", "ELU", "Flatten", "GaussianDropout", "GaussianNoise", "GlobalAveragePooling1D",
    "GlobalAveragePooling2D", "GlobalAveragePooling3D", "GlobalMaxPooling1D", "GlobalMaxPooling2D",
    "GlobalMaxPooling3D", "Input", "InputLayer", "Lambda", "LeakyReLU", "MaxPooling1D", "MaxPooling2D", "MaxPooling3D",
    "Maximum", "Minimum", "Multiply", "Permute", "ReLU", "RepeatVector", "Rescaling", "Reshape", "Softmax",
    "SpatialDropout1D", "SpatialDropout2D", "SpatialDropout3D", "Subtract", "UpSampling1D", "UpSampling2D",
    "UpSampling3D", "ZeroPadding1D", "ZeroPadding2D", "ZeroPadding3D",
    # preprocessing layers: state from `adapt` or none, never trainable weights
    "TextVectorization", "StringLookup", "Normalization", "Resizing", "CenterCrop", "RandomCrop", "RandomFlip",
    "RandomRotation", "RandomZoom", "RandomTranslation", "RandomContrast", "RandomBrightness",
}
# Keras layers that read their input as integers (ids, bins, categories): no gradient reaches the
# input (TensorFlow 2.21 / Keras 3: None for each), whatever it was computed from.
INTEGER_INPUT_LAYERS = {"Embedding", "CategoryEncoding", "IntegerLookup", "Hashing", "Discretization"}
# Keras layers with non-trainable variables (moving statistics): `model.variables` lists them.
STATEFUL_LAYERS = {"BatchNormalization", "SyncBatchNormalization", "Normalization"}
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
        call = forward_method(cls)
        effect = None
        if call is not None and cls.has_variables and cls.origin is not None:
            self.ensure_attributes(cls)
            summary = self.summary(call, cls)
            if summary is not None:
                effect = _effect_of_summary(summary, cls.origin, f"`{cls.node.name}.{call.name}`", name=cls.node.name,
                                            sublayers=self.sublayers.get(cls.origin.key, set())
                                            - self.loss_parts.get(cls.origin.key, set()))
        if cls.is_keras and makes_no_weights(cls.node, self.imports.qualname, WEIGHTLESS_LAYERS, VARIABLE_CONSTRUCTORS,
                                             self._may_return_model):
            effect = evolve(effect or LayerEffect(name=cls.node.name), weightless=True)  # nothing to train
        if cls.is_keras and any(v.effect is not None and v.effect.stateful for v in cls.attrs.values()):
            effect = evolve(effect or LayerEffect(name=cls.node.name), stateful=True)  # `self.bn = BatchNormalization()`
        regularized = self._class_regularizer(cls) if cls.is_keras else None
        if regularized is not None and (effect is None or effect.regularized is None):
            effect = evolve(effect or LayerEffect(name=cls.node.name), regularized=regularized[0],
                            regularized_in=regularized[1])
        self.effects[key] = effect
        return effect

    def _may_return_model(self, call: ast.Call) -> bool:
        """`self.vocab = get_vocabulary(data)`: a call of this file's function that may return a model
        or variables (its summary says so, or cannot be had)."""
        func = self.functions.get(call.func.id) if isinstance(call.func, ast.Name) else None
        summary = self.summary(func, None) if func is not None else None
        return summary is None or summary.kind in (Kind.MODEL, Kind.VARIABLE, Kind.VARIABLES) or summary.role == "instance"

    def instance_effect(self, cls: ClassInfo, site: Site) -> LayerEffect | None:
        """The effect of one instance: its class's, but for a regularizer that its `__init__` is
        given (`regularizer=None` by default) and this call does not give: no penalty then."""
        effect = self.class_effect(cls)
        if effect is None or effect.regularized is None or not cls.is_keras:
            return effect
        conditions = regularizer_conditions(cls.node)
        if conditions is None or any(gives(site, param) for param in conditions):
            return effect
        other = self.sublayers_regularizer(cls)
        return evolve(effect, regularized=other[0] if other else None, regularized_in=other[1] if other else None)

    def sublayers_regularizer(self, cls: ClassInfo):
        """Where a sub-layer of the class declares a regularizer of its own, and in which module
        (None: none): not one the class hands it (`Dense(..., kernel_regularizer=self._kernel_regularizer)`)."""
        own = {self.doc.span(d) for d in declarations(cls.node)}
        return next(((v.effect.regularized, v.effect.regularized_in) for v in cls.attrs.values()
                     if v.effect is not None and v.effect.regularized is not None
                     and not (v.effect.regularized_in is None and v.effect.regularized in own)), None)

    def _class_regularizer(self, cls: ClassInfo):
        """Where a Keras class of this file declares a regularization loss, and in which module
        (None: this one): `self.add_loss(...)`, `add_weight(..., regularizer=...)`, a
        `*_regularizer=` given to a layer it builds, or a sub-layer (`self.dense = Dense(...)`,
        `self.backbone = build_darknet()` from another module) whose effect has one."""
        found = declared_regularizer(cls.node)
        if found is not None:
            return self.doc.span(found), None
        return self.sublayers_regularizer(cls)  # (the class declares none: every sub-layer's is its own)

    def ensure_attributes(self, cls: ClassInfo) -> None:
        """Analyse `__init__` and `build` now, so a summary of `call` sees `self.w` and `self.dense`
        even when the class is instantiated by module code run before the classes are analysed."""
        for method in cls.node.body:
            if isinstance(method, ast.FunctionDef) and method.name in ("__init__", "build") \
                    and id(method) not in self.analyzed_methods:
                self.analyzed_methods.add(id(method))
                self.analyze_function(method, self._closure_of(method, cls), cls)

    def effect_of(self, model: Value) -> LayerEffect | None:
        if model.effect is not None:
            return model.effect
        if model.model is not None and model.model.kind is OriginKind.MODEL:
            info = self.class_of_origin.get(model.model.key)
            if info is not None and info.origin == model.model:
                return self.class_effect(info)  # `self(x)` in a model's own `train_step`
        return None

    # ------------------------------------------------------------------ Keras constructors
    def keras_layer_effect(self, site: Site, frame: Frame) -> LayerEffect | None:
        """The effect of a layer or model Keras builds, with the regularizer it declares."""
        effect = self._constructed_effect(site, frame)
        qual = site.qualname or ""
        if keyword_constant(site.node, "trainable", True) is False:  # `Dense(1, trainable=False)`: nothing to train
            effect = evolve(effect or LayerEffect(name=qual.rsplit(".", 1)[-1]), weightless=True)
        if qual not in SEQUENTIAL and qual not in FUNCTIONAL and qual.rsplit(".", 1)[-1][:1].isupper():
            effect = self.holding(site, frame, effect)  # (a layer class: `clone_model(model)` builds new layers)
        regularizer = regularizer_keyword(site.node)
        if regularizer is not None and zero_strength(regularizer, lambda n: self.eval(n, frame).constant):
            regularizer = None  # `l2(0.0)`: its penalty is zero, and adding it changes no gradient
        if regularizer is not None and (effect is None or effect.regularized is None):
            name = (site.qualname or "").rsplit(".", 1)[-1]
            effect = evolve(effect or LayerEffect(name=name), regularized=self.doc.span(regularizer))
        return effect

    def _constructed_effect(self, site: Site, frame: Frame) -> LayerEffect | None:
        """The effect of a layer or model Keras builds: `Sequential([...])`, `Model(inputs, outputs)`,
        `Lambda(fn)`, `Dense(..., activation=fn)`, a weightless layer."""
        qual = site.qualname or ""
        name = qual.rsplit(".", 1)[-1]
        if qual in SEQUENTIAL:
            written = site.arg_node(0, "layers")
            if written is None or isinstance(written, (ast.List, ast.Tuple)) and not written.elts:
                return LayerEffect(layers=())  # `keras.Sequential()`, filled by `model.add(...)`
            layers = site.args[0] if site.args else site.keywords.get("layers", UNKNOWN)
            return _sequential_effect(layers.items) if layers.items else None
        if qual in FUNCTIONAL:
            outputs = site.args[1] if len(site.args) > 1 else site.keywords.get("outputs")
            effect = _functional_effect(outputs) if outputs is not None else None
            stateful = sorted({self.stateful_layers[g.origin.key] for g in (outputs.live if outputs else ())
                               if g.origin.key in self.stateful_layers})
            if stateful:  # a BatchNormalization in the graph
                effect = evolve(effect or LayerEffect(), stateful=True, name=(effect and effect.name) or stateful[0])
            regularized = sorted((self.regularized_layers[g.origin.key] for g in (outputs.live if outputs else ())
                                  if g.origin.key in self.regularized_layers), key=lambda r: (r[0].line, r[0].col))
            if regularized:  # a layer of the graph declares a regularizer
                effect = evolve(effect or LayerEffect(), regularized=regularized[0][0], regularized_in=regularized[0][1])
            return effect
        if name == "Lambda":
            function = site.arg_node(0, "function")
            brk = self._function_break(function, frame, "the function of `Lambda`") if function is not None else None
            runs = self.eval(function, frame) if function is not None else None
            runs = runs if runs is not None and runs.kind == Kind.CALLABLE and isinstance(runs.func, FUNCTION_NODES) else None
            return LayerEffect(input_cut=brk, weightless=True, name="Lambda", runs=runs)
        activation = site.keyword_node("activation")
        if activation is not None:
            brk = self._function_break(activation, frame, f"the activation of `{name}`")
            if brk is not None:  # the activation runs after the weights: it cuts them too
                return LayerEffect(input_cut=brk, weights_cut=brk, name=name)
        if name in INTEGER_INPUT_LAYERS:
            brk = Break("GG403", self.doc.span(site.node), f"`{name}`, which reads its input as integers",
                        self.doc.short(site.node), site.node, inside="the model")
            return LayerEffect(input_cut=brk, weightless=name != "Embedding", name=name)
        if name in WEIGHTLESS_LAYERS:
            return LayerEffect(weightless=True, name=name)
        if name in STATEFUL_LAYERS:
            return LayerEffect(stateful=True, name=name)
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
        # The rules look at a call: `Lambda(tf.argmax)` is asked about as `tf.argmax(x)` would be,
        # a call spanning the function's name (never shown: the layer gets no fix).
        call = ast.copy_location(ast.Call(func=function, args=[], keywords=[]), function)
        origin = Origin(OriginKind.PARAM, "x", "param0", self.doc.span(function), index=0)
        argument = Value(frozenset({Grad(origin, self.doc.span(function), None)}), kind=Kind.TENSOR)
        site = Site(call, qual, None, None, [argument], {}, self.doc)
        for rule in self.break_rules:
            label = rule.match(site)
            if label is not None:
                return Break(rule.code, self.doc.span(function), label, self.doc.short(function), function,
                             deliberate=rule.absorbs_cuts, inside=inside)
        return None

    def _per_output(self, model: Origin, outputs: tuple[frozenset[Origin], ...], output: Value, span,
                    hidden: frozenset[Origin] = frozenset()) -> Value:
        """A multi-output functional model's result: one item per output, each carrying the model and
        the layers that reach it; the sink asking for the model's variables asks about every layer
        (and the sub-layers that reach no output at all, `hidden`)."""
        parts = self._register_parts(model, {layer for layers in outputs for layer in layers} | hidden)
        items = tuple(evolve(output, live=output.live | {Grad(parts[layer], span, None) for layer in layers})
                      for layers in outputs)
        return evolve(join(items), items=items)

    def _register_parts(self, model: Origin, layers) -> dict[Origin, Origin]:
        """`model`'s part for each of these layers, recorded as one group: a sink whose loss uses
        one of them and asks for the model's variables asks about them all."""
        parts = {layer: _layer_part(model, layer) for layer in layers}
        group = set(parts.values())
        for part in group:
            self.analysis.parts.setdefault(part.key, set()).update(group)
        return parts

    def add_layer(self, site: Site, model: Value, frame: Frame) -> None:
        """`model.add(layer)` on a `Sequential`: its effect now includes the layer."""
        key = name_key(site.node.func.value)
        layer = site.args[0] if site.args else UNKNOWN
        if key is None or model.effect is None or model.effect.layers is None or layer.kind != Kind.MODEL:
            return
        frame.env[key] = evolve(model, effect=_compose((*model.effect.layers, layer.effect or NO_EFFECT)))

    def record_fit(self, site: Site, model: Value, frame: Frame) -> None:
        """`model.fit(...)`: Keras differentiates the compiled loss for every variable of the
        model; what the model's layers cut is cut for it."""
        effect = self.effect_of(model)
        if not frame.records_facts or model.model is None or effect is None:
            return
        grad = Grad(model.model, self.doc.span(site.node), None)
        cuts = set()
        live = frozenset()
        if effect.weights_cut is not None:
            cuts.add(Cut(effect.weights_cut, grad))
        elif effect.some_cut is not None:
            cuts.add(Cut(effect.some_cut, evolve(grad, origin=_part(model.model, effect))))
            live = frozenset({grad})
        if cuts:
            target = Value(live, frozenset(cuts), Kind.TENSOR)
            self.analysis.sinks.append(Sink(SinkKind.FIT, site.node, site.node, target, None, None,
                                            self.doc.short(site.node.func), frame.function))
        elif not effect.weights_raises:
            self._record_fit_of_parts(site, model.model, effect, grad, frame)

    def _record_fit_of_parts(self, site: Site, model: Origin, effect: LayerEffect, grad: Grad, frame: Frame) -> None:
        """`model.fit(...)` on a model with sub-layers that reach none of its outputs (a BERT
        pooler the heads never use): Keras asks for every variable, theirs get None. `model` may
        be a subclassed model (its `hidden` parts) or a functional one built on such a model's
        call (the parts its outputs reach, out of that model's)."""
        span = self.doc.span(site.node)
        if effect.hidden and effect.outputs is not None:
            reaching = {layer for layers in effect.outputs for layer in layers}
            parts = self._register_parts(model, reaching | effect.hidden)
            used = {parts[layer] for layer in reaching}
            unused = {parts[layer] for layer in effect.hidden}
            asked = {model}
        else:
            used = {o for o in effect.contains if o.part_of is not None}
            inner = {o for o in effect.contains if o.part_of is None and any(p.part_of == o.key for p in used)}
            unused = set().union(*(self.analysis.parts.get(p.key, set()) for p in used)) - used
            asked = {model} | inner
        if not unused:
            return
        target = Value(frozenset({grad} | {Grad(o, span, None) for o in used | (asked - {model})}), kind=Kind.TENSOR)
        node = site.node.func.value if isinstance(site.node.func, ast.Attribute) else site.node.func
        sources = [SourceItem(node, Value(kind=Kind.VARIABLES, sources=frozenset(asked)), frozenset(asked))]
        self.analysis.sinks.append(Sink(SinkKind.FIT, site.node, site.node, target, sources, None,
                                        self.doc.short(site.node.func), frame.function, node))

    # ------------------------------------------------------------------ calling a layer
    def run_layer(self, model: Value, site: Site, frame: Frame) -> Value:
        """`layer(x)`: its output depends on its variables, on the models it is built from
        (`contains`) and on its inputs, except what it cuts."""
        return self._mark_sublayer(self.with_held(model, self._layer_output(model, site, frame), site, frame),
                                   site, model, frame)

    def with_held(self, model: Value, output: Value, site: Site, frame: Frame) -> Value:
        """`output` of calling `model` (or a method of it), with the tensors the instance keeps
        from its construction (`Objects.computed_at_construction`): it may return them."""
        if not model.fields:
            return output
        return self.op(join([output, *(held_value for _, held_value in model.fields)]), site.node, frame)

    def _layer_output(self, model: Value, site: Site, frame: Frame) -> Value:
        effect = self.effect_of(model)
        if effect is not None and effect.runs is not None and site.args:
            # `Lambda(binarize)([inp, var])`: the function called on these inputs, each element of
            # the list with its own history (its summary alone cannot tell them apart).
            ran = self.lambda_run(effect.runs, site, frame)
            if ran is not None:
                return ran
        if effect is not None and effect.stateful and model.model is not None:
            self.stateful_layers[model.model.key] = effect.name  # for a functional model built on its output
        if effect is not None and effect.regularized is not None and model.model is not None:
            self.regularized_layers[model.model.key] = (effect.regularized, effect.regularized_in)  # likewise
            if frame.records_facts:
                self.analysis.regularized_models.setdefault(model.model.key, (effect.regularized, effect.regularized_in))
        # A layer without weights (`Flatten`, `Lambda`) starts no gradient of its own.
        output = Value(kind=Kind.TENSOR) if effect is not None and effect.weightless else \
            self._model_output(model, site.node, frame)
        args = list(site.args)
        if effect is None:
            return self.op(join([output, *args, *site.keywords.values()]), site.node, frame)
        span, text = self.doc.span(site.node), self.doc.short(site.node)

        def reported(brk: Break) -> Break:  # at this call, as a break inside a helper is
            return evolve(brk, via=span, value_text=text, inner=brk)

        inner_live = frozenset(Grad(o, span, None) for o in effect.contains)
        inner_dead = frozenset(Grad(o, span, None) for o in effect.dead)
        if effect.weights_cut is not None:
            brk = reported(effect.weights_cut)
            output = Value(frozenset(), frozenset(Cut(brk, g) for g in output.live | inner_live | inner_dead),
                           Kind.TENSOR)
        else:
            cut = set(output.cut)
            if effect.some_cut is not None and model.model is not None and output.live:
                brk = reported(effect.some_cut)
                part = _part(model.model, effect)
                cut |= {Cut(brk, g) for g in inner_dead} | {Cut(brk, evolve(g, origin=part)) for g in output.live}
            output = Value(output.live | inner_live, frozenset(cut), output.kind)
        # Not for a class's own `self(x)`: there `self.encoder.trainable_variables` is the model's
        # variables too, so which sub-layer was asked about is not known.
        if effect.outputs is not None and model.model is not None and effect.weights_cut is None and output.live \
                and not (frame.cls is not None and model.model == frame.cls.origin):
            output = self._per_output(model.model, effect.outputs, output, span, effect.hidden)
        # Still live, and a gradient call that reaches them raises: both are true.
        if effect.weights_raises is not None:
            brk = reported(effect.weights_raises)
            output = evolve(output, cut=output.cut | {Cut(brk, g) for g in output.live})
        if args and effect.input_raises is not None:
            brk = reported(effect.input_raises)
            args[0] = evolve(args[0], cut=args[0].cut | {Cut(brk, g) for g in args[0].live})
        if args and effect.input_cut is not None:
            brk = reported(effect.input_cut)
            args[0] = Value(frozenset(), args[0].cut | frozenset(Cut(brk, g) for g in args[0].live), Kind.TENSOR)
        if effect.reads or effect.reads_cut:  # what `call` reads besides its input and weights
            output = evolve(output, live=output.live | effect.reads, cut=output.cut | effect.reads_cut)
        rest = [*args, *site.keywords.values()]
        result = self.op(join([output, *rest]), site.node, frame)
        if output.items:  # `action, value = model(x)`: each output with its own layers
            result = evolve(result, items=tuple(self.op(join([item, *rest]), site.node, frame) for item in output.items))
        return result

    def lambda_run(self, function: Value, site: Site, frame: Frame) -> Value | None:
        """What `Lambda(f)(inputs)` computes: `f`'s body run with these inputs (a list keeps each
        element's history: `x1 * tf.cast(noise <= x2, ...)` loses `x2`'s alone)."""
        func = function.func
        cls = self.class_of_function.get(id(func))
        closure = function.closure or self._closure_of(func, cls)
        ran, _ = self.run_with(func, cls, self.actuals(site, func), closure)
        if ran is None or not ran.returns:
            return None
        return self.op(join(ran.returns), site.node, frame)

    def note_added_loss(self, site: Site, frame: Frame) -> None:
        """`self.add_loss(self.reg(h))` in a class's `call`: the sub-layers it reads reach the
        model's losses, not its outputs; they are not left without a gradient (`model.losses`)."""
        cls = frame.cls
        if cls is not None and cls.origin is not None and frame.function is forward_method(cls):
            reached = self.loss_parts.setdefault(cls.origin.key, set())
            reached.update(g.origin for v in site.inputs() for g in v.live if g.origin.part_of == cls.origin.key)

    def _mark_sublayer(self, result: Value, site: Site, model: Value, frame: Frame) -> Value:
        """In the summary of a class's `call`, `self.decoder(z)` also carries the sub-layer itself
        (a part of the class's origin), so the summary tells which sub-layers reach which of its
        outputs. Only there: elsewhere a sub-layer is the model (its variables are the model's)."""
        cls, func = frame.cls, site.node.func
        if not (frame.summary and cls is not None and cls.origin is not None and model.model == cls.origin
                and isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "self"
                and frame.function is forward_method(cls)):
            return result
        effect = self.effect_of(model)
        if effect is not None and effect.weightless:
            return result  # `self.lookup(tokens)`: a `StringLookup` has no weights to reach anything
        span = self.doc.span(func)
        sublayer = Origin(OriginKind.MODEL, f"self.{func.attr}", f"{cls.origin.key}.{func.attr}", span,
                          part_of=cls.origin.key)
        grad = Grad(sublayer, span, None)
        seen = self.sublayers.setdefault(cls.origin.key, set())
        seen.add(sublayer)
        if effect is not None and effect.outputs is not None and not result.items:
            # `self.bert(x)` whose own `call` returns several outputs: each output carries the
            # sub-layers of `self.bert` that reach it, as parts of this class (`self.bert.pooler`).
            def nested(inner: Origin) -> Origin:
                name = f"self.{func.attr}.{inner.name.removeprefix('self.')}"
                return Origin(OriginKind.MODEL, name, f"{sublayer.key}.{inner.key}", inner.span, part_of=cls.origin.key)
            inner_parts = [frozenset(nested(o) for o in layers) for layers in effect.outputs]
            seen.update(*inner_parts)
            seen.update(nested(o) for o in effect.hidden)
            items = tuple(evolve(result, live=result.live | {grad} | {Grad(o, span, None) for o in parts})
                          for parts in inner_parts)
            return evolve(result, live=result.live | {grad}, items=items)
        items = tuple(evolve(i, live=i.live | {grad}) for i in result.items) if result.items else result.items
        return evolve(result, live=result.live | {grad}, items=items)


def _layer_part(model: Origin, layer: Origin) -> Origin:
    return evolve(model, key=f"{model.key}#{layer.key}", part=f"in `{layer.name}`", part_of=model.key,
                  span=layer.span)


def forward_method(cls: ClassInfo) -> ast.FunctionDef | None:
    """A Keras class's `call`, or a `tf.Module`'s `__call__`."""
    methods = {m.name: m for m in cls.node.body if isinstance(m, ast.FunctionDef)}
    return methods.get("call") or methods.get("__call__")


def _effect_of_summary(summary: Value, own: Origin | None, inside: str, param: int = 1,
                       name: str = "", sublayers: set[Origin] = frozenset()) -> LayerEffect | None:
    """A function's effect from its summary: parameter `param` is the input; `own` the origin of
    the layer's weights. A path counts as cut only when the summary has a cut and no live path."""
    def first(matches, raising: bool = False) -> Break | None:
        """The first break on the paths `matches` picks: every such path (a cut only with no live
        path left) or, `raising`, any of them through an op with no registered gradient."""
        if not raising and any(matches(g) for g in summary.live):
            return None
        cut = _first(c for c in summary.cut if matches(c.grad) and (c.brk.raises or not raising))
        return evolve(cut.brk, inside=cut.brk.inside or inside) if cut else None

    def is_input(g: Grad) -> bool:
        return g.origin.kind is OriginKind.PARAM and g.origin.index == param

    def is_own(g: Grad) -> bool:
        return own is not None and g.origin == own

    input_cut, weights_cut = first(is_input), first(is_own)
    input_raises, weights_raises = first(is_input, raising=True), first(is_own, raising=True)
    def is_part(o: Origin) -> bool:  # a sub-layer of the class (`self.decoder`), as its summary marks it
        return own is not None and o.part_of == own.key

    outputs = _layers_by_output(summary, is_part) if own else None
    # (A part cut on its way still reaches the output: the break says what is wrong with it.)
    reached = frozenset(g.origin for g in [*summary.live, *(c.grad for c in summary.cut)] if is_part(g.origin))
    hidden = frozenset(sublayers) - (frozenset().union(*outputs) if outputs else reached)
    if outputs is None and hidden:
        outputs = (reached,)  # one output (or outputs reached alike); some sub-layers reach none
    # A sub-layer whose every path to the output is cut (`tf.floor` after `self.window_prediction`)
    # while the layer's other weights still reach it: the layer cuts that part.
    live_parts = {g.origin for g in summary.live}
    part_cut = _first(c for c in summary.cut if is_part(c.grad.origin) and c.grad.origin not in live_parts) \
        if weights_cut is None else None
    def is_free(o: Origin) -> bool:  # read from outside the layer: not its input, weights or sub-layers
        return o.kind is not OriginKind.PARAM and not (own is not None and (o == own or o.part_of == own.key))

    reads = frozenset(g for g in summary.live if is_free(g.origin))
    reads_cut = frozenset(c for c in summary.cut if is_free(c.grad.origin))
    if not (input_cut or weights_cut or input_raises or weights_raises or outputs or part_cut or reads or reads_cut):
        return None
    some = dict(some_cut=evolve(part_cut.brk, inside=part_cut.brk.inside or inside),
                part=f"in `{part_cut.grad.origin.name}`") if part_cut else {}
    return LayerEffect(input_cut=input_cut, weights_cut=weights_cut, name=name, input_raises=input_raises,
                       weights_raises=weights_raises, outputs=outputs if weights_cut is None else None,
                       hidden=hidden if weights_cut is None else frozenset(), reads=reads, reads_cut=reads_cut, **some)


def _sequential_effect(layers: tuple[Value, ...]) -> LayerEffect | None:
    """Layers in order: a layer that cuts its input cuts every layer before it; the model's
    weights are all cut when every layer that may have weights is cut."""
    return _compose(tuple(_member(layer) for layer in layers if layer.kind == Kind.MODEL))


def _member(layer: Value) -> LayerEffect:
    """A layer's effect as one layer of a `Sequential`, knowing which model it is."""
    return evolve(layer.effect or NO_EFFECT, origin=layer.model)


def _compose(effects: tuple[LayerEffect, ...]) -> LayerEffect:
    common = {"input_raises": next((e.input_raises for e in effects if e.input_raises), None),
              "weights_raises": next((e.weights_raises or (e.input_raises if any(not b.weightless for b in effects[:i])
                                                           else None)
                                      for i, e in enumerate(effects) if e.weights_raises or e.input_raises), None)}
    common["stateful"] = any(e.stateful for e in effects)
    first = next((e for e in effects if e.regularized is not None), None)
    common["regularized"], common["regularized_in"] = (first.regularized, first.regularized_in) if first else (None, None)
    last = max((i for i, e in enumerate(effects) if e.input_cut is not None), default=None)
    if last is None:
        return LayerEffect(layers=effects, contains=_origins(effects), **common)
    # The models among the layers: those after the break (and the breaking one, if its own
    # weights still train) keep their gradient; those before it lose it.
    common["contains"] = _origins(e for i, e in enumerate(effects)
                                  if i > last or i == last and e.weights_cut is None)
    common["dead"] = _origins(e for i, e in enumerate(effects) if i < last or i == last and e.weights_cut)
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
    own_cut = effects[last].weights_cut is not None
    some_cut = input_cut if weights_cut is None and (trained_before or own_cut) else None
    name = f"`{effects[last].name}`" if effects[last].name else "the break"
    part = f"up to {name}" if own_cut else f"before {name}"
    return LayerEffect(input_cut=input_cut, weights_cut=weights_cut, name=effects[last].name, some_cut=some_cut,
                       part=part, layers=effects, **common)


def _layers_by_output(outputs: Value, is_layer=lambda o: o.kind is OriginKind.NEW) -> tuple[frozenset[Origin], ...] | None:
    """For `keras.Model(x, [action, critic])`: the layers each output depends on (layers made in
    the graph, not whole models it calls: those are `contains`); for a class's `call` returning
    `(decoded, z_mean, z_log_var)`, its sub-layers (`self.encoder`, `self.decoder`) each reaches."""
    if not outputs.items or len(outputs.items) < 2:
        return None
    layers = tuple(frozenset(g.origin for g in item.live if is_layer(g.origin)) for item in outputs.items)
    return layers if any(layers) and len(set(layers)) > 1 else None


def _origins(effects) -> frozenset[Origin]:
    return frozenset(e.origin for e in effects if e.origin is not None)


def _functional_effect(outputs: Value) -> LayerEffect | None:
    """`keras.Model(inputs, outputs)`: when no layer reaches the outputs any more and some did,
    calling the model gives its weights nothing; when some layers reach them only through a break
    (and by no other path), those layers get nothing."""
    live = {g.origin for g in outputs.live}
    by_output = _layers_by_output(outputs)
    # The models it is built from (`keras.Model(z, discriminator(generator(z)))`): calling it
    # runs them, with their own variables.
    contains = frozenset(o for o in live if o.kind in (OriginKind.MODEL, OriginKind.VARIABLE))
    dead = [c for c in outputs.cut if c.grad.origin not in live and not c.brk.deliberate]
    raising = _first(c for c in outputs.cut if c.brk.raises)
    if raising and not dead:
        return LayerEffect(weights_raises=raising.brk.inner or raising.brk, contains=contains, outputs=by_output)
    if not dead:
        return LayerEffect(contains=contains, outputs=by_output) if contains or by_output else None
    cut = _first(dead)
    brk = cut.brk.inner or cut.brk  # reported where the model runs, or where it breaks
    dead_origins = frozenset(c.grad.origin for c in dead if c.grad.origin.kind is OriginKind.MODEL)
    if live:
        return LayerEffect(some_cut=brk, part=f"before {brk.name}", dead=dead_origins,
                           contains=contains)
    return LayerEffect(weights_cut=brk, dead=dead_origins)


def _first(cuts) -> Cut | None:
    """The first of some cuts in the file (by position, then code): the one a message names."""
    return min(cuts, key=lambda c: (c.brk.span, c.brk.code), default=None)


def _part(model: Origin, effect: LayerEffect) -> Origin:
    """The origin of the layers of `model` a `some_cut` leaves without a gradient."""
    return evolve(model, key=f"{model.key}#{effect.part}", part=effect.part, part_of=model.key)
