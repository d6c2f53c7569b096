"""What is wrong with a scenario file before any step runs, by the spec it names.

`rulespec scenario` refuses a file with these errors before it plays a move, and
the language server shows the same ones as you type: both call the functions
here, so the two never disagree about a scenario file (tests/tools/
test_scenario_checks.py). The file's shape is the scenario schema's business
(rulespec.schema, scenario=True); the spec itself is checked by validate.
"""
from __future__ import annotations

from . import check, loader
from .errors import RulespecError, SpecErrors

DEFAULT_PLAYERS = 2     # a scenario that gives no `players:` plays with this many


def scenario_rules(data) -> list[check.Rule]:
    """The rules-language strings of a scenario file: each step's `do:`, `stage:`,
    `expect:`, `play_until:` and `let:`, each seeing the names earlier `let:` steps gave."""
    rules = []
    for i, scenario in enumerate(data.get("scenarios") or []):
        if not isinstance(scenario, dict):
            continue
        lets: tuple = ()
        for k, step in enumerate(scenario.get("steps") or []):
            if not isinstance(step, dict):
                continue
            rules += _step_rules(step, ("scenarios", i, "steps", k), lets)
            if isinstance(step.get("let"), dict):
                lets += tuple(str(name) for name in step["let"])
    return rules


def _step_rules(step: dict, path: tuple, lets: tuple) -> list[check.Rule]:
    rules = [check.Rule(path + (key,), "statements", lets)
             for key in ("do", "stage") if isinstance(step.get(key), str)]
    expect = step.get("expect")
    if isinstance(expect, list):
        rules += [check.Rule(path + ("expect", j), "expression", lets)
                  for j, e in enumerate(expect) if isinstance(e, str)]
    elif isinstance(expect, str):
        rules.append(check.Rule(path + ("expect",), "expression", lets))
    if isinstance(step.get("play_until"), str):
        rules.append(check.Rule(path + ("play_until",), "expression", lets))
    if isinstance(step.get("let"), dict):
        rules += [check.Rule(path + ("let", name), "expression", lets)
                  for name, e in step["let"].items() if isinstance(e, str)]
    return rules


def rule_errors(scenario, names, functions: dict, parse=check.parse_text) -> tuple[list, list]:
    """(the file's rules, each with its tree where it parsed; their errors): each rule
    parsed and checked against the spec's `names` (check.Names) as validate checks a
    spec's own, following calls into the spec's `functions` ({name: tree}) for effects.
    `scenario` is the file's loader.Spec; `parse` may be a caching check.parse_text."""
    rules = scenario_rules(scenario.data)
    try:
        _, errors = check.parse_rules(scenario, names, rules, parse=parse)
    except SpecErrors as e:   # over limits.RULE_TEXT in all: none is parsed
        errors = e.errors
    parsed = [r for r in rules if r.tree is not None]
    return rules, errors + check.check(scenario, parsed, names, functions=functions)


def setup_errors(scenario, spec) -> list[RulespecError]:
    """Each scenario's `variant:` the spec does not have and `players:` its game
    (with that variant) is not for, at the scenario file's own key. `spec` is the
    loader.Spec of the spec the file names, without a variant."""
    data, errors = scenario.data, []
    variants = spec.data.get("variants")
    known = [str(v) for v in variants] if isinstance(variants, dict) else []
    ranges: dict = {}
    for i, entry in enumerate(data.get("scenarios") or []):
        if not isinstance(entry, dict):
            continue
        variant, at = _given(data, entry, i, "variant", None)
        if variant is not None and str(variant) not in known:
            errors.append(scenario.error(_unknown_variant(str(variant), known), at))
            continue
        if variant not in ranges:
            ranges[variant] = _players(spec, variant)
        errors += _players_errors(scenario, data, entry, i, ranges[variant])
    return _unique(errors)


def _given(data: dict, entry: dict, i: int, key: str, default):
    """(value, path of the key that gave it): the scenario's own, else the file's."""
    if key in entry:
        return entry[key], ("scenarios", i, key)
    if key in data:
        return data[key], (key,)
    return default, ("scenarios", i)


def _unknown_variant(name: str, known: list) -> str:
    if not known:
        return f"unknown variant {name!r}: the spec has no variants"
    return (f"unknown variant {name!r}; the spec's variants are: {', '.join(sorted(known))}"
            f"{loader.did_you_mean(name, known)}")


def _players(spec, variant) -> tuple | None:
    """(game name, fewest, most players) of the spec with `variant`, or None when it
    cannot be told (the spec or the variant does not load: that is validate's error)."""
    try:
        data = spec.data if variant is None else \
            loader.load_spec(spec.file, variant=variant, text=spec.source).data
    except RulespecError:
        return None
    players = data.get("players")
    if not isinstance(players, dict) or not all(type(players.get(k)) is int for k in ("min", "max")):
        return None
    return data.get("game"), players["min"], players["max"]


def _players_errors(scenario, data, entry, i, found) -> list[RulespecError]:
    count, at = _given(data, entry, i, "players", DEFAULT_PLAYERS)
    if found is None or type(count) is not int or found[1] <= count <= found[2]:
        return []
    game, least, most = found
    told = "" if at[-1] == "players" else f" (no `players:` is given: {count} is the default)"
    return [scenario.error(f"{game} is for {least} to {most} players, not {count}{told}", at)]


def _unique(errors: list) -> list:
    """A file-wide `players:` or `variant:` wrong for every scenario is said once."""
    seen, out = set(), []
    for error in errors:
        if error.format() not in seen:
            seen.add(error.format())
            out.append(error)
    return out
