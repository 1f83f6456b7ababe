"""The module's top-level statements, split into parts that can be analysed apart.

The engine interprets a whole module; an editor changes one function at a time. Two top-level
statements can influence each other's analysis only through what the engine looks up by name: a
module-level name one binds and the other reads or binds again, a class or function the other
calls, a method name the other reads as an attribute (the engine matches `receiver.method` to the
classes of the file by name). Statements with no such link, directly or through others, are
independent parts: analysing each part alone (with the module's imports) gives the findings of
the whole module, and an edit inside one part leaves the others' findings as they were.

Every link is over-approximated, so a part is never too small:
- a name bound through `global` (when the function runs, whenever that is) links every
  statement mentioning it;
- a name whose earlier value top-level code may see (read before the statement binds it, bound
  on some branches only) links to the nearest earlier statement binding it; a statement that
  binds a name before reading it is not linked to the binding before: what it creates is its
  own (the engine names it after its target and its statement, `module:model @12`);
- a name read inside a function links to its last top-level binding (the engine analyses the
  function at the end) and to the binding before each statement that can reach the function
  through these links (only such a statement can run it: running it takes its value);
- a class defined anywhere (even inside a function) is found by its name where nothing binds
  the name yet, and a class's bases by their names: such a read, and a read inside a function,
  links to every statement defining a class of that name;
- an attribute read (`model.predict`, but not `super().__init__`) links to every class defining
  a method of that name, for the names the engine looks up that way (`dispatched`: a method it
  finds among the file's classes by its name alone); any other method is found through the
  receiver's value, which a name carries;
- setting an attribute or an item of a name at the top level (`ns.model = m`), or adding to it
  (`history.append(q)`), binds that name;
- a function reading one of its own names before binding it (`w = w - lr * g`) reads the
  module's name, as the engine does (Python would raise UnboundLocalError), and so do its reads
  of names Python binds and the engine does not (`except E as e`, a `case` pattern's captures, an
  `import` inside the function);
- a statement Python's symbol table refuses (a `nonlocal` with no binding, which `ast` parses)
  links to all.

Imports (and the docstring) are not parts: they are in every part, where they are in the module.
Scopes are Python's own (`symtable`), so a local `loss` in two functions links nothing.
"""
from __future__ import annotations

import ast
import bisect
import symtable
from dataclasses import dataclass

from .walk import children, walk


@dataclass(unsafe_hash=True)
class Names:
    """What one top-level statement binds and reads, as far as linking is concerned."""

    now_reads: frozenset[str]      # names read (or bound again) by the statement's own top-level code
    binds: frozenset[str]          # names it binds at the top level
    needs: frozenset[str]          # names whose value before the statement its top-level code may see
    stored: frozenset[str]         # names whose attributes it sets (`ns.model = m`)
    later_reads: frozenset[str]    # module names read or bound when a function or class body runs
    later_binds: frozenset[str]    # module names bound then (`global`)
    attributes: frozenset[str]     # attribute names read
    methods: frozenset[str]        # names of the methods of the classes it defines
    opaque: bool = False           # unreadable by symtable: linked to everything
    deferred: bool = False         # a function definition: its body runs only when something runs it
    classes: frozenset[str] = frozenset()      # the classes it defines, at any depth
    class_bases: frozenset[str] = frozenset()  # the names those classes derive from


def statement_text(stmt: ast.stmt, lines: list[str]) -> str:
    """A top-level statement's source with its decorators; `lines`: the module's, with their ends."""
    first = min([stmt.lineno, *(d.lineno for d in getattr(stmt, "decorator_list", ()))])
    return "".join(lines[first - 1: stmt.end_lineno])


def statement_binds(stmt: ast.stmt, lines: list[str], adders: frozenset[str]) -> frozenset[str]:
    """The module names top-level statement `stmt` binds, as the parts count them (`names_of`):
    the engine asks it where it resolves a name before the module runs. `lines`: the module's."""
    return names_of(stmt, statement_text(stmt, lines), adders).binds


def is_shared(stmt: ast.stmt, index: int) -> bool:
    """Imports and the module docstring: part of every part."""
    if isinstance(stmt, (ast.Import, ast.ImportFrom)):
        return True
    return index == 0 and isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) \
        and isinstance(stmt.value.value, str)


def names_of(stmt: ast.stmt, text: str, adders: frozenset[str] = frozenset(), nodes: list | None = None) -> Names:
    """`stmt`'s names; `text` is its source with its decorators (a complete top-level statement);
    `adders`: the methods the engine takes to add to their receiver (`history.append(q)`);
    `nodes`: `ast.walk(stmt)`, when the caller has them."""
    attributes, methods, classes, bases = _attributes_and_classes(stmt if nodes is None else nodes)
    try:
        top = symtable.symtable(text, "<statement>", "exec")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return Names(frozenset(), frozenset(), frozenset(), frozenset(), frozenset(), frozenset(), attributes,
                     methods, opaque=True, classes=frozenset(classes), class_bases=frozenset(bases))
    now_reads, binds, referenced = set(), set(), set()
    for symbol in top.get_symbols():
        if symbol.is_referenced():
            referenced.add(symbol.get_name())
        if symbol.is_referenced() or symbol.is_assigned():
            now_reads.add(symbol.get_name())
        if symbol.is_assigned() or symbol.is_imported() or symbol.is_namespace():
            binds.add(symbol.get_name())
    later_reads, later_binds = set(), set()
    scopes = list(top.get_children())
    while scopes:
        scope = scopes.pop()
        scopes.extend(scope.get_children())
        for symbol in scope.get_symbols():
            if symbol.is_global():
                later_reads.add(symbol.get_name())
                if symbol.is_declared_global() and symbol.is_assigned():
                    later_binds.add(symbol.get_name())
    later_reads |= _read_before_bound(stmt, nodes)
    stored, dotted = _stored_under(stmt, adders)
    binds |= stored
    if isinstance(stmt, _DEFINITIONS):  # its decorators, defaults and bases run before it binds its name
        needs = referenced
    else:
        needs = (_needed_before(stmt) & now_reads) | stored
    return Names(frozenset(now_reads), frozenset(binds), frozenset(needs), frozenset(dotted),
                 frozenset(later_reads), frozenset(later_binds), attributes, methods,
                 deferred=isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)),
                 classes=frozenset(classes), class_bases=frozenset(bases))


def _needed_before(stmt: ast.stmt) -> set[str]:
    """The names whose value from before `stmt` its own top-level code may see, as the engine
    runs it: read before the statement binds them (`loss = loss + 1`, a loop reading what a later
    line of it binds), bound only on some branches (`if`, `match`: the value after is the join
    with the one before), or never bound by the engine (an `except ... as e`, an `import` inside
    it). A name the statement binds before any read of it (`model = build()`, a cell's
    `with tf.GradientTape() as tape:` then `tape.gradient`) does not need the value before, so the
    statement is not linked to the binding before it: two notebook cells that each build `model`
    are two parts."""
    reads = _Reads(branches_bind=False)
    reads.statement(stmt)
    stores, unbound = reads.stores, reads.unbound
    early = {name for name, read in reads.loads.items()
             if name in unbound or name not in stores or read < stores[name]}
    return early | reads.maybe


_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
_DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def _stored_under(stmt: ast.stmt, adders: frozenset[str]) -> tuple[set[str], set[str]]:
    """Names whose attributes or items the statement's top-level code sets (`ns.model = m`,
    `buffers[0] = b`) or adds to (`history.append(q)`): the engine keeps the value under the name
    (`ns.model`), so the statement binds that name for whoever reads it later, even where nothing
    else binds it. And, apart, the names whose attributes it sets: the engine keeps those under
    their text (`ns.model`), which a new binding of `ns` does not replace."""
    found, dotted, stack = set(), set(), [stmt]
    if isinstance(stmt, (*_SCOPES, ast.ClassDef)):
        return found, dotted  # its body runs later, in a frame of its own
    while stack:
        node = stack.pop()
        if isinstance(node, (*_SCOPES, ast.ClassDef)):
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
                if isinstance(node, ast.Attribute):
                    dotted.add(root.id)
        stack.extend(children(node))
    return found, dotted


def _read_before_bound(stmt: ast.stmt, nodes: list | None = None) -> set[str]:
    """Names local to a function of `stmt` that it may read before binding them (`w = w - lr * g`,
    a loop reading what a later line of it binds): Python would raise UnboundLocalError, but the
    engine then finds the name in the module, so these reads are reads of the module's names.
    `nodes`: `ast.walk(stmt)`, when the caller has them."""
    found = set()
    for function in walk(stmt) if nodes is None else nodes:
        if isinstance(function, _SCOPES):
            found |= _early_reads(function)
    return found


def _early_reads(function: ast.AST) -> set[str]:
    params = {a.arg for a in ast.walk(function.args) if isinstance(a, ast.arg)}
    reads = _Reads()
    if isinstance(function, ast.Lambda):
        reads.expression(function.body, None)
    else:
        reads.block(function.body)
    stores, unbound = reads.stores, reads.unbound
    return {name for name, read in reads.loads.items() if name not in params and name not in reads.declared
            and (name in unbound or (name in stores and read < stores[name]))}


_LATER = 1 << 30  # after any column: a store takes effect once its line's reads are done


class _Reads:
    """Where a function first reads and first binds each name, walking its statements in order.

    A name bound by a statement is bound once the statement is done (`w = w - 1` reads `w`, then
    binds it), by a loop or a `with` once its header is; what a nested function, lambda or class
    reads counts from where it is defined (it runs later, perhaps before a binding below it); a
    comprehension's own variables are not the function's. Names Python binds and the engine does
    not (`except E as e`, a `case` pattern's captures, an `import` inside the function) are read
    from the module wherever they are read."""

    def __init__(self, branches_bind: bool = True) -> None:
        self.loads: dict[str, tuple] = {}
        self.stores: dict[str, tuple] = {}
        self.declared: set[str] = set()
        self.unbound: set[str] = set()
        # `branches_bind=False`: a binding on one branch of an `if`/`match` (or by `:=`) is only
        # a binding that may happen (`maybe`), as it is for the engine, which joins the branches
        # with the value before; Python's scoping (the default) makes it a local all the same.
        self.branches_bind = branches_bind
        self.maybe: set[str] = set()
        self._branching = 0

    def _store(self, name: str, at: tuple) -> None:
        if self._branching:
            self.maybe.add(name)
        else:
            self.stores.setdefault(name, at)

    def _branch(self, statements: list[ast.stmt]) -> None:
        self._branching += not self.branches_bind
        self.block(statements)
        self._branching -= not self.branches_bind

    def block(self, statements: list[ast.stmt]) -> None:
        for stmt in statements:
            self.statement(stmt)

    def statement(self, stmt: ast.stmt) -> None:
        done = ((stmt.end_lineno or stmt.lineno), _LATER)
        if isinstance(stmt, (ast.Global, ast.Nonlocal)):
            self.declared.update(stmt.names)
        elif isinstance(stmt, (ast.Import, ast.ImportFrom)):
            self.unbound.update((alias.asname or alias.name).split(".")[0] for alias in stmt.names)
        elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            self.expression(stmt, (stmt.lineno, stmt.col_offset))  # decorators, defaults, body: later
            self._store(stmt.name, (stmt.lineno, stmt.col_offset))
        elif isinstance(stmt, (ast.For, ast.AsyncFor)):
            self.expression(stmt.iter, None)
            self.expression(stmt.target, None, ((stmt.iter.end_lineno or stmt.iter.lineno), _LATER))
            self.block(stmt.body)
            self.block(stmt.orelse)
        elif isinstance(stmt, ast.While):  # the engine walks its body (twice), joining nothing
            self.expression(stmt.test, None, ((stmt.test.end_lineno or stmt.test.lineno), _LATER))
            self.block(stmt.body)
            self.block(stmt.orelse)
        elif isinstance(stmt, ast.If):
            self.expression(stmt.test, None, ((stmt.test.end_lineno or stmt.test.lineno), _LATER))
            self._branch(stmt.body)
            self._branch(stmt.orelse)
        elif isinstance(stmt, (ast.With, ast.AsyncWith)):
            last = stmt.items[-1].context_expr
            header = ((last.end_lineno or last.lineno), _LATER)
            for item in stmt.items:
                self.expression(item, None, header)
            self.block(stmt.body)
        elif isinstance(stmt, (ast.Try, getattr(ast, "TryStar", ast.Try))):
            self.block(stmt.body)
            for handler in stmt.handlers:
                if handler.type is not None:
                    self.expression(handler.type, None)
                if handler.name:
                    self.unbound.add(handler.name)
                self.block(handler.body)
            self.block(stmt.orelse)
            self.block(stmt.finalbody)
        elif isinstance(stmt, ast.Match):
            self.expression(stmt.subject, None)
            for case in stmt.cases:
                self.unbound.update(name for node in ast.walk(case.pattern)
                                    for name in (getattr(node, "name", None), getattr(node, "rest", None)) if name)
                self.expression(case.pattern, None)
                if case.guard is not None:
                    self.expression(case.guard, None, ((case.guard.end_lineno or case.guard.lineno), _LATER))
                self._branch(case.body)
        elif isinstance(stmt, ast.AnnAssign) and stmt.value is None:  # `x: int` binds nothing
            self.expression(stmt.annotation, None)
        else:  # a simple statement
            if isinstance(stmt, ast.AugAssign) and isinstance(stmt.target, ast.Name):  # `x += 1` reads `x`
                self.loads.setdefault(stmt.target.id, (stmt.lineno, stmt.col_offset))
            self.expression(stmt, None, done)

    def expression(self, node: ast.AST, deferred: tuple | None, bound_at: tuple | None = None) -> None:
        """The reads and binds in `node`'s subtree: reads where they are (or at `deferred`, for code
        that runs later), binds at `bound_at` (none inside a comprehension or nested code)."""
        loads, stores = self.loads, self.stores
        stack = [(node, deferred)]
        pop, push, extend = stack.pop, stack.append, stack.extend
        Name, Store, comprehension, NamedExpr = ast.Name, ast.Store, ast.comprehension, ast.NamedExpr
        # (Exact types, not isinstance: a parsed tree's nodes are of the ast classes themselves.)
        while stack:
            current, later = pop()
            kind = type(current)
            if kind is Name:
                # `del x` unbinds: what is read after it is what the engine finds without the name
                # (the module's functions and classes by name), through the binding before.
                if type(current.ctx) is not Store:
                    loads.setdefault(current.id, later or (current.lineno, current.col_offset))
                elif later is None and bound_at is not None:
                    self._store(current.id, bound_at)
                continue
            if kind is comprehension:
                push((current.iter, later))
                extend((test, later) for test in current.ifs)
                continue  # its target is the comprehension's own
            if kind in _DECLARING:
                self.declared.update(current.names)
            elif kind in _RUN_LATER and current is not node:
                later = later or (current.lineno, current.col_offset)
            elif kind is NamedExpr and later is None:
                push((current.value, None))
                if type(current.target) is Name and not self.branches_bind:
                    self.maybe.add(current.target.id)  # perhaps inside `a and (b := f())`
                elif type(current.target) is Name:
                    stores.setdefault(current.target.id, ((current.end_lineno or current.lineno), _LATER))
                continue
            for name in current._fields:  # (its children in field order, as `walk.children`, unlisted)
                value = getattr(current, name, None)
                if type(value) is list:
                    extend((item, later) for item in value if isinstance(item, _READ_NODES))
                elif isinstance(value, _READ_NODES):
                    push((value, later))


_DECLARING = frozenset({ast.Global, ast.Nonlocal})
_RUN_LATER = frozenset({*_SCOPES, ast.ClassDef})  # nested code: it reads when it runs

# What `_Reads.expression` walks: not the leaves that name nothing (`Load`, `Add`, `And`, `Eq`),
# a third of a function's nodes.
_READ_NODES = (ast.expr, ast.stmt, ast.comprehension, ast.arguments, ast.arg, ast.keyword, ast.alias,
               ast.withitem, ast.excepthandler, ast.match_case, ast.pattern, ast.type_ignore,
               *((ast.type_param,) if hasattr(ast, "type_param") else ()))  # (3.12: `def f[T: Base]()`)


def _attributes_and_classes(nodes) -> tuple[frozenset[str], frozenset[str], set[str], set[str]]:
    attributes, methods, classes, bases = set(), set(), set(), set()
    for node in walk(nodes) if isinstance(nodes, ast.AST) else nodes:
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load) and not _on_super(node):
            attributes.add(node.attr)
        elif isinstance(node, ast.ClassDef):
            classes.add(node.name)
            bases.update(base.id for base in node.bases if isinstance(base, ast.Name))
            methods.update(item.name for item in node.body if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)))
    return frozenset(attributes), frozenset(methods), classes, bases


def _on_super(node: ast.Attribute) -> bool:
    """`super().__init__`: the base class's method, found through the class's own bases."""
    value = node.value
    return isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "super"


def components(names: list[Names | None], dispatched: frozenset[str] | None = None) -> list[list[int]]:
    """The parts: groups of statement indexes (in order), `None` marking a shared statement.
    `dispatched`: the method names the engine may look up by name among the file's classes (any
    class defining one), where it has no value telling it the receiver's class; None: any name.

    The links are directed first, from a statement to those whose values it may get (what it
    reads, the classes it may call): a function read by the module's names is linked to the
    binding of each name before every statement that may run it, that is every statement from
    which it can be reached that way; the parts are then the groups linked either way."""
    kept = [i for i, own in enumerate(names) if own is not None]
    gets = _value_links(names, kept, dispatched)
    parent = list(range(len(names)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i in kept:
        for j in gets[i]:
            parent[find(i)] = find(j)
    groups: dict[int, list[int]] = {}
    for i in kept:
        groups.setdefault(find(i), []).append(i)
    return list(groups.values())


def _value_links(names: list[Names | None], kept: list[int], dispatched: frozenset[str] | None) -> list[set[int]]:
    """For each statement, the statements whose values it may get (see `components`)."""
    binders: dict[str, list[int]] = {}        # top-level bindings, in order
    late_binders: dict[str, list[int]] = {}   # bindings at an unknown time: `global`
    methods: dict[str, list[int]] = {}
    # The classes of each name, at any depth: the engine finds a class by its name where nothing
    # binds the name yet, or a nested class's name is read outside its function, and the bases
    # of a class by their names.
    classes: dict[str, list[int]] = {}
    # The last `def` of each name: where nothing binds a name yet, the engine finds it among the
    # module's functions by name (a read before the `def`, which Python would refuse).
    defs: dict[str, int] = {}
    for i in kept:
        own = names[i]
        for name in own.binds:
            binders.setdefault(name, []).append(i)
            if own.deferred:
                defs[name] = i
        for name in own.later_binds:
            late_binders.setdefault(name, []).append(i)
        for name in own.classes:
            classes.setdefault(name, []).append(i)
        for name in own.methods if dispatched is None else own.methods & dispatched:
            methods.setdefault(name, []).append(i)
    gets: list[set[int]] = [set() for _ in names]
    # A name whose attribute is set (`ns.model = m`) keeps that store through a new binding of
    # the name (the engine reads `ns.model` back by its text): its bindings stay chained.
    chained = set().union(*(names[i].stored for i in kept))
    bound, late, dispatching = binders.keys(), late_binders.keys(), methods.keys()
    for i in kept:
        own, mine = names[i], gets[i]
        for name in own.needs | (own.binds & chained):
            earlier = _binder_before(binders[name], i) if name in bound else None
            if earlier is not None:
                mine.add(earlier)  # and that one, if it needs the value before it, the one before
            else:  # nothing binds it yet: the engine's functions and classes by name
                if name in defs:
                    mine.add(defs[name])
                mine.update(classes.get(name, ()))
        for name in own.later_reads:
            if name in bound:
                mine.add(binders[name][-1])  # what the module binds last: the end, when the engine analyses it
            if name in defs:
                mine.add(defs[name])  # run before anything binds it
            mine.update(classes.get(name, ()))
        for name in own.class_bases:
            mine.update(classes.get(name, ()))
        if late:
            for name in late & (own.now_reads | own.binds | own.later_reads | own.later_binds):
                mine.update(late_binders[name])
        for name in dispatching & own.attributes:
            mine.update(methods[name])
        if own.opaque:
            mine.update(kept)
    for i in kept:
        if names[i].opaque:
            for j in kept:
                gets[j].add(i)
    _add_run_times(names, kept, binders, defs, gets)
    return gets


def _binder_before(binders, i: int) -> int | None:
    """The last of `binders` (statement indexes, in order) before statement `i`."""
    at = bisect.bisect_left(binders, i)
    return binders[at - 1] if at else None


def _add_run_times(names, kept, binders, defs, gets) -> None:
    """A function (or a class's method) reads the module's names when it runs: at the end, when
    the engine analyses it (linked in `_value_links` to each name's last binding), and whenever a
    statement of the module runs it. Only a statement that can get its value can run it (from
    which it is reached through `gets`); there it reads the binding before that statement. Those
    bindings may make it reach more (a function bound to a name it calls): repeated until no link
    is added. Only names bound more than once need it: otherwise the last binding is the one."""
    again = {name for name, where in binders.items() if len(where) > 1}
    timed = [i for i in kept if names[i].later_reads & again]
    added = bool(timed)
    while added:
        added = False
        comes_from: dict[int, list[int]] = {}
        for i in kept:
            for j in gets[i]:
                comes_from.setdefault(j, []).append(i)
        for function in timed:
            runners = set() if names[function].deferred else {function}  # a class body runs where it is
            todo = [function]
            while todo:
                for i in comes_from.get(todo.pop(), ()):
                    if i not in runners:
                        runners.add(i)
                        todo.append(i)
            mine = gets[function]
            for name in names[function].later_reads & again:
                for runner in runners:
                    earlier = _binder_before(binders[name], runner)
                    if earlier is None:
                        earlier = defs.get(name)  # the engine's `functions`, by name (classes: linked already)
                    if earlier is not None and earlier not in mine:
                        mine.add(earlier)
                        added = True
