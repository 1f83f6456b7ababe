"""One more step on a path, written from a table entry (scopes.py's `scope`, closures.py's
`closure`): the helper's definition added once to the program, the operand bound to a fresh name
first or not, the call that makes the thing the step goes through, bound to a name of its own when
the program's draw says `named` (and the entry gives the name's stem), and how that is used.

An entry: (definition, bind_operand, made, stem, used): `made` and `used` are templates, `{e}` the
operand (or the name it was bound to), `{f}` the made call or its name; `stem` None: never named."""
from __future__ import annotations


def table_step(entry: tuple, named: bool, e: str, w, path: list[str]) -> str:
    definition, bind_operand, made, stem, used = entry
    define(w, definition)
    if bind_operand:
        h = w.fresh("h")
        path.append(f"{h} = {e}")
        e = h
    made = made.format(e=e)
    if named and stem is not None:
        name = w.fresh(stem)
        path.append(f"{name} = {made}")
        made = name
    return used.format(f=made, e=e)


def define(w, text: str) -> None:
    """The helper's definition, once per program."""
    if text not in w.defs:
        w.defs.append(text)
