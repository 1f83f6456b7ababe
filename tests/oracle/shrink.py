"""Delta debugging: the smallest program that still disagrees with TensorFlow the same way.

A candidate is the program with one statement removed (or a compound statement replaced by its
body), or one expression replaced by one of its sub-expressions (`f(a, b)` by `a`, `[a, b]` by
`a`, `a * b` by `a`). It is kept when it still parses and `still_disagrees` says yes, which for
the oracle means: TensorFlow re-runs it, gradguard re-analyses it, and the verdict is the same
kind (a false claim of the same rule, or a miss). Rounds repeat until no candidate is kept.
"""
from __future__ import annotations

import ast
from collections.abc import Callable, Iterator

MAX_CHECKS = 400


def shrink(source: str, still_disagrees: Callable[[str], bool], max_checks: int = MAX_CHECKS) -> str:
    """The smallest variant of `source` for which `still_disagrees` holds (it must hold for `source`)."""
    checks = 0
    current = _normal(source)
    changed = True
    while changed and checks < max_checks:
        changed = False
        for candidate in _candidates(current):
            if not candidate or candidate == current or checks >= max_checks:
                continue
            checks += 1
            if still_disagrees(candidate):
                current, changed = candidate, True
                break
    return current


def _normal(source: str) -> str:
    try:
        return ast.unparse(ast.parse(source)) + "\n"
    except SyntaxError:
        return source


def _candidates(source: str) -> Iterator[str]:
    """Smaller programs, the biggest cuts first: statements, then expressions."""
    tree = ast.parse(source)
    bodies = [(node, name) for node in ast.walk(tree) for name in ("body", "orelse", "finalbody")
              if isinstance(getattr(node, name, None), list)]
    for owner, name in bodies:
        statements = getattr(owner, name)
        for index in range(len(statements)):
            removed = statements[index]
            replacement = _inner_body(removed)
            for new in ([], replacement) if replacement else ([],):
                if not new and len(statements) == 1 and owner is not tree:
                    new = [ast.Pass()]
                setattr(owner, name, statements[:index] + new + statements[index + 1:])
                yield _text(tree)
                setattr(owner, name, statements)
    for parent in list(ast.walk(tree)):
        for field, value in ast.iter_fields(parent):
            if field == "targets" or isinstance(value, ast.expr) and isinstance(getattr(value, "ctx", None), ast.Store):
                continue
            if isinstance(value, ast.expr):
                for sub in _sub_expressions(value):
                    setattr(parent, field, sub)
                    yield _text(tree)
                    setattr(parent, field, value)
            elif isinstance(value, list):  # `f(a * 2, b)`: each argument in its place
                for index, item in enumerate(value):
                    if not isinstance(item, ast.expr):
                        continue
                    for sub in _sub_expressions(item):
                        value[index] = sub
                        yield _text(tree)
                        value[index] = item


def _inner_body(stmt: ast.stmt) -> list[ast.stmt] | None:
    """`with tape:` / `if c:` / `for ...:` / `def f(): ...` replaced by what it contains."""
    if isinstance(stmt, (ast.With, ast.If, ast.For, ast.While, ast.FunctionDef, ast.Try)):
        return list(stmt.body)
    return None


def _sub_expressions(node: ast.expr) -> list[ast.expr]:
    if isinstance(node, ast.Call):
        return [a for a in node.args if not isinstance(a, ast.Starred)] + [k.value for k in node.keywords]
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)) and len(node.elts) > 1:
        return [type(node)(elts=[e], ctx=node.ctx) if not isinstance(node, ast.Set) else ast.Set(elts=[e])
                for e in node.elts]
    if isinstance(node, ast.BinOp):
        return [node.left, node.right]
    if isinstance(node, ast.Subscript):
        return [node.value]
    return []


def _text(tree: ast.AST) -> str:
    try:
        return ast.unparse(tree) + "\n"
    except Exception:  # noqa: BLE001 - a candidate ast.unparse cannot write is no candidate
        return ""


def shrink_verdict(verdict, cache, max_checks: int = MAX_CHECKS) -> str:
    """The smallest program with the same disagreement as `verdict` (runner.Verdict): a false
    claim of the same rule, or a missed break; TensorFlow labels every candidate."""
    from dataclasses import replace

    from . import runner

    if verdict.false_claims:
        code = verdict.false_claims[0].code

        def same(v) -> bool:
            return any(c.code == code for c in v.false_claims)
    elif verdict.missed:
        def same(v) -> bool:
            return v.missed
    else:
        raise ValueError("gradguard and TensorFlow agree on this program: nothing to shrink")
    pool = runner.Pool(1)
    try:
        def still_disagrees(source: str) -> bool:
            program = replace(verdict.program, source=source, group_spans=_spans(source, verdict.program.groups))
            key = cache.key(source)
            if key not in cache.labels:
                cache.add(pool.map([(key, program.name, source, list(program.groups))]))
            label = runner.label_of(cache.labels[key])
            if (label.status, label.reason) != (verdict.label.status, verdict.label.reason):
                return False  # it must break (or not) as the original does: no new exception
            return same(runner.judge(program, label, runner.gradguard_claims(program)))

        return shrink(verdict.program.source, still_disagrees, max_checks)
    finally:
        pool.close()


def _spans(source: str, groups) -> tuple:
    """Where each source group stands in the first `tape.gradient` (or `minimize`) call of `source`, if it does."""
    for number, line in enumerate(source.split("\n"), start=1):
        if ".gradient(" not in line and ".minimize(" not in line:
            continue
        spans, col = [], max(line.find("var_list="), 0)
        for group in groups:
            at = line.find(group, col)
            if at < 0:
                return ()
            spans.append((number, at, at + len(group)))
            col = at + len(group)
        return tuple(spans)
    return ()
