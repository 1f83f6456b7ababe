"""Where a Keras class or layer declares a regularization loss (GG311): `*_regularizer=` keywords,
`add_weight(..., regularizer=...)`, `self.add_loss(...)`, read from the syntax; a penalty of zero
strength (`l2(0.0)`) is none, and one its `__init__` is only given (`regularizer=None` by default)
is the instance's only where the construction gives it."""
from __future__ import annotations

import ast
import weakref

from ..source.walk import walk
from .values import Site


def zero_strength(regularizer: ast.AST, constant_of) -> bool:
    """`regularizers.l2(0.0)`, `L1L2(l1=0, l2=WEIGHT_DECAY)` with `WEIGHT_DECAY = 0.0`: every factor
    the call is given is the number zero (`constant_of(node)`: the constant an argument holds, or
    None). Only names and literals are asked about: nothing with an effect is evaluated twice."""
    if not isinstance(regularizer, ast.Call):
        return False
    given = [*regularizer.args, *(k.value for k in regularizer.keywords)]
    simple = (ast.Name, ast.Constant, ast.UnaryOp, ast.Attribute)
    if not given or not all(isinstance(n, simple) for n in given):
        return False
    values = [constant_of(n) for n in given]
    return all(isinstance(v, (int, float)) and not isinstance(v, bool) and v == 0 for v in values)


def _literal_constants(scope: ast.AST) -> dict[str, object]:
    """The names `scope` binds exactly once, to a number written out (`weight_decay = 0.000`)."""
    bound: dict[str, list] = {}
    for node in walk(scope):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            value = node.value.value if isinstance(node.value, ast.Constant) else None
            bound.setdefault(node.targets[0].id, []).append(value)
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)) and isinstance(node.target, ast.Name):
            bound.setdefault(node.target.id, []).extend([None, None])
    return {name: values[0] for name, values in bound.items() if len(values) == 1 and values[0] is not None}


def _literal(node: ast.AST, names: dict[str, object]) -> object:
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name):
        return names.get(node.id)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        inner = _literal(node.operand, names)
        return -inner if isinstance(node.op, ast.USub) and isinstance(inner, (int, float)) else inner
    return None


def regularizer_keyword(call: ast.AST) -> ast.AST | None:
    """The regularizer a call declares: Keras's `kernel_regularizer=`, `activity_regularizer=` and
    every other `*_regularizer=` keyword, or `add_weight`'s `regularizer=` (not `=None`): the first."""
    return next(iter(_regularizer_keywords(call)), None)


def _regularizer_keywords(call: ast.AST) -> list[ast.AST]:
    if not isinstance(call, ast.Call):
        return []
    return [keyword.value for keyword in call.keywords
            if keyword.arg and (keyword.arg == "regularizer" or keyword.arg.endswith("_regularizer"))
            and not (isinstance(keyword.value, ast.Constant) and keyword.value.value is None)]


# The classes' own regularizer declarations, by class node: a class the incremental parser keeps is not
# walked again after each keystroke (every part's engine asks about every Keras class it meets).
_DECLARED: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_FIRST: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # (the first alone, when only it was asked)


def regularizer_parameter(cls: ast.ClassDef, declared: ast.AST | None) -> tuple[str, int | None] | None:
    """`add_weight(..., regularizer=self.regularizer)` with `self.regularizer = get(regularizer)`
    in `__init__`, whose `regularizer=None` by default: the parameter the declaration comes from
    (a penalty only where the instance is given one), and its position among the arguments a
    call writes (None: keyword-only). None when the declaration is written otherwise."""
    init = next((m for m in cls.body if isinstance(m, ast.FunctionDef) and m.name == "__init__"), None)
    if init is None or declared is None:
        return None
    if isinstance(declared, ast.Attribute) and isinstance(declared.value, ast.Name) and declared.value.id == "self":
        stored = [n.value for n in walk(init) if isinstance(n, ast.Assign) and len(n.targets) == 1
                  and isinstance(n.targets[0], ast.Attribute) and n.targets[0].attr == declared.attr
                  and isinstance(n.targets[0].value, ast.Name) and n.targets[0].value.id == "self"]
        if len(stored) != 1:
            return None
        declared = stored[0]
    read = {n.id for n in walk(declared) if isinstance(n, ast.Name)}
    args = init.args
    positional = [*args.posonlyargs, *args.args]
    defaults = [*zip(positional[len(positional) - len(args.defaults):], args.defaults),
                *zip(args.kwonlyargs, args.kw_defaults)]
    by_none = [p for p, d in defaults if p.arg in read and isinstance(d, ast.Constant) and d.value is None]
    if len(by_none) != 1:
        return None
    param = by_none[0]
    return param.arg, (positional.index(param) if param in positional else None)  # (`self` is position 0)


def gives(site: Site, param: tuple[str, int | None]) -> bool:
    """The construction call may give the parameter something other than None: by keyword, by
    position, or through `*args`/`**kwargs`."""
    name, position = param
    node = site.node
    if any(k.arg is None or k.arg == name and not (isinstance(k.value, ast.Constant) and k.value.value is None)
           for k in node.keywords):
        return True
    if any(isinstance(a, ast.Starred) for a in node.args):
        return True
    return position is not None and len(node.args) >= position and not (
        isinstance(node.args[position - 1], ast.Constant) and node.args[position - 1].value is None)


def declared_regularizer(cls: ast.ClassDef) -> ast.AST | None:
    """`self.add_loss(...)` or a `*_regularizer=` value written anywhere in the class: the first
    (the walk stops there: every Keras class is asked, few declare one)."""
    if cls in _DECLARED:
        found = _DECLARED[cls]
        return found[0] if found else None
    if cls not in _FIRST:
        _FIRST[cls] = (next(_declared(cls), None),)
        if _FIRST[cls][0] is None:
            _DECLARED[cls] = ()  # (the walk went through the whole class: `declarations` need not again)
    return _FIRST[cls][0]


def regularizer_conditions(cls: ast.ClassDef) -> tuple[tuple[str, int | None], ...] | None:
    """The `__init__` parameters the class's own declarations come from (each defaulting to None,
    `kernel_regularizer=self._kernel_regularizer`): an instance has a penalty only when its
    construction gives one of them. None when one declaration is unconditional (or none exists)."""
    found = declarations(cls)
    params = tuple(regularizer_parameter(cls, declared) for declared in found)
    return None if not found or None in params else params


def declarations(cls: ast.ClassDef) -> tuple[ast.AST, ...]:
    """Every regularization the class declares itself, in the order of a walk."""
    if cls not in _DECLARED:
        _DECLARED[cls] = tuple(_declared(cls))
    return _DECLARED[cls]


def _declared(cls: ast.ClassDef):
    names = None
    for node in walk(cls):
        if not isinstance(node, ast.Call):
            continue
        if isinstance(node.func, ast.Attribute) and node.func.attr == "add_loss":
            yield node
            continue
        for keyword in _regularizer_keywords(node):
            names = _literal_constants(cls) if names is None else names
            if not zero_strength(keyword, lambda n: _literal(n, names)):  # `l2(weight_decay)`, `weight_decay = 0.0`
                yield keyword
