"""Rules the engine only reads hold no effect (rulespec/purity.py).

Found by trying: `when: count(draw(deck, pile)) > 0` validated, and listing P1's
options drew the deck empty, so P2 had nothing to take: a game other than the
one written, with no error. Every context the engine reads as often as it likes
(an action's when/for/label, a trigger's or end condition's when, invariants,
scores, tie-breaks, the heuristic) refuses a builtin with an effect, also one
reached through spec functions; statements keep theirs.
"""
from __future__ import annotations

import subprocess
import sys

import pytest

from rulespec import validate
from rulespec.builtins import EFFECTS
from tests.refusals import errors_of, where

SPEC = """game: G
players: {min: 2, max: 2}
cards:
  gems:
    in: deck
    list:
      - {name: ruby}
      - {name: opal}
zones:
  deck: {visibility: public}
  pile: {visibility: public}
per_player:
  wins: {start: 0}
functions:
  top_two: {params: [], expr: "draw(deck, pile, 2)"}
  taken: {params: [], expr: "count(top_two())"}
  plain: {params: [], expr: "count(deck)"}
actions:
  grab:
    for: c in deck
    when: WHEN
    do: |
      player.wins += 1
flow: |
  for p in players:
      turn p: grab
  end game "done"
scoring:
  score: p.wins
"""


def test_an_effect_in_a_when_is_refused_at_the_call():
    text = SPEC.replace("WHEN", "count(draw(deck, pile)) > 0")
    (error,) = errors_of(text)
    assert (error.line, error.col) == where(text, "draw(deck, pile)) > 0")
    assert "draw() changes the game, and action grab's `when` may only read it" in error.message
    assert "each time the options are listed" in error.message


def test_an_effect_reached_through_spec_functions_names_the_chain():
    text = SPEC.replace("WHEN", "taken() > 0")
    (error,) = errors_of(text)
    assert (error.line, error.col) == where(text, "taken() > 0")
    assert "taken() changes the game (taken → top_two → draw())" in error.message


def test_functions_without_effects_and_statements_with_them_pass():
    validate("game.yaml", text=SPEC.replace("WHEN", "plain() > 0"))
    statement = SPEC.replace("WHEN", "true").replace("player.wins += 1", "player.wins += count(top_two())")
    validate("game.yaml", text=statement)


@pytest.mark.parametrize("effect", sorted(EFFECTS))
def test_every_effect_is_refused_in_every_read_only_context(effect):
    call = {"shuffle": "shuffle(deck)", "draw": "draw(deck, pile)", "move": "move(c, pile)",
            "move_bottom": "move_bottom(c, pile)", "move_named": "move_named(deck, \"ruby\", pile)",
            "roll": "roll(6)", "random_of": "random_of(players)", "log": "log(\"x\")"}[effect]
    cases = {
        "action when": SPEC.replace("WHEN", f"{call} == 1 or true"),
        "label": SPEC.replace("    when: WHEN\n", f"    label: 'text({call})'\n"),
        "end": SPEC.replace("WHEN", "true") + f"end:\n  stop: {{when: '{call} == 2'}}\n",
        "invariant": SPEC.replace("WHEN", "true") + f"invariants:\n  fine: '{call} != 3'\n",
        "trigger": SPEC.replace("WHEN", "true").replace("  end game", "  signal ping()\n  end game")
        + f"signals: {{ping: []}}\ntriggers:\n  t: {{on: ping, when: '{call} == 4', do: 'pass'}}\n",
        "score": SPEC.replace("WHEN", "true").replace("score: p.wins", f"score: p.wins + count([{call}])"),
        "heuristic": SPEC.replace("WHEN", "true") + f"heuristic: 'p.wins + count([{call}])'\n",
    }
    for context, text in cases.items():
        messages = [e.message for e in errors_of(text)]
        assert any(f"{effect}() changes the game" in m for m in messages), (context, messages)


def test_the_cli_says_where_and_exits_1(tmp_path):
    spec = tmp_path / "grab.yaml"
    spec.write_text(SPEC.replace("WHEN", "count(draw(deck, pile)) > 0"))
    done = subprocess.run([sys.executable, "-m", "interpreter.cli", "validate", str(spec)],
                          capture_output=True, text=True)
    assert done.returncode == 1 and "Traceback" not in done.stderr + done.stdout
    line, col = where(spec.read_text(), "draw(deck, pile)) > 0")
    assert f"grab.yaml:{line}:{col}: error: draw() changes the game" in done.stdout + done.stderr


SCENARIO = """spec: grab.yaml
players: 2
seed: 1
scenarios:
  - name: "an expectation that draws"
    steps:
      - STEP
"""


@pytest.mark.parametrize("step, needle, says", [
    ('expect: ["count(draw(deck, pile)) == 1"]', "draw(deck, pile)) == 1",
     "draw() changes the game, and a scenario step's `expect` may only read it"),
    ('expect: ["taken() == 2"]', "taken() == 2", "taken() changes the game (taken → top_two → draw())"),
    ('play_until: "taken() > 5"', "taken() > 5", "taken() changes the game (taken → top_two → draw())"),
    ('let: {n: "1 + taken()"}', "taken()\"", "taken() changes the game (taken → top_two → draw())"),
])
def test_a_scenario_step_that_reads_may_not_change_the_game(tmp_path, step, needle, says):
    """In each expression step, directly or through the spec's functions: `rulespec
    scenario` refuses it at its place, and the language server marks it, in the same
    words (rulespec.purity.refusal)."""
    from rulespec.lsp.project import analyze
    (tmp_path / "grab.yaml").write_text(SPEC.replace("WHEN", "true"))
    scenario = tmp_path / "draws.yaml"
    scenario.write_text(SCENARIO.replace("STEP", step))
    done = subprocess.run([sys.executable, "-m", "interpreter.cli", "scenario", str(scenario)],
                          capture_output=True, text=True)
    line, col = where(scenario.read_text(), needle)
    prefix = f"draws.yaml:{line}:{col}: error: "
    (said,) = [ln for ln in (done.stdout + done.stderr).splitlines() if prefix in ln]
    said = said.split(prefix, 1)[1].rsplit(" [$.", 1)[0]     # (the step's path after it)
    (marked,) = [d for d in analyze(str(scenario), scenario.read_text()).diagnostics
                 if "changes the game" in d.message]
    assert done.returncode == 1 and (marked.line, marked.start) == (line - 1, col - 1)
    assert said == marked.message and said.startswith(says)
    assert said.endswith("Make the change in a `do:` step")


def test_an_effect_in_an_auctions_bounds_is_refused():
    # they are worked out at every bid: one auction drew a card per bid
    text = SPEC.replace("WHEN", "true").replace(
        "  end game \"done\"", "  res = auction among players opening 1 limit 5 - count(draw(deck, pile))\n"
                              "  end game \"done\"")
    (error,) = errors_of(text)
    assert (error.line, error.col) == where(text, "draw(deck, pile))\n")
    assert "an auction's opening, raise and limit may only read it" in error.message


def test_functions_calling_each_other_reach_the_effect_whichever_is_asked_first():
    text = SPEC.replace("  plain: {", '  f: {params: [n], expr: "0 if n <= 0 else g(n - 1) + count(draw(deck, pile))"}\n'
                                      '  g: {params: [n], expr: "f(n)"}\n  plain: {').replace("WHEN", "f(0) >= 0")
    text += 'end:\n  stop: {when: "g(1) > 100"}\n'
    messages = sorted(e.message for e in errors_of(text))
    assert len(messages) == 2
    assert messages[0].startswith("f() changes the game (f → draw())")
    assert messages[1].startswith("g() changes the game (g → f → draw())")


def test_a_procedure_in_a_scenario_expectation_is_refused_in_words(tmp_path):
    spec = SPEC.replace("WHEN", "true").replace("actions:", "procedures:\n  grab2: {params: [], do: \"return 1\"}\nactions:")
    (tmp_path / "grab.yaml").write_text(spec)
    scenario = tmp_path / "calls.yaml"
    scenario.write_text(SCENARIO.replace("STEP", 'expect: ["grab2() == 1"]'))
    done = subprocess.run([sys.executable, "-m", "interpreter.cli", "scenario", str(scenario)],
                          capture_output=True, text=True)
    out = done.stdout + done.stderr
    assert done.returncode == 1 and "Traceback" not in out and "KeyError" not in out
    assert "procedure 'grab2' may ask players to decide, so it can only be called as a statement" in out
