"""Scenario tests: set a game up, fix its chance, script its choices, check the state.

A scenario file (format 2, rulespec/scenario.schema.json; docs/authoring.md)
names a spec, players and seed, then lists scenarios, each a list of steps.
Expressions and statements in steps are the spec's own rules language, so a
rule author tests a rule in its own words. The file's shape is checked by the
schema first, so a misspelt key fails at its line instead of being ignored.

Every step is followed by the spec's invariants (unless `invariants: false`
or a position is being staged); chance outcomes are fixed by value with
`rig:` (interpreter/engine/rig.py), never by hunting a seed.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field

from rulespec.dsl import parse_expression
from rulespec.errors import RulespecError
from rulespec.loader import load_spec
from rulespec.purity import step_key
from rulespec.scenario import DEFAULT_PLAYERS, rule_errors, setup_errors
from rulespec.schema import validate as validate_shape

from ..engine.explain import every_value, why_refused
from ..engine.flow import Frame, run
from ..engine.rig import Rig
from ..engine.values import display

MAX_PLAY = 20_000


@dataclass
class Outcome:
    file: str
    name: str
    failures: list = field(default_factory=list)    # RulespecError, one per failed step

    @property
    def passed(self) -> bool:
        return not self.failures


@dataclass
class ScenarioFile:
    """A scenario file read and checked, ready to run when `errors` is empty."""
    path: str
    errors: list = field(default_factory=list)     # RulespecError, each at its place
    spec: object = None         # rulespec.loader.Spec of the scenario file
    spec_path: str = ""         # the spec it names, as a path from here
    games: dict = field(default_factory=dict)      # (spec path, variant) -> Game, loaded once


def read_file(path, load_game) -> ScenarioFile:
    """The file loaded and checked before any step runs: its shape, the spec it
    names, and its rules and set-up against that spec, in the language server's
    words (rulespec.scenario), so a misspelt name fails at its place with a
    suggestion instead of at run time."""
    found = ScenarioFile(str(path))
    try:
        found.spec = load_spec(path)
    except RulespecError as e:
        found.errors = getattr(e, "errors", [e])
        return found
    found.errors = validate_shape(found.spec, scenario=True)
    if found.errors:
        return found
    # the spec's path as the user would write it from here: errors print it so
    found.spec_path = os.path.normpath(os.path.join(os.path.dirname(str(path)), found.spec.data["spec"]))
    try:
        game = found.games[(found.spec_path, None)] = load_game(found.spec_path)
    except RulespecError as e:
        found.errors = [found.spec.error(f"cannot start the game: {e.format()}", ("spec",))]
        return found
    _, errors = rule_errors(found.spec, game.names, game.function_trees)
    errors += setup_errors(found.spec, game.spec) + _rig_card_errors(found.spec, game)
    found.errors = sorted(errors,
                          key=lambda e: (e.line or 0, e.col or 0))
    return found


def _rig_entries(data):
    """(path, entry) of every `rig:` outcome in a scenario file: the file's, each
    scenario's and each `rig` step's."""
    found = [(("rig", j), e) for j, e in enumerate(data.get("rig") or [])]
    for i, scenario in enumerate(data.get("scenarios") or []):
        found += [(("scenarios", i, "rig", j), e) for j, e in enumerate(scenario.get("rig") or [])]
        for k, step in enumerate(scenario.get("steps") or []):
            if isinstance(step, dict) and isinstance(step.get("rig"), list):
                found += [(("scenarios", i, "steps", k, "rig", j), e) for j, e in enumerate(step["rig"])]
    return [(path, e) for path, e in found if isinstance(e, dict) and len(e) == 1]


def _rig_card_errors(spec, game) -> list:
    """A rigged shuffle or draw naming no card of the game, at its entry: it could
    never be used, and a file-level one would pass unnoticed in a scenario that never
    reaches it."""
    ids = set(game.cards)
    known = ids | {card.partition("#")[0] for card in ids}
    errors = []
    for path, entry in _rig_entries(spec.data):
        kind, value = next(iter(entry.items()))
        if kind not in ("shuffle", "draw"):
            continue
        names = value if kind == "shuffle" and isinstance(value, list) else [value]
        for m, name in enumerate(names):
            if str(name) not in known:
                at = path + (kind, m) if kind == "shuffle" else path + (kind,)
                errors.append(spec.error(f"rigged {kind}: no card {display(name)} in this game "
                                         f"(a card is named by its id, corn#2, or its name, corn)", at))
    return errors


def run_file(path, load_game) -> list[Outcome]:
    """Every scenario of one file; a broken file gives one failed outcome, never a traceback."""
    found = read_file(path, load_game)
    if found.errors:
        return [Outcome(str(path), "(file)", found.errors)]
    return run_scenarios(found, load_game)


def run_scenarios(found: ScenarioFile, load_game) -> list[Outcome]:
    """Every scenario of a file read_file found no error in."""
    data = found.spec.data
    outcomes = []
    unused = None   # indices of the file's rig no scenario taking it has used yet
    for i, scenario in enumerate(data["scenarios"]):
        name = str(scenario.get("name", f"scenario {i + 1}"))
        runner = _Runner(found.spec, ("scenarios", i), name)
        outcomes.append(runner.run(scenario, data, found.spec_path, found.games, load_game))
        if runner.file_rig_left is not None:
            left = runner.file_rig_left if outcomes[-1].passed else set()
            unused = left if unused is None else unused & left
    if unused:
        outcomes.append(_file_rig_unused(found.spec, sorted(unused)))
    return outcomes


def _file_rig_unused(spec, unused) -> Outcome:
    """The file's rig outcomes no scenario used: each scenario may stop short of one
    (it is a default), but one none of them reaches is a mistake, as a scenario's own
    unused outcome is (a `pick` of a label no random_of offers, a roll never made)."""
    entries = spec.data["rig"]
    errors = []
    for j in unused:
        kind, value = next(iter(entries[j].items()))
        errors.append(spec.error(f"rigged chance outcome never used by any scenario: "
                                 f"{kind} {display(value)}", ("rig", j)))
    return Outcome(spec.file, "(file rig)", errors)


def rig_outcomes(entries) -> Rig:
    """A scenario's `rig:` list ([{roll: 3}, {shuffle: [a, b]}, ...]) as a Rig."""
    return Rig([next(iter(entry.items())) for entry in entries or []])


class _InStep(RulespecError):
    """An error in a step's rule text, already placed in the scenario file."""


class _Runner:
    def __init__(self, spec, path, name):
        self.spec, self.path, self.outcome = spec, path, Outcome(spec.file, name)
        self.lets: dict = {}
        # indices of the file's rig this scenario took as its own and left unused
        # (None: it has its own rig, or did not start)
        self.file_rig_left: set | None = None

    def fail(self, step_path, message):
        self.outcome.failures.append(self.spec.error(message, step_path))

    def run(self, scenario, defaults, spec_path, games, load_game) -> Outcome:
        def get(key, default=None):
            return scenario.get(key, defaults.get(key, default))
        variant = get("variant")
        self.check_invariants = scenario.get("invariants", True)
        try:
            if (spec_path, variant) not in games:
                games[(spec_path, variant)] = load_game(spec_path, variant=variant)
            self.game = games[(spec_path, variant)]
            rig = rig_outcomes(get("rig"))
            # the file's rig is a default for scenarios that may never reach it
            self.optional = list(rig.queue) if "rig" not in scenario else []
            players = int(get("players", DEFAULT_PLAYERS))
            self.state = self.game.new_state(players, int(get("seed", 0)), rig=rig)
        except RulespecError as e:
            self.fail(self.path, f"cannot start the game: {e.format()}")
            return self.outcome
        steps = scenario["steps"]
        for k, step in enumerate(steps):
            if not self.guarded(step, self.path + ("steps", k), k):
                return self.outcome
        queue = self.state.rig.queue if self.state.rig else []
        unused = [o for o in queue if not any(o is d for d in self.optional)]
        if self.optional:
            self.file_rig_left = {j for j, o in enumerate(self.optional) if any(o is q for q in queue)}
        if unused:
            left = ", ".join(f"{kind} {display(value)}" for kind, value in unused)
            self.fail(self.path + ("steps", max(len(steps) - 1, 0)),
                      f"rigged chance outcomes never used: {left}")
        return self.outcome

    def guarded(self, step, where, k) -> bool:
        """Run one step and the invariants after it; False stops the scenario."""
        try:
            if not self.step(step, where):
                return False
        except RulespecError as e:
            failure = self.spec.error(f"step {k + 1}: {_in_spec(e)}{e.message}", where)
            if isinstance(e, _InStep):    # a rule's own error, at its place in the step
                failure.line, failure.col = e.line, e.col
            self.outcome.failures.append(failure)
            return False
        if self.check_invariants and not self.state.staged:
            broken = self.state.check_invariants()
            if broken:
                self.fail(where, f"after step {k + 1}, invariant {', '.join(map(repr, broken))} "
                                 f"does not hold")
                return False
        return True

    def step(self, step, where) -> bool:
        ok = True
        for key, value in step.items():   # the schema allows only the step methods below
            ok = getattr(self, key)(value, where + (key,)) is not False and ok
        return ok

    def expression(self, text, where):
        return self.snippet(text, "expression", where)

    def snippet(self, text, kind, where, scenario=False):
        """game.snippet, with an error in the text (a syntax error, an unknown name)
        placed at its line and column in this file, not in the step's text."""
        try:
            return self.game.snippet(str(text), kind, self.lets, scenario=scenario,
                                     step=step_key(where) or "expect")
        except RulespecError as e:
            if e.line is None:
                raise
            moved = e.moved(lambda line, col: self.spec.text_position(where, line, col))
            raise _InStep(moved.message, self.spec.file, moved.line, moved.col) from None

    # steps, one method each, named as in the file ---------------------------------
    def do(self, text, where):
        """Run statements now; the waiting decision is asked again, of whoever decides now."""
        st = self.state
        if st.over:
            self.fail(where, f"the game is over (ended by {st.ended_by!r}): "
                             f"a `do:` now would test a state no rule can reach")
            return False
        key = self.snippet(text, "statements", where, scenario=True)
        saved, pending = st.stack, st.pending
        st.stack, st.pending = [Frame(key, dict(self.lets))], None
        run(st, finish_when_done=False)
        if st.pending is not None:
            self.fail(where, "a `do:` step must not ask for a decision")
            return False
        if st.over:     # an end condition held: the game ended inside the step
            return True
        st.stack = saved
        if pending is not None:
            # the decision that waited was offered before the change: ask it again, so
            # its options and who decides reflect the new state (its instruction is
            # still the next to run)
            run(st)
        return True

    def stage(self, text, where):
        """`do:` with end conditions and invariants off until a `resume:` step."""
        self.state.staged = True
        return self.do(text, where)

    def resume(self, _value, where):
        st = self.state
        st.staged = False
        st.check_end()
        return True

    def let(self, names, where):
        for name, text in names.items():
            self.lets[name] = self.expression(text, where + (name,))(self.state, self.lets)

    def rig(self, entries, where):
        outcomes = rig_outcomes(entries)
        if self.state.rig:
            self.state.rig.queue.extend(outcomes.queue)
        else:
            self.state.rig = outcomes

    def choose(self, labels, where):
        st = self.state
        for label in labels if isinstance(labels, list) else [labels]:
            label = str(label)
            if st.over:
                self.fail(where, f"cannot choose '{label}': the game is over (ended by {st.ended_by!r})")
                return False
            legal = [o.label for o in st.legal_actions()]
            if label not in legal:
                reason = why_refused(st, label)
                because = f": {reason}" if reason else ""
                self.fail(where, f"'{label}' is not a legal option here{because}; "
                                 f"legal: {', '.join(legal)}")
                return False
            st.apply(label)
        return True

    def expect(self, exprs, where):
        many = isinstance(exprs, list)
        for i, text in enumerate(exprs if many else [exprs]):
            value = self.expression(text, where + (i,) if many else where)(self.state, self.lets)
            if value is not True:
                self.fail(where, f"expected `{text}` to hold, it is {display(value)}"
                                 + self.explained(text))

    def explained(self, text) -> str:
        """Each part of a failed expectation with its value, one per line."""
        try:
            parts = every_value(self.state, parse_expression(str(text)), self.lets)
        except RulespecError:
            return ""
        return "".join(f"\n    {'  ' * depth}{part} = {value}" for depth, part, value in parts[1:])

    def expect_player(self, seat, where):
        if self.state.current_player() != seat:
            self.fail(where, f"expected seat {seat} to decide, but it is {self.state.current_player()}")

    def expect_options(self, labels, where):
        legal = sorted(o.label for o in self.state.legal_actions())
        if sorted(map(str, labels)) != legal:
            self.fail(where, f"expected options {sorted(map(str, labels))}, got {legal}")

    def expect_legal(self, labels, where):
        legal = [o.label for o in self.state.legal_actions()]
        for label in labels if isinstance(labels, list) else [labels]:
            if str(label) not in legal:
                self.fail(where, f"expected '{label}' to be legal; legal: {', '.join(legal)}")

    def expect_illegal(self, labels, where):
        legal = {o.label for o in self.state.legal_actions()}
        for label in labels if isinstance(labels, list) else [labels]:
            if str(label) in legal:
                self.fail(where, f"expected '{label}' not to be legal, but it is")

    def play_until(self, text, where):
        holds = self.expression(text, where)
        st = self.state
        for _ in range(MAX_PLAY):
            if holds(st, self.lets):
                return True
            if st.is_terminal():
                break
            st.apply(st.legal_actions()[0])
        self.fail(where, f"`{text}` never held (the game {'ended' if st.is_terminal() else 'went on'})")
        return False

    def expect_ended_by(self, reason, where):
        if not self.state.is_terminal():
            self.fail(where, f"expected the game to have ended by '{reason}', but the game is not over")
        elif self.state.ended_by != reason:
            self.fail(where, f"expected the game to have ended by '{reason}', "
                             f"it ended by '{self.state.ended_by}'")

    def expect_winner(self, seats, where):
        st = self.state
        want = sorted(seats if isinstance(seats, list) else [seats])
        if not st.is_terminal():
            self.fail(where, f"expected seats {want} to have won, but the game is not over")
        elif st.winner() != want:
            self.fail(where, f"expected the winner {_seats(want)}, it is {_seats(st.winner())} "
                             f"(scores {st.scores()}, ranked {_order(st)})")

    def expect_scores(self, wanted, where):
        st = self.state
        if not st.is_terminal():   # scores before the end are not the final ones it promises
            self.fail(where, f"expected the final scores {wanted}, but the game is not over")
            return
        scores, order = (wanted, None) if isinstance(wanted, list) else \
            (wanted.get("scores"), wanted.get("order"))
        if scores is not None and st.scores() != scores:
            self.fail(where, f"expected scores {scores}, they are {st.scores()}")
        if order is not None and _order(st) != [o if isinstance(o, int) else sorted(o) for o in order]:
            self.fail(where, f"expected the ranking {order} (best first, by score then tie-breaks), "
                             f"it is {_order(st)} (scores {st.scores()})")


# Game.snippet compiles a step's text as the rule "a scenario step": a fault there is
# in the scenario file, and its line is in the step's text, not in the spec
_STEP_FAULT = "(in a scenario step)"


def _in_spec(error) -> str:
    """"SPEC:LINE:COL: " where `error` is a fault of one of the spec's rules (a
    procedure the step ran, the flow after a choice), so the failure names the
    rule that broke as `rulespec play` would, beside the step that ran it."""
    if isinstance(error, _InStep) or not (error.file and error.line) \
            or error.message.endswith(_STEP_FAULT):
        return ""
    return f"{error.file}:{error.line}:{error.col or 1}: "


def _order(st) -> list:
    """Seats best first by score then the spec's tie-breaks; seats still tied share a list."""
    game = st.game
    scores = st.scores()
    rank = {s: (scores[s],) + tuple(tb(st, {"p": s}) for tb in game.tiebreaks) for s in st.seats}
    out: list = []
    for seat in sorted(st.seats, key=lambda s: rank[s], reverse=True):
        if out and rank[_first(out[-1])] == rank[seat]:
            out[-1] = (out[-1] if isinstance(out[-1], list) else [out[-1]]) + [int(seat)]
        else:
            out.append(int(seat))
    return out


def _first(entry):
    return entry[0] if isinstance(entry, list) else entry


def _seats(seats) -> str:
    return "nobody" if not seats else " and ".join(f"seat {s}" for s in seats)

