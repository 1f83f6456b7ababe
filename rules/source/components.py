"""The module's top-level statements, split into parts that can be analysed apart.

The engine interprets a whole module; an editor changes one function at a time. Two top-level
statements can influence each other's analysis only through what the engine looks up by name: a
module-level name one binds and the other reads or binds again, a class or function the other
calls, a method name the other reads as an attribute (the engine matches `receiver.method` to the
classes of the file by name). Statements with no such link, directly or through others, are
independent parts: analysing each part alone (with the module's imports) gives the findings of
the whole module, and an edit inside one part leaves the others' findings as they were.

Every link is over-approximated, so a part is never too small:
- a name read inside a function, lambda or class body (read when it runs, whenever that is)
  links to every statement binding that name at the top level or through `global`;
- a name read or bound by top-level code links to the nearest earlier statement binding it;
  so every top-level binding of a name is linked to the one before it: the engine compares a
  new value with the old one, and names what a statement creates after its target
  (`module:model`), a key that every binding of the name shares. Only code that runs before the
  first binding of a name (reading a builtin, or nothing yet) is not linked by it;
- a class defined anywhere (even inside a function) is found by its name, so its name links to
  every statement that mentions that name;
- an attribute read (`agent.learn`, but not `super().__init__`) links to every class defining a
  method of that name;
- setting an attribute or an item of a name at the top level (`ns.model = m`), or adding to it
  (`history.append(q)`), binds that name;
- a function reading one of its own names before binding it (`w = w - lr * g`) reads the
  module's name, as the engine does (Python would raise UnboundLocalError);
- a statement Python's symbol table refuses (a `nonlocal` with no binding, which `ast` parses)
  links to all.

Imports (and the docstring) are not parts: they are in every part, where they are in the module.
Scopes are Python's own (`symtable`), so a local `loss` in two functions links nothing.
"""
from __future__ import annotations

import ast
import symtable
from dataclasses import dataclass


@dataclass(frozen=True)
class Names:
    """What one top-level statement binds and reads, as far as linking is concerned."""

    now_reads: frozenset[str]      # names read (or bound again) by the statement's own top-level code
    binds: frozenset[str]          # names it binds at the top level
    later_reads: frozenset[str]    # module names read or bound when a function or class body runs
    later_binds: frozenset[str]    # module names bound then (`global`), and the classes it defines at any depth
    attributes: frozenset[str]     # attribute names read
    methods: frozenset[str]        # names of the methods of the classes it defines
    opaque: bool = False           # unreadable by symtable: linked to everything


def is_shared(stmt: ast.stmt, index: int) -> bool:
    """Imports and the module docstring: part of every part."""
    if isinstance(stmt, (ast.Import, ast.ImportFrom)):
        return True
    return index == 0 and isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) \
        and isinstance(stmt.value.value, str)


def names_of(stmt: ast.stmt, text: str, adders: frozenset[str] = frozenset()) -> Names:
    """`stmt`'s names; `text` is its source with its decorators (a complete top-level statement);
    `adders`: the methods the engine takes to add to their receiver (`history.append(q)`)."""
    attributes, methods, classes = _attributes_and_classes(stmt)
    try:
        top = symtable.symtable(text, "<statement>", "exec")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return Names(frozenset(), frozenset(), frozenset(), frozenset(), attributes, methods, opaque=True)
    now_reads, binds = set(), set()
    for symbol in top.get_symbols():
        if symbol.is_referenced() or symbol.is_assigned():
            now_reads.add(symbol.get_name())
        if symbol.is_assigned() or symbol.is_imported() or symbol.is_namespace():
            binds.add(symbol.get_name())
    later_reads, later_binds = set(), set(classes)
    scopes = list(top.get_children())
    while scopes:
        scope = scopes.pop()
        scopes.extend(scope.get_children())
        for symbol in scope.get_symbols():
            if symbol.is_global():
                later_reads.add(symbol.get_name())
                if symbol.is_declared_global() and symbol.is_assigned():
                    later_binds.add(symbol.get_name())
    later_reads |= _read_before_bound(stmt)
    binds |= _stored_under(stmt, adders)
    return Names(frozenset(now_reads), frozenset(binds), frozenset(later_reads), frozenset(later_binds),
                 attributes, methods)


_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)


def _stored_under(stmt: ast.stmt, adders: frozenset[str]) -> set[str]:
    """Names whose attributes or items the statement's top-level code sets (`ns.model = m`,
    `buffers[0] = b`) or adds to (`history.append(q)`): the engine keeps the value under the name
    (`ns.model`), so the statement binds that name for whoever reads it later, even where nothing
    else binds it."""
    found, stack = set(), [stmt]
    while stack:
        node = stack.pop()
        if isinstance(node, (*_SCOPES, ast.ClassDef)) and node is not stmt:
            continue  # runs later, in a frame of its own
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in adders \
                and isinstance(node.func.value, ast.Name):
            found.add(node.func.value.id)
        if isinstance(node, (ast.Attribute, ast.Subscript)) and isinstance(node.ctx, (ast.Store, ast.Del)):
            root = node.value
            while isinstance(root, (ast.Attribute, ast.Subscript)):
                root = root.value
            if isinstance(root, ast.Name):
                found.add(root.id)
        stack.extend(ast.iter_child_nodes(node))
    return found


def _read_before_bound(stmt: ast.stmt) -> set[str]:
    """Names local to a function of `stmt` that it may read before binding them (`w = w - lr * g`,
    a loop reading what a later line of it binds): Python would raise UnboundLocalError, but the
    engine then finds the name in the module, so these reads are reads of the module's names."""
    found = set()
    for function in ast.walk(stmt):
        if isinstance(function, _SCOPES):
            found |= _early_reads(function)
    return found


def _early_reads(function: ast.AST) -> set[str]:
    params = {a.arg for a in ast.walk(function.args) if isinstance(a, ast.arg)}
    loads: dict[str, tuple] = {}   # name -> where it is first read
    stores: dict[str, tuple] = {}  # name -> where it is first bound (after what its statement evaluates)
    declared: set[str] = set()
    body = function.body if isinstance(function.body, list) else [function.body]
    # (node, where a read inside a nested scope is taken to happen, when a store here takes effect)
    stack = [(node, None, None) for node in reversed(body)]
    while stack:
        node, deferred, bound_at = stack.pop()
        if isinstance(node, (ast.Global, ast.Nonlocal)):
            declared.update(node.names)
        elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):  # `x += 1` reads `x`
            loads.setdefault(node.target.id, deferred or (node.lineno, node.col_offset))
        if isinstance(node, ast.Name):
            if isinstance(node.ctx, ast.Load):
                loads.setdefault(node.id, deferred or (node.lineno, node.col_offset))
            elif deferred is None and bound_at is not None:
                stores.setdefault(node.id, bound_at)
            continue
        elif isinstance(node, _SCOPES + (ast.ClassDef,)) and deferred is None:
            if not isinstance(node, ast.Lambda):
                stores.setdefault(node.name, (node.lineno, node.col_offset))
            # Run later, perhaps before a binding below it: its reads count from where it is defined.
            inner = (node.lineno, node.col_offset)
            stack.extend((child, inner, None) for child in reversed(list(ast.iter_child_nodes(node))))
            continue
        for child, child_bound_at in reversed(list(_children(node, bound_at))):
            stack.append((child, deferred, child_bound_at))
    return {name for name, read in loads.items()
            if name in stores and name not in params and name not in declared and read < stores[name]}


_LATER = 1 << 30  # after any column: a store takes effect once its line's reads are done


def _children(node: ast.AST, bound_at):
    """`node`'s children, each with when a name it binds is bound: after the statement's value
    (`w = w - 1` reads `w`, then binds it), after a loop's iterable or a `with`'s items; never
    for a comprehension's own variables (they are not the function's)."""
    if isinstance(node, ast.comprehension):
        yield node.iter, bound_at
        yield from ((test, bound_at) for test in node.ifs)
        return
    if isinstance(node, (ast.For, ast.AsyncFor)):
        header = ((node.iter.end_lineno or node.iter.lineno), _LATER)
        yield node.iter, bound_at
        yield node.target, header
        yield from ((child, None) for child in [*node.body, *node.orelse])
        return
    if isinstance(node, (ast.With, ast.AsyncWith)):
        last = node.items[-1].context_expr if node.items else node
        header = ((last.end_lineno or last.lineno), _LATER)
        yield from ((item, header) for item in node.items)
        yield from ((child, None) for child in node.body)
        return
    if isinstance(node, ast.ExceptHandler):
        yield from ((child, (node.lineno, _LATER)) for child in ast.iter_child_nodes(node) if child not in node.body)
        yield from ((child, None) for child in node.body)
        return
    if isinstance(node, ast.stmt) and not isinstance(node, (ast.If, ast.While, ast.Try, ast.Match)):
        bound_at = ((node.end_lineno or node.lineno), _LATER)  # a simple statement: once it is done
    elif isinstance(node, ast.NamedExpr):
        bound_at = ((node.end_lineno or node.lineno), _LATER)
    for child in ast.iter_child_nodes(node):
        yield child, None if isinstance(child, ast.stmt) else bound_at


def _attributes_and_classes(stmt: ast.stmt) -> tuple[frozenset[str], frozenset[str], set[str]]:
    attributes, methods, classes = set(), set(), set()
    for node in ast.walk(stmt):
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load) and not _on_super(node):
            attributes.add(node.attr)
        elif isinstance(node, ast.ClassDef):
            classes.add(node.name)
            methods.update(item.name for item in node.body if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)))
    return frozenset(attributes), frozenset(methods), classes


def _on_super(node: ast.Attribute) -> bool:
    """`super().__init__`: the base class's method, found through the class's own bases."""
    value = node.value
    return isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "super"


def components(names: list[Names | None]) -> list[list[int]]:
    """The parts: groups of statement indexes (in order), `None` marking a shared statement."""
    parent = list(range(len(names)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    def link(i: int, j: int) -> None:
        parent[find(i)] = find(j)

    binders: dict[str, list[int]] = {}        # top-level bindings, in order
    late_binders: dict[str, list[int]] = {}   # bindings at an unknown time: `global`, nested classes
    methods: dict[str, list[int]] = {}
    opaque = []
    for i, own in enumerate(names):
        if own is None:
            continue
        if own.opaque:
            opaque.append(i)
        for name in own.binds:
            binders.setdefault(name, []).append(i)
        for name in own.later_binds:
            late_binders.setdefault(name, []).append(i)
        for name in own.methods:
            methods.setdefault(name, []).append(i)
    for i, own in enumerate(names):
        if own is None:
            continue
        for name in own.now_reads | own.binds:
            earlier = next((j for j in reversed(binders.get(name, ())) if j < i), None)
            if earlier is not None:
                link(i, earlier)  # and that one to the binding before it, and so on
        for name in own.later_reads:
            for j in binders.get(name, ()):
                link(i, j)
        for name in own.now_reads | own.binds | own.later_reads | own.later_binds:
            for j in late_binders.get(name, ()):
                link(i, j)
        for name in own.attributes:
            for j in methods.get(name, ()):
                link(i, j)
    kept = [i for i, own in enumerate(names) if own is not None]
    for i in opaque:
        for j in kept:
            link(i, j)
    groups: dict[int, list[int]] = {}
    for i in kept:
        groups.setdefault(find(i), []).append(i)
    return list(groups.values())
