"""What one seat may see: the single place that decides, and every channel's redaction.

Hidden information is a security boundary, so one set of predicates decides
what a seat may see, and every channel a seat receives goes through them:

    sees_zone(game, zone, seat)                 a zone's cards (else only their count)
    sees_variable(game, section, name, of, seat)  a global, per-player or per-card value
    sees_card(state, card, seat)                the card itself (where it is, its values)

and, built on them only:

    view(state, seat)        -> dict   the seat's view (`State.view` returns this)
    seat_state(state, seat)  -> State  a copy holding only what the seat sees: every
                                       other value is HIDDEN, every unseen card a
                                       HiddenCard; reading either in a rule raises
                                       Hidden (refusal explanations evaluate on it)
    hide_locals(state, copy, seat, card) the same for the rules' locals (frame envs)
    redact_change(game, change, seat) -> dict | None   one trace record as the seat
                                       sees it (None: the seat sees nothing of it)
    decision_text(state, option, seat) -> str          "P2 chooses X" as the seat sees it
    HIDDEN_TEXT = "?"        how anything hidden reads, in every channel

`seat` is a seat index (0-based int) or None for a spectator, who sees only
what is public. A web table, a terminal, a trace or a training environment
builds a seat's screen from these functions alone.

The rules (docs/spec-format.md, "Visibility"):
- zones: `public` (everyone), `owner` (a player zone's own seat), `hidden`
  (nobody; a shared zone's default); player zones default to `owner`. A zone
  you cannot see shows its count and how many of its cards are of each kind (a
  `cards:` section: a card's back shows its kind, as decks of different kinds
  have backs of their own), never its cards, their order, or
  the order of their kinds (a face-down stack shows one back at most).
- globals, per-player and per-card values: `public` (the default), `owner`
  (the seat the value belongs to: a per-player value's seat; a per-card
  value's card's seat, when the card is in a player zone), `hidden` (nobody).
- a per-card value is seen only where the card is seen: a card in a zone the
  seat cannot see shows no values at all (their being set would say where it is).
- the options of a pending decision are shown to the seat deciding only.
- text the rules compute (labels, questions, log lines) reads only what its
  readers may see: `validate` refuses the rest (rulespec/shown.py); a label that
  reads the decider's own values reads '?' where the others cannot (decision_text).
- a local of a rule (a frame's variable) is read by a seat only where what it
  was made from may be (rulespec/taint.py: labels worked out once, at compile
  time), and a card it holds only where the seat sees the card now.
"""
from __future__ import annotations

from .values import Seat, Zone, cards_in, encode

HIDDEN_TEXT = "?"
PUBLIC, OWNER, NOBODY = "public", "owner", "hidden"


# ------------------------------------------------------------------ the predicates
def zone_visibility(game, zone: Zone) -> str:
    """'public', 'owner' or 'hidden' as declared (defaults: shared hidden, player owner)."""
    if zone.seat is None:
        return (game.zone_decls.get(zone.base) or {}).get("visibility", NOBODY)
    return (game.player_zone_decls.get(zone.base) or {}).get("visibility", OWNER)


def sees_zone(game, zone: Zone, seat) -> bool:
    """Whether `seat` sees the cards in `zone` (and their order), not just how many."""
    vis = zone_visibility(game, zone)
    return vis == PUBLIC or (vis == OWNER and seat is not None and zone.seat == seat)


def variable_visibility(game, section: str, name: str) -> str:
    """section: 'globals', 'per_player' or 'per_card'."""
    return game.decls[section][name].get("visibility", PUBLIC)


def sees_variable(game, section: str, name: str, of, seat) -> bool:
    """Whether `seat` sees variable `name` of `section` belonging to `of`.

    of: None for a global; the owning seat for a per-player value; for a
    per-card value, the zone the card is in (its seat owns an `owner` value).
    A per-card value also needs the card seen: use `sees_card_value`.
    """
    vis = variable_visibility(game, section, name)
    if vis == PUBLIC:
        return True
    if vis == NOBODY or seat is None:
        return False
    if section == "per_card":
        return of is not None and Zone(of).seat == seat
    return section == "per_player" and of == seat


def sees_card(state, card: str, seat) -> bool:
    """Whether `seat` sees `card` where it is now."""
    zone = state.loc.get(card)
    return zone is not None and sees_zone(state.game, zone, seat)


def sees_card_value(state, name: str, card: str, seat) -> bool:
    """Whether `seat` sees per-card value `name` of `card` now."""
    return sees_card(state, card, seat) and \
        sees_variable(state.game, "per_card", name, state.loc.get(card), seat)


# ------------------------------------------------------------------ the view
def view(state, seat) -> dict:
    """Everything `seat` may see, as JSON data.

    {"game", "players", "phase", "over",
     "globals": {name: value}              (hidden ones left out),
     "players_vars": {name: [value per seat, "?" where hidden]},
     "zones": {zone: [card ids], or for a zone it cannot see
               {"count": n, "kinds": {kind: how many}}  (kind_counts),
     "cards": {card: {name: value}}        per-card values of the cards the seat
                                           sees (only cards whose values it may see),
     "to_move": seat, "options": [labels]  (options only to the seat deciding)}
    Values are encoded as in saves (values.encode).
    """
    game = state.game
    out = {"game": game.name, "players": state.n, "phase": state.phase, "over": state.over,
           "globals": {k: encode(v) for k, v in state.g.items()
                       if sees_variable(game, "globals", k, None, seat)},
           "players_vars": {}, "zones": {}, "cards": card_values(state, seat)}
    for name, values in state.pv.items():
        out["players_vars"][name] = [
            encode(v) if sees_variable(game, "per_player", name, s, seat) else HIDDEN_TEXT
            for s, v in enumerate(values)]
    for zone, cards in state.zones.items():
        out["zones"][zone] = list(cards) if sees_zone(game, zone, seat) else \
            {"count": len(cards), "kinds": kind_counts(game, cards)}
    if state.pending is not None:
        out["to_move"] = state.pending.player
        if state.pending.player == seat:
            out["options"] = list(state.pending.labels)
    return out


def kind_counts(game, cards) -> dict:
    """{kind: how many of `cards` are of it}: kinds (`cards:` sections) in the spec's
    order, only those present. What a face-down zone shows: its cards' backs."""
    counts: dict = {}
    of = game.cards
    for card in cards:
        kind = of[card]["kind"]
        counts[kind] = counts.get(kind, 0) + 1
    if len(counts) < 2:
        return counts
    return {kind: counts[kind] for kind in (game.data.get("cards") or {}) if kind in counts}


def card_values(state, seat) -> dict:
    """{card: {per-card name: encoded value}} for what `seat` sees, cards in spec order."""
    names = list(state.cv)
    if not names:
        return {}
    out = {}
    for card in state.game.cards:
        if not sees_card(state, card, seat):
            continue
        shown = {name: encode(state.cv[name][card]) for name in names
                 if sees_variable(state.game, "per_card", name, state.loc[card], seat)}
        if shown:
            out[card] = shown
    return out


# ------------------------------------------------------------------ a seat's copy of the state
class Hidden(Exception):
    """A rule read something the seat cannot see (raised by HIDDEN and HiddenCard)."""


def _refuse(*_args, **_kw):
    raise Hidden("hidden")


class _HiddenValue:
    """A value the seat cannot see: any use (compare, add, test, hash, iterate) raises Hidden."""
    __slots__ = ()
    __eq__ = __ne__ = __lt__ = __le__ = __gt__ = __ge__ = _refuse
    __hash__ = __bool__ = __len__ = __iter__ = __contains__ = __getitem__ = _refuse
    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = _refuse
    __floordiv__ = __rfloordiv__ = __truediv__ = __mod__ = __neg__ = __int__ = __index__ = _refuse

    def __repr__(self):
        return HIDDEN_TEXT


HIDDEN = _HiddenValue()


class HiddenCard(str):
    """A card the seat cannot see, in a copy of the state: counts as one card,
    but naming it (comparing, hashing, reading its attributes) raises Hidden."""
    __slots__ = ()
    __eq__ = __ne__ = __lt__ = __le__ = __gt__ = __ge__ = __hash__ = _refuse

    def __repr__(self):
        return HIDDEN_TEXT


def seat_state(state, seat):
    """A copy of `state` with everything `seat` cannot see replaced: values by HIDDEN,
    cards of unseen zones by HiddenCard (so counts stay), unseen cards' places by
    HIDDEN, the random generator by a constant. Evaluating a rule on it either gives
    what the seat could work out itself or raises Hidden (or another error)."""
    game = state.game
    st = state.clone()
    for name in st.g:
        if not sees_variable(game, "globals", name, None, seat):
            st.g[name] = HIDDEN
    for name, values in st.pv.items():
        for s in range(st.n):
            if not sees_variable(game, "per_player", name, s, seat):
                values[s] = HIDDEN
    for name, values in st.cv.items():
        for card in values:
            if not sees_card_value(state, name, card, seat):
                values[card] = HIDDEN
    for zone, cards in st.zones.items():
        if not sees_zone(game, zone, seat):
            st.zones[zone] = [HiddenCard(HIDDEN_TEXT) for _ in cards]
            for card in cards:
                st.loc[card] = HIDDEN
    st.rng = 0
    hide_locals(state, st, seat, _hidden_card)
    return st


def _hidden_card(card):
    return HiddenCard(HIDDEN_TEXT)


# env keys the engine keeps for the decision under way (a turn's actions so far, a
# choice of several's picks, an auction's bids): the deciding seat's own, or public
_DECIDING = ("$turn", "$several", "$auction")


def hide_locals(state, copy, seat, card) -> None:
    """In `copy` (a clone of `state`), replace each local `seat` may not read by HIDDEN
    and each card a local holds that `seat` does not see now by card(its id).

    Who may read a local is the game's `local_labels` (rulespec/taint.py): {program
    key: {env key: labels}}; a key it does not know (a scenario's snippet, an engine
    temporary) is hidden, but for the "$secret" count and the decision under way."""
    labels_of = state.game.local_labels
    for frame in copy.stack:
        labels = labels_of.get(frame.proc) or {}
        env = frame.env
        for key, value in env.items():
            if key == "$secret":
                continue
            readers = labels.get(key)
            if readers is None and key.startswith(_DECIDING):
                readers = ()
            if readers is None or not _may_read(readers, env, seat):
                env[key] = HIDDEN
            else:
                env[key] = seen_cards(state, value, seat, card)


def _may_read(labels, env, seat) -> bool:
    """Every label allows `seat`: each names a local holding `seat` ('?' names none)."""
    for label in labels:
        holder = env.get(label)
        if seat is None or not isinstance(holder, int) or isinstance(holder, bool) or holder != seat:
            return False
    return True


def seen_cards(state, value, seat, card, keyed=False):
    """`value` with each card `seat` does not see replaced by card(id), through lists,
    tuples and maps. A map keyed by such a card is HIDDEN (a hidden card cannot be a
    key), or with `keyed` has its keys replaced too (where card(id) gives a card: a
    search agent's guess, interpreter/agents/search.py)."""
    if isinstance(value, str):
        if value in state.game.cards and not sees_card(state, value, seat):
            return card(value)
        return value
    if isinstance(value, (list, tuple)):
        return type(value)(seen_cards(state, v, seat, card, keyed) for v in value)
    if isinstance(value, dict):
        if keyed:
            return {seen_cards(state, k, seat, card, keyed): seen_cards(state, v, seat, card, keyed)
                    for k, v in value.items()}
        if any(seen_cards(state, k, seat, card) is not k for k in value):
            return HIDDEN
        return {k: seen_cards(state, v, seat, card) for k, v in value.items()}
    return value


# ------------------------------------------------------------------ traces and announcements
def redact_change(game, change: dict, seat) -> dict | None:
    """A change record (interpreter/engine/changes.py) as `seat` sees it, or None.

    A value the seat cannot see is left out (that a hidden value changed is itself
    a hint); a card moving between zones shows as '?' unless the seat sees it at
    either end (counts change in public); a hidden zone's reordering is public
    (everyone sees a shuffle), its new order is not part of the record anyway."""
    on = change.get("on")
    kind = change.get("kind")
    if kind == "var" and on:
        section = {"g": "globals", "pv": "per_player", "cv": "per_card"}[on[0]]
        if section == "per_card":
            zone = Zone(on[3]) if on[3] is not None else None
            seen = zone is not None and sees_zone(game, zone, seat) and \
                sees_variable(game, section, on[1], zone, seat)
        else:
            seen = sees_variable(game, section, on[1], on[2] if section == "per_player" else None, seat)
        return change if seen else None
    if kind == "forced" and on:
        player, secret, zones = on
        if player != seat and (secret or not all(sees_zone(game, Zone(z), seat) for z in zones)):
            return {**change, "to": HIDDEN_TEXT}
        return change
    if kind == "move" and on:
        ends = [Zone(z) for z in on if z is not None]
        if any(sees_zone(game, z, seat) for z in ends):
            return change
        return {**change, "what": HIDDEN_TEXT}
    return change


def decision_text(state, option, seat) -> str:
    """The label of the decision being taken in `state` (before `apply`) as `seat` may
    read it: the seat deciding reads it; others read '?' when the decision is secret
    or what it picks is a card they cannot see."""
    decision = state.pending
    label = getattr(option, "label", option)
    if seat is None and decision is None:
        return str(label)
    if decision is None or decision.player == seat:
        return str(label)
    if decision.secret:
        return HIDDEN_TEXT
    index = state._index_of(option)
    value = decision.values[index]
    if private_choice(state.game, decision.kind, decision.where[1], value):
        return HIDDEN_TEXT
    if any(not sees_card(state, card, seat) for card in cards_in(state.game.cards, value)):
        return HIDDEN_TEXT
    if decision.kind == "action" and isinstance(value, tuple):
        return _action_label(state, decision.player, value, seat, str(label))
    return str(label)


def private_choice(game, kind, line, value) -> bool:
    """Whether a choice's `value` reads as '?' to the seats that did not make it:
    the choice at this line of the spec offers the decider's own owner-only values
    (Checked.private_choices, from rulespec/shown.py). A value of cards alone (a card, a list of
    them) is shown by where its cards lie instead, and a `choose up to`'s "done",
    the engine's word, by everyone; anything else of such a choice, a pair of a
    card and a number say, is hidden."""
    if kind == "action" or line not in game.private_choices or _cards_alone(game.cards, value):
        return False
    return not (kind == "several" and value == "done")


def _cards_alone(cards, value) -> bool:
    """A card, or a list or pair of cards alone (at any depth), and at least one."""
    if isinstance(value, str):
        return value in cards
    if isinstance(value, (list, tuple)):
        return bool(value) and all(_cards_alone(cards, v) for v in value)
    return False


def _action_label(state, player, value, seat, label) -> str:
    """An action's label as `seat` reads it: one that reads more than public values
    (`validate` lets it read the decider's own) is made again on `seat`'s copy of the
    state, '?' where that reads a hidden value (rulespec/shown.py: private_labels)."""
    name, bound = value
    how = state.game.private_labels.get(name)
    if how is None:
        return label
    if how == "remake":
        try:
            return str(state.game.actions[name].label_of(seat_state(state, seat), Seat(player), bound))
        except Exception:   # noqa: BLE001 — Hidden, or any error a hidden value causes
            pass
    return HIDDEN_TEXT
