"""Which state a rule reads and which a statement writes, found from the AST.

The interpreter uses this to check an immediate end condition only after the
statements that can change what the condition reads. A state name is
("g", global), ("pv", per-player var), ("cv", per-card var) or ZONES. `None`
means "cannot tell": callers must then assume anything.
"""
from __future__ import annotations

from . import ast
from .builtins import EFFECTS

ZONES = ("zones",)
_ZONE_WRITERS = EFFECTS - {"roll", "random_of", "log"}
# Builtins that look into zones without being handed one (a zone argument is
# itself a Name or an attribute, and is counted as such).
_READS_ZONES_UNASKED = {"where"}


def reads(tree, names, functions: dict | None = None, scope=frozenset()) -> frozenset | None:
    """State names an expression may read; `functions` maps a user function to its tree."""
    functions = functions or {}
    found, seen = set(), set()

    def visit(node, scope):
        for sub in ast.walk(node):
            if isinstance(sub, ast.Name):
                kind, _ = names.resolve(sub.id, scope)
                if kind == "global":
                    found.add(("g", sub.id))
                elif kind == "zone":
                    found.add(ZONES)
                elif kind == "current_phase":
                    return False
            elif isinstance(sub, ast.Attr):
                found.update(_attr_names(sub.name, names))
            elif isinstance(sub, ast.Call):
                if sub.func in functions:
                    if sub.func not in seen:
                        seen.add(sub.func)
                        params = frozenset(names.functions.get(sub.func, ()))
                        if visit(functions[sub.func], params) is False:
                            return False
                elif sub.func in _READS_ZONES_UNASKED:
                    found.add(ZONES)
        return True

    if visit(tree, set(scope) | _bound(tree)) is False:
        return None
    return frozenset(found)


def writes(node, names, scope) -> frozenset | None:
    """State names one statement may change (not counting rules it starts)."""
    found = set()
    if isinstance(node, ast.Call):      # a procedure call pushes a frame; its statements count
        node = ast.CallStmt(node.line, node.col, node)
    target = getattr(node, "target", None)
    if target is not None:
        root = _target_name(target, names, scope)
        if root is None:
            return None
        found.update(root)
    elif not isinstance(node, (ast.CallStmt, ast.Turn, ast.Menu, ast.Signal, ast.RunPhase,
                               ast.EndGame, ast.Return, ast.Pass, ast.If, ast.For,
                               ast.While, ast.Secretly, ast.MenuOption)):
        return None     # a statement this analysis does not know: assume anything
    for sub in _shallow(node):
        if isinstance(sub, ast.Call) and sub.func in _ZONE_WRITERS:
            found.add(ZONES)
    return frozenset(found)


def _target_name(target, names, scope):
    if isinstance(target, ast.Name):
        kind, _ = names.resolve(target.id, scope)
        return {("g", target.id)} if kind == "global" else set()
    if isinstance(target, ast.Attr):
        return _attr_names(target.name, names) or None
    if isinstance(target, ast.Index):
        return _target_name(target.obj, names, scope)
    return None


def _attr_names(attr, names) -> set:
    out = set()
    if attr in names.per_player:
        out.add(("pv", attr))
    if attr in names.per_card:
        out.add(("cv", attr))
    if attr in names.player_zones:
        out.add(ZONES)
    return out


def _shallow(node):
    """The node's own expressions, not the bodies of nested blocks (they are
    statements of their own, analysed one by one)."""
    for slot in node.__slots__:
        if slot in ("body", "orelse") or (slot == "options" and isinstance(node, ast.Menu)):
            continue
        value = getattr(node, slot)
        for child in ast._children(value):
            yield from ast.walk(child)


def _bound(tree) -> set:
    return {n.var for n in ast.walk(tree) if isinstance(n, ast.Comprehension)}
