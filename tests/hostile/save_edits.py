"""Which one-place edits of a save load, and what they do then: a review tool, not a
test (`python -m tests.hostile.save_edits [STATES_PER_GAME]`, minutes).

Saves of random mid-game states of the shipped games are edited at every place of
their JSON (each number, text, flag, list and map: a few other values each, lists
cut short, doubled or reversed, maps short of a key or with one more) and every
frame of the stack is doubled and dropped in turn. Each edit is loaded; one that
loads is played on beside the unedited save with the same choices. The report
lists, by place (list indices and card, zone and frame names made general), how
many edits were refused, loaded the same state, played on the same, played on
differently or crashed, with one example of each of the last two. An edit that
plays on differently may be a state the rules can reach (another amount of money)
or not (a number no rule makes there): read each.
"""
from __future__ import annotations

import collections
import copy
import json
import random
import sys

from rulespec.errors import CorruptFile
from tests.paths import ROOT
from tests.save_data import at, places
from tests.shipped import shipped

GAMES = [("siena", None), ("zena", None), ("zena", "advanced"), ("castles", None)]
PLAYED = 120    # decisions played on after a load
BAD = ("load-crash", "play-crash", "plays-differently")


def mid_games(name, variant, count):
    """(game, `count` states of random games of it, none over)."""
    game = shipped(ROOT / "games" / f"{name}.yaml", variant)
    pick, states = random.Random(f"{name}{variant}"), []
    while len(states) < count:
        state = game.new_state(pick.randint(game.min_players, game.max_players), pick.randrange(10 ** 6))
        for _ in range(pick.randrange(1, 150)):
            if state.is_terminal():
                break
            state.apply(pick.randrange(len(state.legal_actions())))
        if not state.is_terminal():
            states.append(state)
    return game, states


def edits(value) -> list:
    """Other values for a place holding `value`."""
    if value is True or value is False:
        return [not value, None, 0]
    if isinstance(value, int):
        return [value + 1, value - 1, 0, -1, 10 ** 30, -10 ** 30, 10 ** 1000, 2.5, None, "x", True]
    if isinstance(value, str):
        return ["", "x", None, 0]
    if isinstance(value, list):
        return [[], None, value[::-1]] + ([value[1:], value[:-1], value + value[-1:]] if value else [])
    if isinstance(value, dict):
        return [{}, None, {**value, "zz": 0}] + ([dict(list(value.items())[1:])] if value else [])
    return [0, "x"]


def general(path, data) -> str:
    """A place with list indices, cards and zones made general, frames by rule."""
    out = []
    for i, key in enumerate(path):
        if isinstance(key, int) and i == 1 and path[0] == "stack":
            out.append(f"[{data['stack'][key][0]}]")
        elif isinstance(key, int) and i == 2 and path[0] == "stack":
            out.append(("proc", "pc", "secret", "env")[key])
        elif isinstance(key, int):
            out.append("[]")
        elif (i, path[0]) in ((2, "per_card"), (1, "zones")):
            out.append("<name>")
        else:
            out.append(str(key))
    return ".".join(out)


def played(state, seed) -> list:
    pick, trail = random.Random(seed), []
    for _ in range(PLAYED):
        if state.is_terminal():
            break
        n = len(state.legal_actions())
        trail.append((state.current_player(), n))
        state.apply(pick.randrange(n))
    return trail


def outcome(game, text, edited, seed) -> tuple:
    """(what an edited save does, in words or None)."""
    try:
        state = game.state_from_json(edited)
    except CorruptFile:
        return "refused", None
    except Exception as e:   # noqa: BLE001 — what the report is for
        return "load-crash", f"{type(e).__name__}: {str(e)[:160]}"
    if state.to_json() == text:
        return "same-at-load", None
    try:
        trail = played(state, seed)
    except Exception as e:   # noqa: BLE001
        return "play-crash", f"{type(e).__name__}: {str(e)[:160]}"
    base = game.state_from_json(text)
    zones = json.loads(state.to_json())["zones"]
    same = trail == played(base, seed) and zones == json.loads(base.to_json())["zones"]
    return ("plays-same" if same else "plays-differently"), None


def edited_saves(data):
    """(place in words, the edit in words, edited data) for every edit of save data."""
    for path in places(data):
        for value in edits(at(data, path)):
            edit = copy.deepcopy(data)
            at(edit, path[:-1])[path[-1]] = value
            yield general(path, data), _cut(json.dumps(value)), edit
    for i, frame in enumerate(data["stack"]):
        for how, stack in (("doubled", data["stack"][:i + 1] + data["stack"][i:]),
                           ("dropped", data["stack"][:i] + data["stack"][i + 1:])):
            edit = {**data, "stack": copy.deepcopy(stack)}
            yield "stack (a frame doubled or dropped)", f"{frame[0]} {how}", edit


def _cut(text: str) -> str:
    return text if len(text) <= 40 else text[:40] + "..."


def report(count: int, out=sys.stdout) -> None:
    table, examples = collections.defaultdict(collections.Counter), {}
    for name, variant in GAMES:
        game, states = mid_games(name, variant, count)
        for seed, state in enumerate(states):
            text = state.to_json()
            for place, change, edit in edited_saves(json.loads(text)):
                result, why = outcome(game, text, json.dumps(edit), seed)
                table[(name, place)][result] += 1
                if result in BAD:
                    examples.setdefault((name, place, result), f"{change}{': ' + why if why else ''}")
    for (name, place), counts in sorted(table.items()):
        if any(result in BAD for result in counts):
            print(f"{name:8} {place:60} {dict(counts)}", file=out)
            for result in BAD:
                if (name, place, result) in examples:
                    print(f"{'':11}{result}: {examples[(name, place, result)]}", file=out)


if __name__ == "__main__":
    report(int(sys.argv[1]) if len(sys.argv) > 1 else 2)
