"""Rules that only read the game: no builtin with an effect in them.

An action's `when`, `for` and `label` are worked out each time the options are
listed, shown or explained; an `end` condition after every statement that may
change what it reads; scores, tie-breaks and the heuristic whenever an agent or
a table asks; invariants only while testing. None of these runs once at a place
the rules say, so an effect in one (a `draw`, a `move`, a die `roll`, a `log`
line) would happen as often as the engine happens to read it: listing P1's
options drew the deck empty and P2 had nothing to take. `validate` refuses such
an effect at the call, also where it sits in a spec function the rule calls
(named with the chain of calls). Statements (`do:`, the flow, phases) and the
functions they call may have effects: each of their expressions runs once.

Triggers' `when` is a read too: it is tested for every trigger on a signal; and
an auction's opening, raise and limit, read at every bid.
"""
from __future__ import annotations

from . import ast
from .builtins import EFFECTS

# rule path (its section and its last key) -> when the engine reads it, in words
_READ = {
    ("actions", "when"): "each time the options are listed or a refusal explained",
    ("actions", "for"): "each time the options are listed or a refusal explained",
    ("actions", "label"): "each time an option is shown",
    ("triggers", "when"): "for each trigger on the signal, before it runs",
    ("end", "when"): "after every statement that may change what it reads",
    ("invariants",): "only while a game is tested",
    ("scoring", "score"): "whenever a score is asked",
    ("scoring", "eligible"): "whenever a score is asked",
    ("scoring", "tiebreaks"): "whenever a score is asked",
    ("heuristic",): "whenever a search agent judges a position",
}


def _when_read(path) -> str | None:
    """When the rule at `path` is read, in words, or None: a rule that runs once."""
    section = path[0]
    if section == "scenarios":      # a scenario file's expressions (the language server checks them)
        return _SCENARIO if step_key(path) else None
    if section in ("actions", "triggers", "end"):
        return _READ.get((section, path[-1]))
    if section == "scoring":
        return _READ.get((section, path[1]))
    return _READ.get((section,))


def check_read_only(spec, rules, names, error_at, functions=None) -> list:
    """Errors (from `error_at(rule, message, line, col)`): one per call, in a rule
    that only reads the game, of a builtin with an effect (rulespec.builtins.EFFECTS)
    or of a spec function that reaches one. functions: {name: expression tree} of
    spec functions defined elsewhere (a scenario file's spec), followed as the
    rules' own are."""
    find = EffectFinder({**(functions or {}), **spec_functions(rules)})
    errors = []
    for rule in rules:
        if rule.kind == "statements" and rule.tree is not None:
            errors += _auction_effects(rule, find, error_at)
        when = _when_read(rule.path)
        if when is None or rule.tree is None:
            continue
        for node, chain in find.calls(rule.tree):
            errors.append(error_at(rule, refusal(node, chain, rule.path), node.line, node.col))
    return errors


def spec_functions(rules) -> dict:
    """{name: expression tree} of the parsed spec functions among `rules`."""
    return {r.path[1]: r.tree for r in rules if r.path[0] == "functions" and r.tree is not None}


def refusal(node, chain, path) -> str:
    """Why the effect at `node` (reached through `chain`) may not be in the read-only
    rule at `path`: the words validate, the language server and `rulespec scenario`
    all use (a scenario step's path holds its key: expect, let or play_until)."""
    where = "a `do:` step" if path[0] == "scenarios" else "a `do:`"
    return (f"{changes(node, chain)}, and {_what(path)} may only read it: the engine works it "
            f"out {_when_read(path)}, so the change would happen that often, not once. Make "
            f"the change in {where}")


def _auction_effects(rule, find, error_at) -> list:
    """An auction's opening, raise and limit are read again at every bid: no effect."""
    errors = []
    for auction in ast.walk(rule.tree):
        if not isinstance(auction, ast.Auction):
            continue
        for part in (auction.opening, auction.raise_, auction.limit):
            for node, chain in find.calls(part) if part is not None else ():
                errors.append(error_at(rule, f"{changes(node, chain)}, and an auction's opening, "
                                             f"raise and limit may only read it: the engine works "
                                             f"them out at every bid, so the change would happen "
                                             f"that often. Make the change before the auction",
                                       node.line, node.col))
    return errors


def changes(node, chain) -> str:
    """'draw() changes the game', with the chain of calls to the effect when it is
    reached through spec functions."""
    if len(chain) == 1:
        return f"{node.func}() changes the game"
    return f"{node.func}() changes the game ({' → '.join(chain)}())"


_SCENARIO = ("when the step runs, again to explain an `expect` that fails, and a `play_until`'s "
             "after every decision")


def step_key(path) -> str | None:
    """The scenario step key (expect, let, play_until) in a rule's path, or None."""
    return next((k for k in path if k in ("expect", "let", "play_until")), None)


def _what(path) -> str:
    if path[0] == "scenarios":
        return f"a scenario step's `{step_key(path)}`"
    if path[0] == "actions":
        return f"action {path[1]}'s `{path[-1]}`"
    if path[0] in ("triggers", "end"):
        return f"{path[0][:-1] if path[0] == 'triggers' else 'end condition'} {path[1]}'s `when`"
    if path[0] == "invariants":
        return f"invariant {path[1]!r}"
    if path[0] == "scoring":
        return f"scoring's `{path[1]}`"
    return "the heuristic"


class EffectFinder:
    """Which calls reach a builtin with an effect. bodies: {spec function name: its
    expression tree}. Which functions reach one is found for all at once, to a fixed
    point (a function reaches an effect through any callee that does, however the
    functions call each other)."""

    def __init__(self, bodies: dict):
        calls = {name: [n.func for n in ast.walk(tree) if isinstance(n, ast.Call)]
                 for name, tree in bodies.items()}
        self.found: dict = {}      # function -> its chain to an effect, for those that reach one
        changed = True
        while changed:
            changed = False
            for name, called in calls.items():
                if name in self.found:
                    continue
                for func in called:     # the first call, in order, that is or reaches an effect
                    if func in EFFECTS or func in self.found:
                        self.found[name] = [name] + ([func] if func in EFFECTS else self.found[func])
                        changed = True
                        break

    def calls(self, tree) -> list:
        """[(call node, chain)] for each call in `tree` that has an effect: chain is
        ["draw"] for a builtin, ["f", "g", "draw"] through spec functions f and g."""
        out = []
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                chain = [node.func] if node.func in EFFECTS else self.found.get(node.func)
                if chain is not None:
                    out.append((node, chain))
        return out
