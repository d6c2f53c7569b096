"""What a loaded save must agree with besides its schema: the game's declarations
(each value's kind, bounds and `one_of`; seats, cards, zones, boards and phases
the game has) and the rules themselves (the flow stack is one the engine could
have saved, each rule's locals what the rule can store in them, and the pending
decision the one the rules make at the saved position). A save is data anyone can
edit: nothing in it that the rules decide is taken on trust. Every refusal is
CorruptFile("corrupt save file: ...") naming where in the file (`per_player.coins[1]`)."""
from __future__ import annotations

from itertools import chain

from rulespec.errors import CorruptFile
from rulespec.kinds import CELL, LAYOUT_CELL, NOTHING, Kind, known, map_of
from rulespec.local_values import Kinded, ListOf, Num, Row, Words, local_values, words
from . import chance
from .flow import run
from .functions import start_meter
from .values import Seat, Zone, encode

_PLAIN_ANY = frozenset({int, str, bool, type(None)})   # no seat, zone or float among them
_INTS = frozenset({int})
_TEXT_OR_NONE = (str, type(None))
_ALL_MAPS = frozenset({dict}).issuperset
_LAYOUT = map_of(CELL, LAYOUT_CELL)     # hex_layout's "q,r" -> {colour, board, q, r[, joined]}
_LAYOUT_FIELDS = frozenset({"colour", "board", "q", "r", "joined"})


def corrupt(message: str, where: str | None = None) -> CorruptFile:
    return CorruptFile(f"corrupt save file: `{where}`: {message}" if where else f"corrupt save file: {message}")


# ------------------------------------------------------------ values and declarations
def check_values(st, game) -> None:
    """Every global, per-player and per-card value fits its declaration. Raises
    CorruptFile naming the first that does not, by its place in the file."""
    checks = _checks(game)
    n = st.n
    for name, value in st.g.items():
        _fit(checks["globals"][name], value, n, f"globals.{name}")
    for name, values in st.pv.items():
        fits = checks["per_player"][name]
        if fits[1](values):
            continue
        for seat, value in enumerate(values):
            _fit(fits, value, n, f"per_player.{name}[{seat}]")
    for name, values in st.cv.items():
        if values.keys() != game.cards.keys():
            odd = sorted(set(values) ^ set(game.cards))[:3]
            raise corrupt(f"not the game's cards ({', '.join(map(str, odd))})", f"per_card.{name}")
        fits = checks["per_card"][name]
        if fits[1](list(values.values())):
            continue    # all of one plain kind within bounds: nothing to look at each
        start = game.decls["per_card"][name]["start"]
        if start.__class__ in (list, dict) and not start:
            # most cards hold their empty start: look only at the others
            empty = start.__class__
            values = {card: v for card, v in values.items() if v.__class__ is not empty or v}
        for card, value in values.items():
            _fit(fits, value, n, f"per_card.{name}.{card}")


def check_places(st, game, phase) -> None:
    """Zone limits, the phase, and the seats and zones in the flow's locals."""
    for zone, cards in st.zones.items():
        limit = game.limits.get(zone.partition("@")[0])
        if limit is not None and len(cards) > limit:
            raise corrupt(f"{len(cards)} cards, over the zone's limit of {limit}", f"zones.{zone}")
    if phase is not None and phase not in (game.data.get("phases") or {}):
        raise corrupt(f"no phase {phase!r} in this game", "phase")
    for i, frame in enumerate(st.stack):
        kinds = _local_checks(game, game.programs.get(frame.proc))
        for name, value in frame.env.items():
            problem = _any_problem(value, st.n, game, 0)
            if not problem and name.startswith("$"):
                problem = _bookkeeping_problem(name, value, st.n)
            fits = kinds.get(name)
            if not problem and fits is not None:
                # a local (or a loop's items) of the kind the rules give it: another
                # kind would fail later as a rule's error, blaming the spec for the save
                problem = (_items_problem(fits, value[0], st.n, 0) if name.startswith("$for")
                           else fits(value, st.n, 0))
            if problem:
                raise corrupt(problem, f"stack[{i}].{name}")


def _local_checks(game, program) -> dict:
    """{env key: fits(value, n, depth)} for a frame of `program`: its rule's locals and
    parameters by name (of their kind, and of what the rule can store in a local:
    _shape_check), and each `for` loop's book-keeping key by its variable (the check
    of one item). Empty for a program of no rule (a scenario's snippet). Made once
    per program."""
    if program is None or program.path is None:
        return {}
    made = _checks(game).setdefault("frames", {})     # program key -> its checks
    checks = made.get(program.key)
    if checks is None:
        table, path = game.kinds, program.path
        names = {name for (rule, name) in table.locals if rule == path}
        names |= {name for (kind, owner, name) in table.params if (kind, owner) == path[:2]}
        checks = {name: _kind_check(table.kind_of(name, path), game) for name in names}
        stored = _local_values(game)
        for name in names:
            shape = stored.get((path, name))
            if shape is not None and _adds(shape):
                checks[name] = _both(checks[name], _shape_check(shape, game))
        checks.update({key: checks[var] for key, _, _, var, _ in program.for_loops if var in checks})
        checks.update({key: _picks_check(_kind_check(item, game)) for key, (_, item) in program.keyed.items()
                       if item is not None})
        made[program.key] = checks
    return checks


def _picks_check(item):
    """fits for a several-choice's book-keeping [picked, still offered, how many]
    (its shape checked already): each pick and offer of its options' kind, which the
    picks are stored as when the choice is done."""
    def picks(v, n, depth):
        for what, values in (("picked", v[0]), ("still offered", v[1])):
            problem = _items_problem(item, values, n, depth)
            if problem:
                return f"{what}, {problem}"
        return None
    return picks


def _local_values(game) -> dict:
    """{(rule path, local): shape} of rulespec.local_values, made once per game."""
    made = _checks(game).get("values")
    if made is None:
        made = _checks(game)["values"] = local_values(
            game.rules, game.names, game.kinds, (game.min_players, game.max_players), game.bounds)
    return made


def _adds(shape) -> bool:
    """Whether a shape says more than the kind of its local (checked anyway)."""
    if isinstance(shape, Kinded):
        return False
    return _adds(shape.item) if isinstance(shape, ListOf) else True


def _both(first, then):
    def fits(v, n, depth):
        return first(v, n, depth) or then(v, n, depth)
    return fits


def _shape_check(shape, game):
    """fits(value, n, depth) -> None, or what is wrong (in words) for a value that
    must be of `shape` (rulespec.local_values): what a rule can store in a local,
    so anything else is a save's edit that play would trip over later (a hex
    layout's part of two items), or go on with as no game could (a countdown of
    10**30 turns)."""
    if isinstance(shape, Kinded):
        return _kind_check(shape.kind, game)
    if isinstance(shape, Num):
        return _number_check(shape, game)
    if isinstance(shape, Words):
        def said(v, n, depth):
            return None if (v.__class__, v) in shape.values else f"expected {words(shape)}, got {_shown(v)}"
        return said
    if isinstance(shape, ListOf):
        item = _shape_check(shape.item, game)

        def listed(v, n, depth):
            return _items_problem(item, v, n, depth) if v.__class__ is list else \
                f"expected {words(shape)}, got {_shown(v)}"
        return listed
    if isinstance(shape, Row):
        return _row_check(shape, game)
    return _one_of_check(shape, game)


def _number_check(shape, game):
    low, high, ib = shape.low, shape.high, game.bounds.integer_bound

    def number(v, n, depth):
        if v.__class__ is not int:      # (a player too: no rule stores one here)
            return f"expected {words(shape)}, got {_shown(v)}"
        if not -ib < v < ib:
            return _too_big(game)
        if low is not None and v < low or high is not None and v > high:
            return f"{_shown(v)}, but the rules store only {words(shape)} here"
        return None
    return number


def _row_check(shape, game):
    checks = [_shape_check(item, game) for item in shape.items]

    def row(v, n, depth):
        if v.__class__ is not list or len(v) != len(checks):
            return f"expected {words(shape)}, got {_shown(v)}"
        for i, (item, fits) in enumerate(zip(v, checks)):
            problem = fits(item, n, depth + 1)
            if problem:
                return f"item {i + 1}: {problem}"
        return None
    return row


def _one_of_check(shape, game):
    checks = [(form, _shape_check(form, game)) for form in shape.shapes]

    def one_of(v, n, depth):
        if not checks:      # (the items of a list the rule only ever leaves empty)
            return f"{_shown(v)}, but the rules store nothing here"
        if any(fits(v, n, depth) is None for _, fits in checks):
            return None
        alike = [fits(v, n, depth) for form, fits in checks if _alike(form, v)]
        # the one form it is like says best what is wrong with it
        return alike[0] if len(alike) == 1 else f"expected {words(shape)}, got {_shown(v)}"
    return one_of


def _alike(form, v) -> bool:
    """Whether list `v` is of the form of shape `form`: a Row of its length, or a
    ListOf (what is wrong inside it says more than the forms it is not)."""
    if isinstance(form, Row):
        return v.__class__ is list and len(v) == len(form.items)
    return isinstance(form, ListOf) and v.__class__ is list


def _shown(v) -> str:
    return f"a list of {len(v)} item{'s' * (len(v) != 1)}" if v.__class__ is list else _show(v)


# ------------------------------------------------------------ the flow stack
def check_stack(st, game, explicit: bool) -> None:
    """The frames are a stack the engine itself could have saved: the flow at the
    bottom, in the open; each frame beneath another stands where its program started
    that one (Program.starts: after a call, a `phase` or a `signal`, at a `turn`),
    or is a trigger of the same signal not yet begun, and the one above is as secret
    as that start makes it; the top one stands at an instruction that asks a player
    (Program.waits) while a decision waits, or at one that may wait for a chance
    outcome (`explicit`: nothing pending); each frame holds the engine keys its pc
    says (_keys_kept) and the locals its rule surely gave a value (_locals_kept).
    Call on a game not over, with a stack. Raises CorruptFile naming the first
    frame that is not so (`stack[2]`)."""
    stack = st.stack
    for i, frame in enumerate(stack):
        program = game.programs.get(frame.proc)
        if program is None:
            raise corrupt(f"no rule {_cut(frame.proc)!r} in this game", f"stack[{i}]")
        if frame.pc > len(program.code):    # (at its end: a last instruction's call runs above it)
            raise corrupt(f"{program.rule} has no instruction {frame.pc} (it has {len(program.code)})",
                          f"stack[{i}]")
        _keys_kept(program, frame, i, i == len(stack) - 1)
    bottom = stack[0]
    if bottom.proc != "flow" or bottom.secret:
        raise corrupt("the flow, in the open, is the frame at the bottom of the stack, not "
                      f"{'a secret ' if bottom.secret else ''}{game.programs[bottom.proc].rule}", "stack[0]")
    for i in range(len(stack) - 1):
        problem, at = _start_problem(game, stack[i], stack[i + 1])
        if problem:
            raise corrupt(problem, f"stack[{i + at}]")
    top, program = stack[-1], game.programs[stack[-1].proc]
    if st.pending is not None and top.pc not in program.waits:
        raise corrupt(f"{program.rule} stands at instruction {top.pc}, which asks no one, "
                      "but a decision waits there", f"stack[{len(stack) - 1}]")
    if st.pending is None and explicit and (top.pc == len(program.code)
                                            or not chance.may_stop(game, program, top.pc)):
        raise corrupt(f"{program.rule} stands at instruction {top.pc}, where no chance outcome "
                      "is drawn, but a chance node waits there", f"stack[{len(stack) - 1}]")
    for i, frame in enumerate(stack):
        _locals_kept(game, frame, i)


def _locals_kept(game, frame, i) -> None:
    """A frame holds its parameters (a procedure's, an action's player and value) and
    the locals its rule surely gave a value before where it stands (Program.holds):
    without one, the rule's next read of it fails as the spec's error."""
    program, env = game.programs[frame.proc], frame.env
    given, held = _given(game, program), program.holds.get(frame.pc, frozenset())
    if given <= env.keys() and held <= env.keys():
        return
    for local in sorted(given - env.keys()):
        raise corrupt(f"no {local!r}, which every frame of {program.rule} is given", f"stack[{i}]")
    for local in sorted(held - env.keys()):
        raise corrupt(f"no local {local!r}, which {program.rule} gives a value on every way "
                      f"to instruction {frame.pc}", f"stack[{i}]")


def _given(game, program) -> frozenset:
    """The locals every frame of `program` starts with: a procedure's parameters (its
    calls pass each: validate counts them), an action's player and value."""
    made = _checks(game).setdefault("given", {})
    given = made.get(program.key)
    if given is None:
        kind, _, name = program.key.partition(":")
        action = game.actions.get(name) if kind == "action" else None
        given = made[program.key] = frozenset(
            game.names.procedures.get(name) or () if kind == "proc"
            else ("player", action.var) if action is not None and action.var
            else ("player",) if action is not None else ())
    return given


def _start_problem(game, below, above) -> tuple:
    """(what is wrong with frame `above` lying on frame `below`, or None; 0 where
    `below` is at fault, 1 where `above` is). A frame lies on the one whose
    instruction started it, standing where that leaves it, or on a trigger of the
    same signal that runs after it, not yet begun (pc 0)."""
    programs = game.programs
    rule, over = programs[below.proc].rule, programs[above.proc].rule
    if below.pc == 0 and below.proc.startswith("trigger:"):
        if above.proc not in _triggers_before(game).get(below.proc, ()):
            return (f"{over} lies on {rule}, not yet begun, where only a trigger of the "
                    "same signal that runs before it can"), 1
        secret = below.secret
    else:
        started = programs[below.proc].starts.get(below.pc)
        if started is None:
            return (f"{rule} stands at instruction {below.pc}, where it starts no rule, but "
                    f"{over} lies on it: a frame beneath another stands where it started that one"), 0
        if above.proc not in started:
            names = sorted(programs[k].rule for k in started if k in programs)
            more = f" and {len(names) - 2} more" if len(names) > 3 else ""
            return (f"{over} lies on {rule} at instruction {below.pc}, which starts "
                    f"{', '.join(names[:2] if more else names)}{more}, not it"), 1
        secret = below.secret or started[above.proc] and bool(below.env.get("$secret"))
    if above.secret != secret:
        return (f"{over} is {'secret' if above.secret else 'in the open'}, but {rule} "
                f"starts it {'secretly' if secret else 'in the open'}"), 1
    return None, 1


def _triggers_before(game) -> dict:
    """{trigger key: the keys of the triggers of the same signal declared before it},
    made once per game: a signal's triggers are pushed together, the first declared
    on top, the others beneath it at pc 0 until their turn."""
    made = _checks(game).get("triggers_before")
    if made is None:
        made = {}
        for names in game.triggers_on.values():
            keys = ["trigger:" + name for name in names]
            for i, key in enumerate(keys):
                made.setdefault(key, set()).update(keys[:i])
        _checks(game)["triggers_before"] = made
    return made


def _keys_kept(program, frame, i, top) -> None:
    """The engine's keys in a frame agree with where it stands: a `for` loop's book-
    keeping exactly while its pc is inside the loop (without it the loop's end would
    fail as a rule error, blaming the spec for the save; a stale one is never left),
    a turn's, a several-choice's or an auction's only at its own instruction (a
    stale turn's would skip the next turn there), "$secret" counting the `secretly`
    loops the pc is inside (it makes decisions secret), and a decision's answer
    ("$in") only on the top frame (a lower one would answer its next decision)."""
    env, pc = frame.env, frame.pc
    secret = 0
    for key, first, last, _, secretly in program.for_loops:
        inside = first <= pc <= last
        secret += inside and secretly
        if inside and key not in env:
            raise corrupt(f"the frame stopped inside a `for` loop (instruction {pc}) "
                          f"but holds no {key}, the loop's book-keeping", f"stack[{i}]")
        if key in env and not inside:
            raise corrupt(f"a `for` loop's book-keeping, but instruction {pc} is outside "
                          f"that loop (instructions {first} to {last})", f"stack[{i}].{key}")
    for key, (at, _) in program.keyed.items():
        if key in env and pc != at:
            raise corrupt(f"book-keeping of the decision at instruction {at}, but the frame "
                          f"stands at instruction {pc}", f"stack[{i}].{key}")
    if env.get("$secret", 0) != secret:
        raise corrupt(f"{env.get('$secret', 0)} open `secretly` blocks, but instruction {pc} "
                      f"is inside {secret}", f"stack[{i}].$secret")
    if "$in" in env and not top:
        raise corrupt("a decision's answer, in a frame that is not on top of the stack",
                      f"stack[{i}].$in")


def _bookkeeping_problem(name: str, value, n: int) -> str | None:
    """What is wrong with one of the engine's own locals (no spec name starts with $)
    that the rules read only later, so that re-making the pending decision does not
    try it (the compiler's Compiler.temp keys and "$secret"). A key the compiler never
    writes is refused too: a save holding one was not made by the engine. None when
    it is well made."""
    stem = name.rstrip("0123456789")
    if stem != name and stem in _NUMBERED:
        return _NUMBERED[stem](value, n)
    if name in ("$ret", "$in"):
        return None     # a procedure's result, a decision's answer: any saved value
    if name == "$inagain":
        return None if value.__class__ is bool else f"must be true or false, not {_show(value)}"
    if name == "$secret":
        if value.__class__ is not int or value < 0:
            return f"the count of open `secretly` blocks must be a whole number, 0 or more; got {_show(value)}"
        return None
    return "not a key the engine keeps in a frame (its own keys are $for, $turn, $several, " \
           "$auction with a number, $secret, $ret, $in and $inagain)"


def _for_problem(value, n) -> str | None:
    """A `for` loop's [its items, how many are done]."""
    if not (value.__class__ is list and len(value) == 2 and value[0].__class__ is list
            and value[1].__class__ is int):
        return f"a `for` loop's book-keeping is [its items, how many are done], not {_show(value)}"
    if not 0 <= value[1] <= len(value[0]):
        return f"a `for` loop of {len(value[0])} items cannot have done {value[1]} of them"
    return None


def _turn_problem(value, n) -> str | None:
    """A `turn`'s [whose turn it is, whether they have acted] (compile.py _turn_form)."""
    if not (value.__class__ is list and len(value) == 2 and value[1].__class__ is bool):
        return f"a turn's book-keeping is [its player, whether they acted], not {_show(value)}"
    return _player_problem(value[0], n, "a turn's player")


def _several_problem(value, n) -> str | None:
    """A `choose ... several`'s [picked so far, still offered, how many to pick]."""
    if not (value.__class__ is list and len(value) == 3 and value[0].__class__ is list
            and value[1].__class__ is list and value[2].__class__ is int and value[2] >= 0):
        return (f"a several-choice's book-keeping is [picked, still offered, how many], "
                f"not {_show(value)}")
    return None


_AUCTION_KEYS = frozenset({"order", "active", "high", "price", "turn"})


def _auction_problem(value, n) -> str | None:
    """An auction's bidders in order, those still in, the high bidder (or none), the
    price and whose bid is next (compile.py _auction_start)."""
    if not (value.__class__ is dict and value.keys() == _AUCTION_KEYS
            and value["order"].__class__ is list and value["active"].__class__ is list
            and value["price"].__class__ is int and value["turn"].__class__ is int
            and value["turn"] >= 0):
        return ("an auction's book-keeping is a map of order, active, high, price and turn, "
                f"each of its kind, not {_show(value)}")
    for i, bidder in enumerate(value["order"]):
        problem = _player_problem(bidder, n, f"bidder {i}")
        if problem:
            return problem
    if not all(b in value["order"] for b in value["active"]):
        return "an auction's bidders still in must be among its bidders"
    high = value["high"]
    return None if high is None else _player_problem(high, n, "the high bidder")


def _player_problem(value, n, what) -> str | None:
    if value.__class__ not in (Seat, int):
        return f"{what} must be a player, not {_show(value)}"
    problem = _seat_problem(value, n)
    return problem and f"{what}: {problem}"


# the engine's numbered frame keys (Compiler.temp's stems) and the check of each
_NUMBERED = {"$for": _for_problem, "$turn": _turn_problem, "$several": _several_problem,
             "$auction": _auction_problem}


def _fit(fits, value, n, where) -> None:
    problem = fits[0](value, n)
    if problem:
        raise corrupt(problem, where)


def _checks(game) -> dict:
    """{section: {name: (fits(value, n) -> problem or None, all_fit(values) -> True
    when a collection of values surely fits)}}, made once per game."""
    made = getattr(game, "_save_checks", None)
    if made is None:
        made = {section: {name: _declared(game, section, name, decl) for name, decl in decls.items()}
                for section, decls in game.decls.items()}
        game._save_checks = made
    return made


def _declared(game, section, name, decl) -> tuple:
    kind, stored = _saved_kind(game, (section, name))
    fits = _kind_check(kind, game)
    low, high, one_of = decl.get("min"), decl.get("max"), decl.get("one_of")
    bounded = low is not None or high is not None or one_of is not None
    # none where the rules can store it: one_of lists it, or the kind may be none
    # (a store of none where it may not be is refused at play, Game.checker)
    none_ok = None in one_of if one_of is not None else not known(kind) or kind.none or kind.base == "none"
    words = kind.words(article=True) if kind is not None else "a value"
    start = decl.get("start")
    # a number whose every store is a player is its start or a player: another
    # number fails at play ("7 is not a seat"), blamed on the rule that reads it
    seat_or_start = (kind is not None and kind.base == "number" and stored is not None
                     and stored.base == "seat")
    # a number no rule stores a player into is never one: a player there would
    # not fail at once, but prints and saves as a player
    no_player = (kind is not None and kind.base == "number" and not seat_or_start
                 and _key_not_in(game, "players", (section, name)))
    keys = _keys_check(game, (section, name), start)

    def check(value, n):
        if value is None:
            return None if none_ok else f"expected {words}, got none"
        if no_player and value.__class__ is Seat:
            return f"expected {words}, got {_show(value)}"
        problem = fits(value, n, 0) or keys(value)
        if not problem and seat_or_start and value != start:
            problem = _seat_problem(value, n)
        if problem or not bounded:
            return problem
        if low is not None and value < low:
            return f"{value} is below {name}'s minimum {low}"
        if high is not None and value > high:
            return f"{value} is above {name}'s maximum {high}"
        if one_of is not None and value not in one_of:
            return f"{_show(value)} is not one of {one_of}"
        return None
    quick = None
    if one_of is None and kind is not None and not kind.none and not seat_or_start:
        quick = {"number": _INTS, "bool": frozenset({bool}),
                 "text": frozenset({str})}.get(kind.base)
        if quick is not None and bounded and kind.base != "number":
            quick = None
    # numbers within the declared bounds and the integer bound (which is the wider)
    ib = game.bounds.integer_bound
    floor, ceiling = max(low, -ib + 1) if low is not None else -ib + 1, min(high, ib - 1) if high is not None else ib - 1

    def all_fit(values) -> bool:
        """Whether a collection of values all fit, seen in C (most do): all of the
        plain kind, within the bounds. False: look at each."""
        return (quick is not None and quick.issuperset(map(type, values))
                and (quick is not _INTS or not values or floor <= min(values) and max(values) <= ceiling))
    return check, all_fit


def _key_not_in(game, what, key) -> bool:
    """Whether the kind table's `what` (ways, players) leaves out `key`; False for
    a table made before it was kept (nothing is refused on a guess)."""
    got = getattr(game.kinds, what, None)
    return got is not None and key not in got


def _keys_check(game, key, start):
    """keys(value) -> None, or what is wrong with a map's keys: a map variable the
    rules never store whole keeps every key it starts with (the rules read them:
    `ready[g] -= 1` fails on a missing one), and gains none unless some rule stores
    an item (`m[k] = v`, which may add k)."""
    ways = getattr(game.kinds, "ways", None)
    if start.__class__ is not dict or ways is None:
        return _no_problem
    how = ways.get(key, set())
    if "whole" in how:
        return _no_problem
    keep, closed = frozenset(start), "item" not in how

    def keys(value):
        if value.__class__ is not dict:
            return None
        missing = [k for k in start if k not in value]
        if missing:
            return f"no key {_cut(str(missing[0]))!r}, which it starts with and no rule takes away"
        extra = [k for k in value if k not in keep] if closed else ()
        if extra:
            return f"a key {_cut(str(extra[0]))!r} it does not start with, which no rule adds"
        return None
    return keys


def _no_problem(value):
    return None


def _saved_kind(game, key) -> tuple:
    """(the kind a saved value of variable `key` must fit, what the rules store into
    it or None). For a variable whose declaration decides its kind, the rules may
    still store none into its items (the engine checks only the value itself), so
    the stores' nones are its items' too."""
    kind = game.kinds.variables.get(key)
    stored = getattr(game.kinds, "stored", {}).get(key)
    if key in game.kinds.fixed and stored is not None:
        kind = _nones_stored(kind, stored, top=True)
    return kind, stored


def _nones_stored(kind, stored, top=False):
    """`kind` whose items may be none wherever `stored` (a kind stored into it) says
    so; an unknown stored kind may hold none anywhere below the top."""
    if not known(kind) or stored is None or stored.base == "nothing" and not stored.none:
        return kind
    if stored.base == "any":
        stored = Kind(kind.base, Kind("any"), Kind("any"), True)
    none = kind.none or (stored.none or stored.base == "none") and not top
    if kind.base not in ("list", "map") or stored.base != kind.base:
        return Kind(kind.base, kind.item, kind.key, none)
    return Kind(kind.base, _nones_stored(kind.item, stored.item or NOTHING),
                _nones_stored(kind.key, stored.key or NOTHING), none)


def _show(value) -> str:
    if value is None:
        return "none"
    if value is True or value is False:
        return "true or false"
    if isinstance(value, Seat):
        return f"player {int(value)}"
    if isinstance(value, str):
        return f"text {_cut(value)!r}".replace("'", '"')
    if isinstance(value, float):
        return f"the fraction {value}"
    if isinstance(value, int):
        return f"the number {_cut(str(value))}"
    return f"a {'list' if isinstance(value, list) else 'map'}"


def _cut(text: str) -> str:
    return text if len(text) <= 40 else text[:40] + "..."


def _kind_check(kind, game):
    """fits(value, n, depth) -> None, or what is wrong (in words) for a value of
    `kind` (rulespec.kinds.Kind; None: not known, anything fits)."""
    if kind is None or kind.base in ("any", "nothing", "cell"):
        def fits_any(v, n, depth):
            return _any_problem(v, n, game, depth)
        fits_any.plain = _PLAIN_ANY
        return fits_any
    if kind == _LAYOUT:
        return _layout_check(game)
    base, words, none_ok = kind.base, kind.words(article=True), kind.none or kind.base == "none"
    item = _kind_check(kind.item, game) if base in ("list", "map") else None
    key = _kind_check(kind.key, game) if base == "map" else None
    item_plain = item.plain.issuperset if item is not None else None
    key_plain = key.plain.issuperset if key is not None else None
    inner_plain = getattr(item, "maps_plain", None)
    ib = game.bounds.integer_bound
    item_ints = getattr(item, "ints", False)
    key_ints = getattr(key, "ints", False)

    def fits(v, n, depth):
        if v is None:   # where the kind table says the rules can store none (a procedure
            # that ends without `return` gives none, and inference records it)
            return None if none_ok else f"expected {words}, got none"
        cls = v.__class__
        if base == "number" or base == "seat":
            if cls is Seat:
                return _seat_problem(v, n)
            if cls is not int:
                return f"expected {words}, got {_show(v)}"
            if base == "seat":
                return _seat_problem(v, n)
            return None if -ib < v < ib else _too_big(game)
        if base == "bool":
            return None if cls is bool else f"expected {words}, got {_show(v)}"
        if base in ("text", "card", "zone", "board"):
            if not isinstance(v, str):
                return f"expected {words}, got {_show(v)}"
            if cls is Zone or base == "zone":
                return _zone_problem(v, n, game)
            if base == "card" and v not in game.cards:
                return f"no card {_cut(v)!r} in this game"
            if base == "board" and v not in game.boards:
                return f"no board {_cut(v)!r} in this game"
            return None
        if base == "list":
            if cls is not list:
                return f"expected {words}, got {_show(v)}"
            # items that need no look of their own, seen in one test in C (most lists)
            if (item_plain(map(type, v)) and (not item_ints or _within(v, ib))
                    or inner_plain is not None and inner_plain(v)):
                return None
            return _items_problem(item, v, n, depth)
        if base == "map":
            if cls is not dict:
                return f"expected {words}, got {_show(v)}"
            values = v.values()
            if (key_plain(map(type, v)) and (not key_ints or _within(v, ib))
                    and (item_plain(map(type, values)) and (not item_ints or _within(values, ib))
                         or inner_plain is not None and inner_plain(values))):
                return None
            return _items_problem(key, v, n, depth) or _items_problem(item, values, n, depth)
        return f"expected {words}, got {_show(v)}" if base == "none" else None
    if base == "map":   # items that are maps of plain keys and values, seen in C
        inner_keys, inner_values = key.plain.issuperset, item.plain.issuperset

        def maps_plain(maps):
            return (_ALL_MAPS(map(type, maps)) and inner_keys(map(type, chain.from_iterable(maps)))
                    and inner_values(map(type, chain.from_iterable(map(dict.values, maps))))
                    and (not key_ints or _within(chain.from_iterable(maps), ib))
                    and (not item_ints or _within(chain.from_iterable(map(dict.values, maps)), ib)))
        fits.maps_plain = maps_plain
    # the kinds of value that fit with no look of their own (a list of them: one test)
    fits.plain = frozenset({int} if base == "number" else {bool} if base == "bool"
                           else {str} if base == "text" else ()) | ({type(None)} if none_ok else frozenset())
    fits.ints = base == "number"    # plain, but within the integer bound
    return fits


def _within(values, ib) -> bool:
    """Whether the whole numbers among `values` lie within the integer bound: the
    engine refuses a larger one wherever the rules make it."""
    return all(-ib < x < ib for x in values if x.__class__ is int)


def _too_big(game) -> str:
    digits = game.bounds.integer_digits
    return f"a whole number of more than {digits:,} digits, which the rules cannot make (limits: integer_digits)"


def _layout_check(game):
    """fits(value, n, depth) for a hex layout (hex_layout's result): each cell
    named by its own q and r, on one of the game's boards, with a colour of that
    board's cells, as hex_layout makes it; the rules read its fields as those kinds."""
    boards, colours = game.boards, _board_colours(game)     # (made per check made: cheap)

    def fits(v, n, depth):
        if v is None or v.__class__ is not dict:
            return f"expected a hex layout, got {_show(v)}"
        if all(info.__class__ is dict and info.keys() <= _LAYOUT_FIELDS
               and (q := info.get("q")).__class__ is int and (r := info.get("r")).__class__ is int
               and cell == f"{q},{r}" and (b := info.get("board")).__class__ is str and b in boards
               and (c := info.get("colour", _NO_COLOUR)).__class__ in _TEXT_OR_NONE and c in colours[b]
               and info.get("joined", True) is True
               for cell, info in v.items()):
            return None     # every cell well made, in one pass (a layout may hold a hundred or more)
        for cell, info in v.items():
            problem = _cell_problem(cell, info, game, colours)
            if problem:
                return f"cell {_cut(str(cell))!r}: {problem}"
        return None
    fits.plain = frozenset()
    return fits


_NO_COLOUR = object()   # a cell without its colour: hex_layout writes one (none where the board has none)


def _board_colours(game) -> dict:
    """{board: the colours its cells have (none for a cell with none)}."""
    return {name: frozenset(attrs.get("colour") for attrs in board.attrs.values()
                            if attrs.get("colour").__class__ in _TEXT_OR_NONE)
            for name, board in game.boards.items()}


def _cell_problem(cell, info, game, colours) -> str | None:
    if info.__class__ is not dict or not info.keys() <= _LAYOUT_FIELDS \
            or not {"q", "r", "board", "colour"} <= info.keys():
        return "a cell of a hex layout is {colour, board, q, r}"
    q, r = info["q"], info["r"]
    if q.__class__ is not int or r.__class__ is not int or cell != f"{q},{r}":
        return "its q and r are not the whole numbers its name says"
    if info["board"].__class__ is not str or info["board"] not in game.boards:
        return f"no board {_cut(str(info['board']))!r} in this game"
    colour = info["colour"]
    if colour.__class__ not in _TEXT_OR_NONE or colour not in colours[info["board"]]:
        return f"{_show(colour)} is no colour of board {info['board']}'s cells"
    if info.get("joined", True) is not True:
        return "joined is true when there"
    return None


def _items_problem(fits, items, n, depth):
    if depth > 100:
        return "nested too deep"
    for i, v in enumerate(items):
        problem = fits(v, n, depth + 1)
        if problem:
            return f"item {i + 1}: {problem}"
    return None


def _seat_problem(v, n):
    return None if 0 <= v < n else f"no player {_cut(str(int(v)))} in a game of {n} (seats 0 to {n - 1})"


def _zone_problem(v, n, game):
    base, _, seat = v.partition("@")
    if seat:
        if base in game.player_zone_decls and seat.isdigit() and int(seat) < n and str(int(seat)) == seat:
            return None
    elif base in game.zone_decls:
        return None
    return f"no zone {_cut(v)!r} in this game"


def _any_problem(v, n, game, depth):
    """For a value of no known kind: its seats and zones are the game's, and it
    holds no fraction (rule values are whole numbers)."""
    cls = v.__class__
    if cls is int:
        return None if -game.bounds.integer_bound < v < game.bounds.integer_bound else _too_big(game)
    if cls in _PLAIN_ANY:
        return None
    if cls is Seat:
        return _seat_problem(v, n)
    if cls is Zone:
        return _zone_problem(v, n, game)
    if cls is float:
        return f"expected a whole number, got {_show(v)}"
    if depth > 100:
        return "nested too deep"
    if cls is list or cls is tuple:
        items = v
    elif cls is dict:
        items = list(v) + list(v.values())
    else:
        return None
    if frozenset(map(type, items)) <= _PLAIN_ANY and _within(items, game.bounds.integer_bound):
        return None
    for item in items:
        problem = _any_problem(item, n, game, depth + 1)
        if problem:
            return problem
    return None


# ------------------------------------------------------------ the pending decision
def rederive_pending(st, saved: dict) -> None:
    """Put in st.pending the decision the rules make at the saved position: the
    instruction on top of the stack runs again, as the run loop runs it when a
    decision is answered, and asks again. Raises CorruptFile when it asks nothing,
    fails, or asks other than `saved` (the save's "pending" data) says: who,
    what kind, whether secret, and each option's label and value."""
    fr = st.stack[-1]
    program = st.game.programs[fr.proc]
    pc = fr.pc
    if pc >= len(program.code) or "$in" in fr.env:
        raise corrupt("the flow stack does not stand at a decision")
    st.pending = None
    start_meter(st.game)
    fr.pc = pc + 1
    try:
        program.code[pc](st, fr)
    except chance.ChanceNeeded:
        raise corrupt("the saved position is a chance node, not a decision") from None
    except Exception as e:   # noqa: BLE001 — an edited position the rules cannot go on from
        raise corrupt(f"the rules cannot go on from the saved position ({_cut(str(e))})") from None
    made = st.pending
    if made is None or st.over or not st.stack or st.stack[-1] is not fr or fr.pc != pc:
        raise corrupt("the rules make no decision at the saved position")
    if (made.player != saved["player"] or made.kind != saved["kind"] or made.secret != saved["secret"]
            or len(made.values) != len(saved["values"])
            or [encode(v) for v in made.values] != saved["values"] or made.labels != saved["labels"]):
        raise corrupt("the pending decision's options are not what the rules offer here")
    where = saved.get("where")
    if where and made.where and list(where)[1:] == list(made.where)[1:]:
        made.where = where    # the same line, its file named as the saving game named it


# ------------------------------------------------------------ explicit chance
def explicit_data(ex) -> dict:
    """chance.Explicit as save data: the answers given to the instruction that waits
    at a chance node (the node itself is made again from them on load), and the
    unordered groups of cards."""
    return {"answers": [[kind, encode(value)] for kind, value in ex.answers],
            "group": dict(ex.group), "groups": ex.groups}


def restore_explicit(st, game, data) -> None:
    """st.explicit from explicit_data's data: the groups checked against the zones;
    at a chance node, the node made again by running the waiting instruction and
    taking each saved answer in turn, as apply_chance took it (so an answer that is
    not an outcome of its node is refused)."""
    groups = data.get("groups")
    group = data.get("group")
    answers = data.get("answers")
    if (data.keys() != {"answers", "group", "groups"} or groups.__class__ is not int or groups < 0
            or group.__class__ is not dict or answers.__class__ is not list
            or not all(a.__class__ is list and len(a) == 2 and a[0] in ("roll", "pick", "draw")
                       for a in answers)):
        raise corrupt("expected answers, group and groups as explicit chance writes them", "chance")
    zone_of: dict = {}
    for card, gid in group.items():
        if card not in game.cards or gid.__class__ is not int or not 0 < gid <= groups:
            raise corrupt(f"{_cut(str(card))!r} is no card of this game in a group 1 to {groups}",
                          "chance.group")
        if zone_of.setdefault(gid, st.loc[card]) != st.loc[card]:
            raise corrupt(f"group {gid}'s cards lie in more than one zone", "chance.group")
    ex = st.explicit = chance.Explicit()
    ex.group, ex.groups = dict(group), groups
    if st.pending is not None or st.over:
        if answers:
            raise corrupt("answers to a chance node, but none waits", "chance.answers")
        return
    try:
        run(st)
        for kind, value in answers:
            if not st.is_chance_node() or ex.node.kind != kind:
                raise corrupt("the answers do not fit the chance nodes the rules make here",
                              "chance.answers")
            st.apply_chance(value)
    except CorruptFile:
        raise
    except Exception as e:   # noqa: BLE001 — IllegalAction, a rule's fault: an edited position
        raise corrupt(f"the rules cannot go on from the saved position ({_cut(str(e))})") from None
    if not st.is_chance_node():
        raise corrupt("a game not over must stand at a decision or a chance node")
