"""Secret rounds write only what the other seats cannot see.

`secretly for p in players: ...` is a round of simultaneous secret choices: the
seats decide one after another, and none may learn another's choice before
the round is over. The engine keeps no second, time-dependent visibility for
public state, so a secret round that wrote public state would show the first
seat's choice to the seats deciding after it. `validate` refuses such a round
instead, at the line that writes: the author keeps the choice in an
`owner` (or `hidden`) variable or zone and reveals it after the round, where a
reader of the spec sees the reveal as a rule line of its own.

Why refuse rather than hide: hiding public values for part of a round would
need every channel (views, traces, logs, search agents' guesses, saves) to
carry a rule of its own for "public, but not yet"; an owner-only variable says
the same thing with the visibility rule every channel already follows.

What is followed: assignments (`p.pick = ...`, `total += ...`), zone builtins
(`move`, `move_bottom`, `move_named`, `draw`, `shuffle`: the zones named in their
arguments), and what the round starts: procedures it calls, actions of turns
it runs, triggers of signals it sends. A card moved out of a public zone held
in a local variable is not seen (the zone is not named); the number of cards
in owner or hidden zones is public, so moving cards between such zones shows
how many moved.
"""
from __future__ import annotations

from . import ast
from .scope import assigned_names

_ZONE_BUILTINS = {"move", "move_bottom", "move_named", "draw", "shuffle"}


def check_secret_rounds(spec, rules, names, error_at) -> list:
    """Errors (from `error_at(rule, message, line, col)`) for public writes in secret rounds."""
    by_path = {r.path: r for r in rules}
    data = spec.data
    errors: list = []
    for rule in rules:
        if rule.kind != "statements":
            continue
        for node in ast.walk(rule.tree):
            if isinstance(node, ast.Secretly):
                where = spec.text_position(rule.path, node.line, node.col)[0]
                _Round(spec, data, names, by_path, where, error_at, errors).visit(rule, node)
    return errors


class _Round:
    """One secret round: walks what it runs, reporting each public write once."""

    def __init__(self, spec, data, names, by_path, line, error_at, errors):
        self.spec, self.data, self.names, self.by_path = spec, data, names, by_path
        self.line, self.error_at, self.errors = line, error_at, errors
        self.seen: set = set()

    def visit(self, rule, tree):
        scope = set(rule.scope) | assigned_names(rule.tree, self.names)
        for node in ast.walk(tree):
            target = getattr(node, "target", None)   # assignments, choices, auctions
            if isinstance(target, ast.Node):
                self._target(rule, target, scope)
            if isinstance(node, ast.Call):
                self._call(rule, node, scope)
            elif isinstance(node, ast.Turn):
                for name in node.actions:
                    self._follow(("actions", name, "do"))
            elif isinstance(node, ast.Signal):
                for name, trig in (self.data.get("triggers") or {}).items():
                    if trig.get("on") == node.name:
                        self._follow(("triggers", name, "do"))

    def _follow(self, path):
        rule = self.by_path.get(path)
        if rule is not None and path not in self.seen:
            self.seen.add(path)
            self.visit(rule, rule.tree)

    def _call(self, rule, call, scope):
        if call.func in self.names.procedures:
            self._follow(("procedures", call.func, "do"))
        elif call.func in _ZONE_BUILTINS:
            for arg in call.args:
                for sub in ast.walk(arg):
                    zone = self._zone(sub, scope)
                    if zone is not None and _visibility(*zone) == "public":
                        self._refuse(rule, sub, f"zone {zone[1]} is public")

    def _zone(self, node, scope):
        """(declaration section, name) of the zone a node names, or None."""
        if isinstance(node, ast.Name) and self.names.resolve(node.id, scope)[0] == "zone":
            return self.names.zones, node.id
        if isinstance(node, ast.Attr) and node.name in self.names.player_zones:
            return self.names.player_zones, node.name
        return None

    def _target(self, rule, target, scope):
        while isinstance(target, ast.Index):
            target = target.obj
        n = self.names
        if isinstance(target, ast.Name) and n.resolve(target.id, scope)[0] == "global":
            if _visibility(n.globals, target.id, "public") == "public":
                self._refuse(rule, target, f"global {target.id} is public")
        elif isinstance(target, ast.Attr):
            for section, kind in ((n.per_player, "per-player"), (n.per_card, "per-card")):
                if target.name in section and _visibility(section, target.name, "public") == "public":
                    self._refuse(rule, target, f"{kind} value {target.name} is public")

    def _refuse(self, rule, node, what):
        self.errors.append(self.error_at(
            rule, f"{what}, and the secret round at line {self.line} writes it: the seats "
            f"deciding later in the round would see it. Keep it in an owner-only (or hidden) "
            f"variable or zone and reveal it after the round", node.line, node.col))


def _visibility(section: dict, name: str, default: str = "hidden") -> str:
    decl = section.get(name)
    if isinstance(decl, dict):
        return decl.get("visibility", default)
    return default
