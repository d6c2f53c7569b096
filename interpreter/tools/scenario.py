"""Scenario tests: set a game up, script its choices, check the state.

A scenario file names a spec, players and seed, then lists scenarios, each a
list of steps (see README, "Scenario tests"). Expressions and statements in
steps are the spec's own DSL, so a rule author tests a rule in its own words.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field

from rulespec.errors import RulespecError
from rulespec.loader import load_spec
from rulespec.schema import validate as validate_shape

from ..engine.flow import Frame, run
from ..engine.values import display

MAX_PLAY = 20_000
STEP_KEYS = ("do", "choose", "expect", "expect_player", "expect_options", "expect_legal",
             "expect_illegal", "play_until", "expect_ended_by")


@dataclass
class Outcome:
    file: str
    name: str
    failures: list = field(default_factory=list)    # RulespecError, one per failed step

    @property
    def passed(self) -> bool:
        return not self.failures


def run_file(path, load_game) -> list[Outcome]:
    """Every scenario of one file; a broken file gives one failed outcome, never a traceback."""
    try:
        spec = load_spec(path)
    except RulespecError as e:
        return [Outcome(str(path), "(file)", getattr(e, "errors", [e]))]
    shape = validate_shape(spec, scenario=True)
    if shape:
        return [Outcome(str(path), "(file)", shape)]
    data = spec.data
    base = os.path.dirname(os.path.abspath(path))
    target = data.get("spec")
    if not isinstance(target, str):
        return [Outcome(str(path), "(file)", [spec.error("a scenario file needs `spec: PATH`", ())])]
    games: dict = {}
    outcomes = []
    for i, scenario in enumerate(data.get("scenarios") or []):
        name = str(scenario.get("name", f"scenario {i + 1}"))
        runner = _Runner(spec, ("scenarios", i), name)
        outcomes.append(runner.run(scenario, data, os.path.join(base, target), games, load_game))
    if not outcomes:
        outcomes.append(Outcome(str(path), "(file)", [spec.error("no `scenarios:` in this file", ())]))
    return outcomes


class _Runner:
    def __init__(self, spec, path, name):
        self.spec, self.path, self.outcome = spec, path, Outcome(spec.file, name)

    def fail(self, step_path, message):
        self.outcome.failures.append(self.spec.error(message, step_path))

    def run(self, scenario, defaults, spec_path, games, load_game) -> Outcome:
        get = lambda key, default=None: scenario.get(key, defaults.get(key, default))  # noqa: E731
        variant = get("variant")
        try:
            if (spec_path, variant) not in games:
                games[(spec_path, variant)] = load_game(spec_path, variant=variant)
            self.game = games[(spec_path, variant)]
            self.state = self.game.new_state(int(get("players", 2)), int(get("seed", 0)))
        except RulespecError as e:
            self.fail(self.path, f"cannot start the game: {e.format()}")
            return self.outcome
        for k, step in enumerate(scenario.get("steps") or []):
            step_path = self.path + ("steps", k)
            try:
                if not self.step(step, step_path):
                    break
            except RulespecError as e:
                self.fail(step_path, f"step {k + 1}: {e.message}")
                break
        return self.outcome

    def step(self, step, where) -> bool:
        """Run one step; False stops the scenario (a failure that makes later steps moot)."""
        unknown = [key for key in step if key not in STEP_KEYS]
        if unknown:
            self.fail(where, f"unknown step '{unknown[0]}'; steps are: {', '.join(STEP_KEYS)}")
            return False
        ok = True
        for key, value in step.items():
            ok = getattr(self, key)(value, where + (key,)) is not False and ok
        return ok

    # steps, one method each, named as in the file ---------------------------------
    def do(self, text, where):
        st = self.state
        key = self.game.snippet(str(text), "statements")
        saved, pending = st.stack, st.pending
        st.stack, st.pending = [Frame(key, {})], None
        run(st, finish_when_done=False)
        if st.pending is not None:
            self.fail(where, "a `do:` step must not ask for a decision")
            return False
        st.stack, st.pending = saved, None
        if pending is not None:
            # the decision that waited was offered before the change: ask it again, so
            # its options reflect the new state (its instruction is still the next to run)
            run(st)
        return True

    def choose(self, labels, where):
        for label in labels if isinstance(labels, list) else [labels]:
            legal = [o.label for o in self.state.legal_actions()]
            if label not in legal:
                self.fail(where, f"'{label}' is not a legal option here; legal: {', '.join(legal[:12])}")
                return False
            self.state.apply(label)
        return True

    def expect(self, exprs, where):
        for text in exprs if isinstance(exprs, list) else [exprs]:
            value = self.game.snippet(str(text), "expression")(self.state, {})
            if value is not True:
                self.fail(where, f"expected `{text}` to hold, it is {display(value)}")

    def expect_player(self, seat, where):
        if self.state.current_player() != seat:
            self.fail(where, f"expected seat {seat} to decide, but it is {self.state.current_player()}")

    def expect_options(self, labels, where):
        legal = sorted(o.label for o in self.state.legal_actions())
        if sorted(labels) != legal:
            self.fail(where, f"expected options {sorted(labels)}, got {legal}")

    def expect_legal(self, labels, where):
        legal = {o.label for o in self.state.legal_actions()}
        for label in labels if isinstance(labels, list) else [labels]:
            if label not in legal:
                self.fail(where, f"expected '{label}' to be legal; legal: {', '.join(sorted(legal))}")

    def expect_illegal(self, labels, where):
        legal = {o.label for o in self.state.legal_actions()}
        for label in labels if isinstance(labels, list) else [labels]:
            if label in legal:
                self.fail(where, f"expected '{label}' not to be legal, but it is")

    def play_until(self, text, where):
        holds = self.game.snippet(str(text), "expression")
        st = self.state
        for _ in range(MAX_PLAY):
            if holds(st, {}):
                return True
            if st.is_terminal():
                break
            st.apply(st.legal_actions()[0])
        self.fail(where, f"`{text}` never held (the game {'ended' if st.is_terminal() else 'went on'})")
        return False

    def expect_ended_by(self, reason, where):
        if not self.state.is_terminal() or self.state.ended_by != reason:
            now = self.state.ended_by if self.state.is_terminal() else "not over"
            self.fail(where, f"expected the game to have ended by '{reason}', it is: {now}")
