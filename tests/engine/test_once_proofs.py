"""A quiet function's local stored at one place alone keeps the proof of that
store's value (Compiler.once_proofs; quiet_locals.py `_carry_once`): a list made
of a zone's cards stays a list of cards, so a walk of it reads its items'
attributes with no class test, and a loop that stops at a decision keeps its items
without a call of `_items`. A local stored at two places keeps no proof. The same
games, saves and errors with the switch on and off."""
import re

from interpreter.engine.compile import Compiler
from tests.generated import generated_sources
from tests.playout import every_state
from tests.switches import fault_words, on_and_off

SPEC = '''game: Once
players: {min: 2, max: 2}
globals:
  total: {start: 0}
per_player:
  coins: {start: 0}
cards:
  token:
    in: pile
    attrs: {value: 2}
    list: [{name: t1}, {name: t2, value: 3}, {name: t3, value: 1}]
zones:
  pile: {visibility: public}
procedures:
  walks:
    params: [p]
    do: |
      here = [c for c in pile if c.value > 1]
      for c in here:
          total += c.value
  asks:
    params: [p]
    do: |
      here = [c for c in pile if c.value < 3]
      for c in here:
          pick = choose one of [c.value, c.value + 1] by p
          p.coins += pick
  mixed:
    params: [n]
    do: |
      xs = [c for c in pile]
      if n > 3:
          xs = [n, n + 1]
      for x in xs:
          total += x.value
flow: |
  while total < 300:
      for p in players:
          walks(p)
          asks(p)
          mixed(CALL)
scoring:
  score: "p.coins"
'''


def games(monkeypatch, call="total % 3"):
    return on_and_off(monkeypatch, Compiler, "once_proofs", "once.yaml", text=SPEC.replace("CALL", call))


def test_games_are_the_same_with_and_without_once_proofs(monkeypatch):
    on, off = games(monkeypatch)
    for seed in range(3):
        ours = every_state(on, seed)
        assert ours == every_state(off, seed)
        assert '"proc:asks"' in ours[1]     # saved where `asks` stopped in its walk


def test_a_local_stored_twice_keeps_no_proof(monkeypatch):
    """`xs` holds cards or numbers: a number's `.value` fails in the same words at
    the same place as with the switch off (a proof of cards would read a card table)."""
    on, off = games(monkeypatch, "total + 4")
    message = fault_words(on)
    assert message == fault_words(off)
    assert "once.yaml:" in message and "value" in message, message


def test_a_local_stored_once_reads_its_items_with_no_class_test():
    sources = generated_sources(SPEC.replace("CALL", "0"), "once.yaml")
    walks, asks, mixed = (sources[f"<rulespec proc:{name}>"] for name in ("walks", "asks", "mixed"))
    for source in (walks, asks):
        c = re.search(r"for (_a\d+) in", source)[1]
        assert f"{c}.__class__" not in source and "_attr(" not in source, source
    assert "_items(" not in asks, asks       # the walk that may stop: its list, metered inline
    x = re.search(r"for (_a\d+) in", mixed)[1]
    assert f"{x}.__class__ is str" in mixed, mixed       # two stores: tested as before
