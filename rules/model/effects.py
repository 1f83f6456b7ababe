"""What a call of this file's function does besides returning a value: what it adds to
collections it does not own (its receiver's, `self.log_probs.append(lp)`; a module's list; a list
it is given), the names it declares `global` or `nonlocal` and rebinds, and, for a function a
decorator of the file wraps, what the wrapper computes with. A summary (engine.py) records them
while it is computed; the call gives them to the caller's frame, in the caller's terms."""
from __future__ import annotations

import ast

from ..source.questions import ModuleQuestion
from .freshness import body_names
from .facts import ClassInfo, name_key
from .frame import Frame
from .library import COLLECTION_ADDERS, known_library
from .values import UNKNOWN, Grad, Kind, Value, evolve, join


def _appended_names(nodes: list[ast.AST], imports) -> frozenset[str]:
    """The attributes some of the module's nodes add to: `x.memory.append(...)`, `x.cache[k] = v`."""
    names = set()
    for node in nodes:  # (by exact type: every node of each statement an edit makes is asked)
        kind = type(node)
        if kind is ast.Call:
            func = node.func
            if type(func) is ast.Attribute and func.attr in COLLECTION_ADDERS and type(func.value) is ast.Attribute:
                names.add(func.value.attr)
            for arg in (*node.args, *(k.value for k in node.keywords)):
                # `run(x.memory.append)`: whoever is handed the method adds to `x.memory`; and an
                # attribute handed to a function of no library known here may be added to there.
                if type(arg) is ast.Attribute and arg.attr in COLLECTION_ADDERS and type(arg.value) is ast.Attribute:
                    names.add(arg.value.attr)
                elif type(arg) is ast.Attribute and (qualname := imports.qualname(func)) is not None and not known_library(qualname):
                    names.add(arg.attr)
        elif kind is ast.Subscript and type(node.ctx) is ast.Store and type(node.value) is ast.Attribute:
            names.add(node.value.attr)
    return frozenset(names)


# The attribute names anything in the module adds elements to, by name (whose object it is, a
# statement cannot tell): a method reading `self.data` cannot know what is in it then.
appended_attributes = ModuleQuestion("appended_attributes", _appended_names,
                                     lambda facts, imports: frozenset().union(*facts), neutral=frozenset())


class Effects:
    def note_mutation(self, key: str, added: Value, frame: Frame, rebound: bool = False) -> None:
        """`self.log_probs.append(lp)` or `terms.append(t)` (a module's list) in a function being
        summarised, or a name it declares `global`/`nonlocal` bound (`rebound`): its callers see
        that too (`apply_mutations`)."""
        if not frame.summary or frame.function is None:
            return
        params = [p.arg for p in self._params(frame.function)]
        if key in params and not rebound:
            key = ("param", params.index(key))  # `def collect(items, x): items.append(x)`: the caller's list
        elif not (rebound or key.startswith("self.") or key not in frame.env):
            return  # (asked before the collection is bound here: a name of this frame is its own)
        own = self.mutations.setdefault(id(frame.function), {})
        own[key] = join([own[key], added]) if key in own else added

    def attribute_read(self, cls: ClassInfo, key: str, value: Value, node: ast.AST) -> Value:
        """`self.data` read from what the class's methods assign to it: when anything in the module
        adds to an attribute of that name (`self.data.append(item)` in a method called from
        outside, `agent.memory.append(...)`), its elements at this read are not known. They may
        carry any variable the object holds, so the read depends on them all (opaquely: it proves
        no lost gradient), and its items are not the literal's."""
        attribute = key.removeprefix("self.")
        if self._appended is None:
            self._appended = self.doc.ask(appended_attributes)
        if "." in attribute or attribute not in self._appended:
            return value
        span = self.doc.span(node)
        held = frozenset(Grad(origin, span, None, opaque=True) for origin in _instance_origins(cls))
        return evolve(value, live=value.live | held, items=None, elements=None)

    def declared_outer(self, function: ast.AST | None) -> frozenset[str]:
        """The names `function` declares `global` or `nonlocal` (in its own body)."""
        if function is None or isinstance(function, ast.Lambda):
            return frozenset()
        return body_names(function).declared

    def apply_mutations(self, func: ast.AST, node: ast.Call, actuals: dict[int, Value], frame: Frame) -> None:
        """After a call of a function of this file: what it added to its receiver's collections
        (`self.act(s)` appending to `self.log_probs`) or to the module's, in the caller's terms."""
        mutated = self.mutations.get(id(func))
        if not mutated:
            return
        receiver = name_key(node.func.value) if isinstance(node.func, ast.Attribute) else None
        for key, added in mutated.items():
            if isinstance(key, tuple):
                argument = self._argument(node, func, key[1])
                key = name_key(argument) if argument is not None else None
                if key is None:
                    continue
            elif key.startswith("self."):
                if receiver is None:
                    continue
                key = receiver + key[len("self"):]  # `agent.act(s)`: `agent.log_probs`
            value = evolve(self.apply_summary(added, node, actuals, frame, func=func),
                           role=added.role if not isinstance(added.role, tuple) else None)
            old = frame.lookup(key) or (frame.cls.attrs.get(key) if frame.cls is not None else None) or UNKNOWN
            self.note_mutation(key, value, frame)
            frame.env[key] = evolve(join([old, value]), kind=old.kind, items=None, role=value.role)
            root, _, attr = key.partition(".")
            if attr and "." not in attr and root != "self":  # `variational.parameters = ...` in the function
                self.set_field(root, attr, frame.env[key], frame)

    def _argument(self, node: ast.Call, func: ast.AST, index: int) -> ast.AST | None:
        """The expression a call gives for parameter `index` of `func` (a method's receiver not counted)."""
        params = self._params(func)
        position = index - self.receiver_offset(func)
        if 0 <= position < len(node.args) and not any(isinstance(a, ast.Starred) for a in node.args[:position + 1]):
            return node.args[position]
        return next((k.value for k in node.keywords if k.arg == params[index].arg), None)

    def note_wrapper(self, node: ast.FunctionDef, frame: Frame) -> None:
        """`@with_scale def f(x)`, the decorator a function of this file that returns a function it
        defines (`def wrapped(x): return fn(x) * w`): calling `f` runs that wrapper."""
        for decorator in node.decorator_list:
            value = frame.lookup(decorator.id) if isinstance(decorator, ast.Name) else None
            if value is None or value.kind != Kind.CALLABLE or not isinstance(value.func, ast.FunctionDef):
                continue
            returned = self.summary(value.func, self.class_of_function.get(id(value.func)))
            if returned is not None and returned.kind == Kind.CALLABLE and isinstance(returned.func, ast.FunctionDef):
                self.wrappers[id(node)] = returned.func


def _instance_origins(cls: ClassInfo) -> set:
    """The models and variables an instance of `cls` holds: its own, and those set on `self`."""
    origins = {cls.origin} if cls.origin is not None and cls.has_variables else set()
    for value in cls.attrs.values():
        if value.kind in (Kind.MODEL, Kind.VARIABLE) and value.model is not None:
            origins.add(value.model)
        origins |= value.sources if value.kind in (Kind.VARIABLES, Kind.VARIABLE) else set()
    return origins
