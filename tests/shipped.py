"""Shipped games (games/*.yaml, tests/games/*.yaml) loaded once per test session.

load_game parses, checks and compiles a spec: 0.7-2 s for a shipped game, paid
again by every test that loads the same file. A Game is not changed by playing
it (a State holds all that play changes; playing fills only the caches named in
CACHES), so tests that only play a shipped game share one: shipped(path).

Not for a test that changes a game (game.step_budget = ..., game.snippet adds a
program) or loads one while a switch or method of Game, Compiler or
ExpressionSource is patched (tests/switches.py on_and_off): those call load_game.
shipped() refuses a load under such a patch, and checks at each use, and once
more at the session's end (tests/conftest.py), that no test changed a shared game.
"""
from __future__ import annotations

from pathlib import Path

import yaml

from interpreter.engine.codegen import ExpressionSource
from interpreter.engine.compile import Compiler
from interpreter.engine.game import Game, load_game
from tests.paths import ROOT, TESTS

FOLDERS = (ROOT / "games", TESTS / "games")
# filled by play, each from the spec alone (chance.py's card order too); meter restarts each run
CACHES = frozenset({"_tables", "starting_zones", "_chance_order", "meter", "_save_checks"})
PATCHABLE = (Game, Compiler, ExpressionSource)
AS_SHIPPED = {cls: dict(vars(cls)) for cls in PATCHABLE}     # read before any test runs
_LOADED: dict[tuple, tuple[Game, tuple]] = {}    # (path, file, variant) -> (game, its fingerprint)


def shipped_specs() -> list[Path]:
    """Every shipped spec file, games/ first, each folder sorted by name."""
    return [path for folder in FOLDERS for path in sorted(folder.glob("*.yaml"))]


def specs_and_variants() -> list[tuple[Path, str | None, range]]:
    """(spec file, variant, player counts) for every shipped spec and each of its
    variants (None: the base game), in a fixed order, for parametrize."""
    found = []
    for path in shipped_specs():
        data = yaml.safe_load(path.read_text())
        players = data.get("players") or {}
        counts = range(players.get("min", 2), players.get("max", 2) + 1)
        found += [(path, variant, counts) for variant in [None, *sorted(data.get("variants") or {})]]
    return found


def shipped(path, variant: str | None = None) -> Game:
    """load_game(path, variant=variant) for a file in games/ or tests/games/, loaded
    once and shared by every caller. Raises AssertionError for another file, under a
    patch of PATCHABLE, or when a test has changed the shared game."""
    file = Path(path).resolve()
    assert is_shipped(path), f"{path}: not a shipped game; call load_game"
    patched = [f"{cls.__name__}.{k}" for cls in PATCHABLE for k in set(vars(cls)) | set(AS_SHIPPED[cls])
               if vars(cls).get(k, AS_SHIPPED) is not AS_SHIPPED[cls].get(k, AS_SHIPPED)]
    assert not patched, f"{', '.join(sorted(patched))} patched: load {path} fresh with load_game"
    key = (str(path), str(file), variant)   # as given: a game keeps its path as it was given
    if key not in _LOADED:
        game = load_game(path, variant=variant)
        _LOADED[key] = game, fingerprint(game)
    check(key)
    return _LOADED[key][0]


def load(path, variant: str | None = None, text: str | None = None) -> Game:
    """shipped(path, variant) for a shipped game's file, else load_game(path, variant, text)."""
    return shipped(path, variant) if is_shipped(path, variant, text) else load_game(path, variant, text)


def is_shipped(path=None, variant=None, text=None) -> bool:
    """Whether load_game(path, variant, text) loads a shipped game's file as it is."""
    return text is None and path is not None and Path(path).resolve().parent in FOLDERS


def check(key=None) -> None:
    """Assert that no shared game (or the one at `key`) differs from when it was loaded."""
    for k in [key] if key else list(_LOADED):
        game, before = _LOADED[k]
        changed = sorted(dict(before).items() ^ dict(fingerprint(game)).items())
        assert not changed, (f"a test changed {', '.join(sorted({name for name, _ in changed}))} "
                             f"of the shared game {k[0]} {k[2] or ''}: load it with load_game")


def fingerprint(game) -> tuple:
    """What a game holds, but its CACHES: containers by content, other objects by
    identity (a compiled function replaced shows; one changed inside does not)."""
    return tuple((k, _shape(v)) for k, v in sorted(vars(game).items()) if k not in CACHES)


def _shape(value, depth=0):
    if depth > 8:
        return id(value)
    if isinstance(value, dict):
        return "d", tuple((_shape(k, depth + 1), _shape(v, depth + 1)) for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return type(value).__name__, tuple(_shape(v, depth + 1) for v in value)
    if isinstance(value, (set, frozenset)):
        return "s", frozenset(map(repr, value))
    if isinstance(value, (str, int, float, bool, type(None))):
        return value
    return type(value).__name__, id(value)
