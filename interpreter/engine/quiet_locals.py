"""Which locals of a quiet function are Python locals, and where.

A quiet procedure, action or trigger (compile.py `plan_quiet`) runs as one
generated Python function f(st, env, secret, inside). Its spec locals live in
`env`, a dict: what a frame made where the function stops at a decision
carries on with, what a closure (an item store or expression codegen could not
write as Python) reads, and what the error path evaluates again
(faults.explain: the failing statement's parts, in `env`).

With `Compiler.quiet_locals` on, reads of a local come from a Python local
(`_a3`) instead of `env[...]` wherever that local surely holds env's value:

- each store the function's own lines make writes both (`_a3 = env[_k5] = v`:
  `_kept`), so env stays exact for everything above that reads it;
- a store that only env sees (a decision's answer, an auction's, an item of a
  local stored by closures: `_drops`) sends the local's reads back to env
  (`_unsync`) until the lines store into it again;
- `_synced` (local name -> Python local) is what holds at the line being
  written: an `if` forks it and joins what holds at the end of every branch
  (`_fork`, `_join`); a loop's test and body see what holds at every turn,
  less what the body may store into env alone;
- a procedure's or action's parameters come as Python arguments, its env made
  of them at entry (`_entry_lines`); a `for` variable the body never stores into
  keeps the proof of its items' kind (`_item_proof`: codegen reads it with no
  class test), and a local stored at one place alone in the function keeps what
  that store's value is proven (`_carry_once`: a list of a zone's cards, say),
  as every read of its Python local reads that store's value.

A function that cannot stop at a decision (so makes no frame), makes no
closure and reads every local where it has a value (its text names no `env`)
has no env at all (`Compiler.env_free`): its locals are Python locals alone,
its parameters Python arguments, a procedure's value taken from the call. Where
it fails, the error path (flow._failing_quiet) makes the env it evaluates the
failing statement in from the Python locals that have a value (the function's
`env_locals`: every store into a local was a store into its Python local).

Each switch is off only where a test compares games with it and without it
(tests/engine/test_quiet_locals.py): the same saves at every decision, the same
errors in the same words at the same place.
"""
from __future__ import annotations

from rulespec import ast

# decisions whose instruction, answered, goes on to the next one: straight lines run it
DECISIONS = {"choose_one", "choose_number", "choose_several"}


class QuietLocals:
    """The Compiler's bookkeeping of a quiet function's Python locals. Needs of its
    host: `_idents` (local name -> Python local, for the function being written),
    `_synced` (None: not writing one with quiet_locals), `_env_free` (writing one
    without env), `item_stores`, `names`, `game` and `_source()`
    (codegen.ExpressionSource)."""

    def _ident(self, name) -> str:
        """The Python local of local `name` in the quiet function being written."""
        ident = self._idents.get(name)
        if ident is None:
            ident = self._idents[name] = self._source().fresh("a")
        return ident

    def _local_name(self, target, scope):
        """The local a store into `target` (or into an item of it) changes, or None."""
        while isinstance(target, ast.Index):
            target = target.obj
        return target.id if isinstance(target, ast.Name) and target.id in scope else None

    def _kept(self, target, scope, where) -> str:
        """The place a store writes: `where` (env's) and, for a local of a quiet
        function with quiet_locals, its Python local too (`_a3 = env[_k5]`), which
        then holds env's value (`_synced`); in one without env, its Python local alone."""
        if self._synced is None or not isinstance(target, ast.Name) or target.id not in scope:
            return where
        ident = self._synced[target.id] = self._ident(target.id)
        return ident if self._env_free else f"{ident} = {where}"

    def _current(self, target, where) -> str:
        """What an update reads of its target: the Python local where it holds env's value."""
        if self._synced is not None and isinstance(target, ast.Name):
            return self._synced.get(target.id, where)
        return where

    def _unsync(self, target, scope) -> None:
        """A store into `target` that only env sees: its local is read from env again."""
        name = self._local_name(target, scope)
        if self._synced is not None and name is not None:
            self._synced.pop(name, None)

    def _unsync_all(self, names) -> None:
        """Stores into locals `names` that only env sees (`_unsync` of each)."""
        for name in names if self._synced is not None else ():
            self._synced.pop(name, None)

    def _drops(self, stmts, scope) -> set:
        """The locals that statements (and those inside them) may store into env alone:
        a decision's target, an item stored by closures (_env_forms)."""
        found = set()
        for stmt in stmts:
            for node in ast.walk(stmt):
                target = getattr(node, "target", None)
                closures = isinstance(target, ast.Index) and not (
                    self.item_stores and isinstance(target.obj, ast.Name))
                if node.rule in DECISIONS or node.rule == "auction" or closures:
                    found.add(self._local_name(target, scope))
        found.discard(None)
        return found

    def _fork(self, synced=None) -> dict | None:
        """A copy of `_synced` (or of `synced`), to write a branch from or join it."""
        synced = self._synced if synced is None else synced
        return None if synced is None else dict(synced)

    def _join(self, *ends) -> None:
        """`_synced` where branches meet: what holds at the end of every one of them."""
        if self._synced is not None:
            self._synced = {n: i for n, i in ends[0].items() if all(n in end for end in ends[1:])}

    def _item_proof(self, stmt, scope) -> str | None:
        """What a quiet function's `for` variable surely is in its body, read as a
        Python local there (codegen `proof`: its reads need no test): what each item
        of its walk is proven (a zone's cards, the cards of a comprehension over a
        zone), where the body stores nothing into the variable."""
        if self._synced is None or self._stores_into(stmt.body, stmt.var):
            return None
        source = self._source()
        return source.items_proof(source.lowered(stmt.iter, scope)[1])

    def _carry_once(self, target, scope, value) -> None:
        """After a store of generated `value` into local `target` (a name) that the
        Python local holds: where the function stores into that local at this place
        alone (`_once`), the Python local is proven what `value` is (codegen `_carry`).
        Its Python local is read only where a store made it hold env's value
        (`_synced`), and this is the only store, so every read reads such a value."""
        if not (self._synced is not None and isinstance(target, ast.Name)
                and target.id in self._once and target.id in self._synced):
            return
        ident = self._synced[target.id]
        source = self._source()
        source.forget(ident)        # a body written again (_proven_body) proves anew
        source._carry(value, ident)

    @staticmethod
    def _store_sites(stmts, names) -> dict:
        """{local name: how many places in statements (and those inside them) store
        into it}, for `names`: a store, an update, an item store, a decision's target,
        a `for` or a comprehension's variable."""
        counts = {}
        for stmt in stmts:
            for node in ast.walk(stmt):
                target = getattr(node, "target", None)
                while isinstance(target, ast.Index):
                    target = target.obj
                for name in (target.id if isinstance(target, ast.Name) else None, getattr(node, "var", None)):
                    if name in names:
                        counts[name] = counts.get(name, 0) + 1
        return counts

    @staticmethod
    def _stores_into(stmts, name) -> bool:
        """Whether statements (or those inside them) may store into local `name`."""
        for stmt in stmts:
            for node in ast.walk(stmt):
                target = getattr(node, "target", None)
                while isinstance(target, ast.Index):
                    target = target.obj
                if isinstance(target, ast.Name) and target.id == name or getattr(node, "var", None) == name:
                    return True
        return False

    def _params(self, key) -> list:
        """The parameters quiet function `key` takes as Python arguments, in order: a
        procedure's ("proc:NAME"), an action's player and variable; none for a
        trigger's, whose values come in its env."""
        kind, name = key.split(":", 1)
        if kind == "proc":
            return list(self.names.procedures[name])
        if kind == "action":
            var = self.game.actions[name].var if name in getattr(self.game, "actions", {}) else None
            return ["player"] + ([var] if var else [])
        return []

    def _entry_lines(self, key, body, scope) -> tuple:
        """(the Python parameters of quiet function `key`, one local each (_params);
        the lines at its start that make its env of them, in their order, as a
        caller's frame would; the parameters `_proven_body` may prove: those the body
        reads twice or more, a read in a loop counting twice). With quiet_locals
        every parameter is read from its Python local (`_synced`)."""
        params = self._params(key)
        idents = [self._ident(param) for param in params]
        if key.startswith("trigger:"):
            return ["env"], [], ({} if self._synced is not None else None)
        # literal keys: one BUILD_CONST_KEY_MAP, not a global read per key
        lines = [] if self._env_free else [
            f"env = {{{', '.join(f'{param!r}: {i}' for param, i in zip(params, idents))}}}"]
        if self._synced is None:
            return idents, lines, None
        self._synced.update(zip(params, idents))
        reads = reads_of(body, set(params) & scope, 1)
        return idents, lines, {p: i for p, i in zip(params, idents) if reads.get(p, 0) >= 2}


def reads_of(stmts, names, weight, counts=None) -> dict:
    """{name: how often statements read it}, for `names`; a read inside a loop counts
    `weight` twice (nested loops more), as it is run more than once."""
    counts = {} if counts is None else counts
    for stmt in stmts:
        inner = weight * 2 if stmt.rule in ("for_stmt", "while_stmt", "secretly") else weight
        for field in stmt.__slots__:
            value = getattr(stmt, field)
            if field in ("body", "orelse", "options") and isinstance(value, list):
                for part in value:
                    reads_of(part.body if part.rule == "menu_option" else [part], names, inner, counts)
                continue
            parts = value if isinstance(value, list) else list(value.values()) if isinstance(value, dict) else [value]
            for part in parts:
                for node in ast.walk(part) if isinstance(part, ast.Node) else ():
                    if isinstance(node, ast.Name) and node.id in names:
                        counts[node.id] = counts.get(node.id, 0) + inner
    return counts
