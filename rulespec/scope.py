"""Facts of the language that both the checker and the compiler need: which
names a rule binds, and which fields the built-in values carry.

This is the public API the interpreter uses from rulespec beside `validate`
and the AST; rulespec.check builds on it too.
"""
from __future__ import annotations

import re

from . import ast

RESULT_KEYS = {"winner", "price"}       # what an auction returns
CARD_FIELDS = {"id", "name", "kind"}
LAYOUT_FIELDS = {"colour", "board", "q", "r"}   # what a cell of a hex_layout holds
PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")   # a question's `{x}`: a name it shows


def for_variable(text) -> str | None:
    """`c in player.hand` binds c."""
    head = str(text).split(" in ", 1)[0].strip()
    return head if head.isidentifier() else None


def assigned_names(tree, names) -> set[str]:
    """Locals of a rule: every name it binds (globals excepted: those are state).

    tree: a parsed rule (rulespec.ast); names: the spec's symbol table
    (rulespec.check.Names; only `.globals` is read).
    """
    bound = set()
    for node in ast.walk(tree):
        target = getattr(node, "target", None)
        # `x += 1` changes a name that must exist already; it does not create one
        if isinstance(target, ast.Name) and not isinstance(node, ast.AugAssign):
            bound.add(target.id)
        if isinstance(node, (ast.For, ast.Secretly, ast.Comprehension)):
            bound.add(node.var)
    return {b for b in bound if b not in names.globals}


def card_attributes(data) -> list:
    """[(path, attribute, value)] of every attribute a spec's cards are written with
    (`cards:` sections' `attrs` and each `list` row), `name` and `count` left out;
    path: the row's path in the spec (("cards", section, "list", i))."""
    out = []
    for section, decl in (data.get("cards") or {}).items():
        if not isinstance(decl, dict):
            continue
        rows = [(("cards", section, "attrs"), decl.get("attrs") or {})]
        rows += [(("cards", section, "list", i), row) for i, row in enumerate(decl.get("list") or [])]
        out += [(path, attr, value) for path, row in rows if isinstance(row, dict)
                for attr, value in row.items() if attr not in ("name", "count")]
    return out


def declared_visibility(section: dict, name: str, default: str = "hidden") -> str:
    """The `visibility:` of declaration `name` in a spec section (a zones, player_zones,
    globals, per_player or per_card map), or `default` where it says none or is not
    declared there (callers give the section's own default: "owner" for player
    zones, "public" for variables)."""
    decl = section.get(name)
    if isinstance(decl, dict):
        return decl.get("visibility", default)
    return default
