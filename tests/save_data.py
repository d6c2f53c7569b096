"""Walking a save's JSON data and playing a loaded save beside its original: what the
save tests (tests/engine/test_save_*.py) and the save-edit review tool
(tests/hostile/save_edits.py) share."""
from __future__ import annotations


def places(value, path=()):
    """Every place in save data (nested dicts and lists), as the path of keys to it."""
    if path:
        yield path
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, item in items:
        yield from places(item, path + (key,))


def at(data, path):
    """The value at `path` (a tuple from places) in `data`."""
    for key in path:
        data = data[key]
    return data


def same_step(state, loaded, pick) -> None:
    """One step of `state` and of `loaded` alike: the same chance outcome at a chance
    node, else the same legal action, each drawn from random.Random `pick`."""
    if state.is_chance_node():
        outcome = pick.choice(state.chance_outcomes())[0]
        state.apply_chance(outcome)
        loaded.apply_chance(outcome)
    else:
        i = pick.randrange(len(state.legal_actions()))
        state.apply(i)
        loaded.apply(i)
