"""Questions about the whole module that are answered statement by statement.

Some findings depend on a fact of the whole module (it builds TF1 graphs somewhere; every
gradient it asks for passes `unconnected_gradients=ZERO`; it reads `.losses` somewhere), asked
through `Document.ask` so that an editor's part cache knows to ask again after an edit. Walking
the whole module for each of them on every keystroke would cost the file, not the edit; but
each is a combination of one fact per top-level statement. A `ModuleQuestion` says so: an
editor's part cache (report/parts.py) keeps every statement's fact and recomputes only those of
the statements an edit made, and the command line, which analyses a file once, walks it once.
"""
from __future__ import annotations

import ast
from collections.abc import Callable


class ModuleQuestion:
    """`question(doc)`: `combine([of_nodes(nodes, imports) for each statement], imports)`, where
    `nodes` are one top-level statement's nodes (or the whole module's, as one "statement"). So
    `combine` must not care how the module is cut, nor in which order the facts come, and a
    `neutral` fact (a statement with nothing to say) must change nothing: an editor leaves those
    out. `uses_imports`: the fact of a statement depends on the module's imports too (what
    `tf.Session` stands for)."""

    def __init__(self, name: str, of_nodes: Callable[[list[ast.AST], object], object],
                 combine: Callable[[list, object], object], neutral: object = False,
                 uses_imports: bool = False) -> None:
        self.name = name
        self.of_nodes = of_nodes
        self.combine = combine
        self.neutral = neutral
        self.uses_imports = uses_imports

    def __call__(self, doc) -> object:
        facts = doc.statement_facts(self, doc) if doc.statement_facts is not None \
            else [self.of_nodes(doc.nodes, doc.imports)]
        return self.combine(facts, doc.imports)

    def __repr__(self) -> str:
        return f"ModuleQuestion({self.name})"
