"""What one seat sees at the table, as plain data: the single source of every
page, terminal status and replay frame that is shown to a seat.

HIDDEN INFORMATION: `seat_table` reads the state only through `state.view(seat)`
(the engine's redaction: hidden zones become counts of each card kind, owner-only values "?"),
the spec's static data (card attributes, boards), per-card variables of cards
the view lists, and the seat's own options. `visible_event` does the same for
the log: a card that moves where the seat cannot see is "a card", a hidden
value is "?", a shuffle's order and another seat's secret decision never pass.
`seat=None` is a spectator (public information only); `seat=EVERYTHING` is the
designer's view in the replay viewer, which shows all.
"""
from __future__ import annotations

from ..engine.visibility import HIDDEN_TEXT, redact_change
from ..engine.values import Zone, decode
from .present import Presentation, as_zone, words

EVERYTHING = "all"


def view_of(state, seat) -> dict:
    """The engine's redacted view for `seat`; EVERYTHING: nothing hidden."""
    if seat == EVERYTHING:
        view = state.view(None)
        view["zones"] = {z: list(cards) for z, cards in state.zones.items()}
        view["players_vars"] = {k: [v for v in vals] for k, vals in
                                ((k, [_enc(x) for x in v]) for k, v in state.pv.items())}
        view["globals"] = {k: _enc(v) for k, v in state.g.items()}
        return view
    return state.view(seat)


def _enc(value):
    from ..engine.values import encode
    return encode(value)


def seat_table(state, seat, pres: Presentation) -> dict:
    """Everything `seat`'s page shows, built only from what `seat` may see.

    Returns {game, seat, seat_name, phase, round, over, to_move, players: [...],
    zones: [...], cards_vars, question (or None), result (or None)}; zones are
    {name, title, owner, cards: [card dicts] or None, count, kinds}: kinds is
    "5 action card, 1 goal card" for a zone the seat cannot see into in a game of
    several card kinds (what the backs show), else "".
    """
    game = state.game
    view = view_of(state, seat)
    seen = {c for cards in view["zones"].values() if isinstance(cards, list) for c in cards}
    table = {"game": game.name, "seat": seat, "phase": words(view["phase"] or "-"),
             "over": view["over"], "to_move": view.get("to_move"),
             "globals": _globals(view, pres), "players": _players(state, view, pres),
             "zones": _zones(state, view, seen, pres), "question": None, "result": None}
    table["seat_name"] = game.seat_name(seat) if isinstance(seat, int) else "everyone"
    table["cards_vars"] = {c: {k: state.cv[k][c] for k in state.cv} for c in seen}
    table["view"] = view    # the redacted view itself, for drawing boards
    if isinstance(seat, int) and view.get("to_move") == seat and "options" in view:
        table["question"] = question(state, view["options"], pres)
    elif seat == EVERYTHING and state.pending is not None and not state.over:
        table["question"] = question(state, list(state.pending.labels), pres)   # the designer's view
    if state.over:
        table["result"] = result(state, pres)
    return table


def _globals(view, pres) -> list[dict]:
    return [{"name": k, "label": pres.var_label(k), "text": pres.var_text(k, decode(v))}
            for k, v in view["globals"].items() if k not in pres.hidden]


def _players(state, view, pres) -> list[dict]:
    out = []
    for s in range(state.n):
        shown = []
        for name, values in view["players_vars"].items():
            if name in pres.hidden or _is_board_value(decode(values[s])):
                continue
            value = values[s]
            text = "?" if value == "?" else pres.var_text(name, decode(value))
            shown.append({"name": name, "label": pres.var_label(name), "text": text})
        out.append({"seat": s, "name": state.game.seat_name(s), "colour": pres.seat_colour(s),
                    "vars": shown, "to_move": view.get("to_move") == s})
    return out


def _is_board_value(value) -> bool:
    """Layouts and maps keyed by their cells are drawn as boards, not listed."""
    from .render import is_layout
    return is_layout(value) or (isinstance(value, dict) and len(value) > 6)


def _zones(state, view, seen, pres) -> list[dict]:
    out = []
    for name, cards in view["zones"].items():
        zone = Zone(name)
        if zone.base in pres.hidden:
            continue
        entry = {"name": name, "title": pres.zone_title(zone.base), "owner": zone.seat}
        if isinstance(cards, list):
            entry["cards"] = [pres.card(c, {k: state.cv[k][c] for k in state.cv}) for c in cards]
            entry["count"], entry["kinds"] = len(cards), ""
        else:
            entry["cards"], entry["count"] = None, cards["count"]
            entry["kinds"] = kinds_text(state.game, cards["kinds"])
        out.append(entry)
    return out


def kinds_text(game, kinds: dict) -> str:
    """A face-down zone's count of each kind in words ("5 action card, 1 goal card"),
    or "" in a game of one card kind, where its count says it all."""
    if len(game.data.get("cards") or {}) < 2:
        return ""
    return ", ".join(f"{n} {words(kind)}" for kind, n in kinds.items())


def question(state, labels: list[str], pres: Presentation) -> dict:
    """The pending decision for its own seat: the question, its kind and the options
    (label, words, and the card when an option is one)."""
    kind = state.pending.kind
    options = []
    for i, label in enumerate(labels):
        card = pres.card(label) if label in state.game.cards else None
        options.append({"index": i, "label": label, "text": card["text"] if card else words(label),
                        "card": card})
    q = {"prompt": pres.prompt(state), "kind": kind, "options": options}
    numbers = [int(o) for o in labels if o.lstrip("-").isdigit()]
    if kind == "number" and len(numbers) == len(labels):
        q["low"], q["high"] = min(numbers), max(numbers)
    if kind == "bid":
        bids = [int(o[4:]) for o in labels if o.startswith("bid ") and o[4:].isdigit()]
        if bids:
            q["low"], q["high"] = min(bids), max(bids)
    return q


def result(state, pres: Presentation) -> dict:
    """Scores, tie-break values and winners, in seat order."""
    game = state.game
    names = (game.data.get("scoring") or {}).get("tiebreaks") or []
    scores = state.scores()
    rows = []
    for s in range(state.n):
        breaks = [display_value(tb(state, {"p": state.seats[s]}), pres) for tb in game.tiebreaks]
        rows.append({"seat": s, "name": game.seat_name(s), "score": scores[s], "tiebreaks": breaks})
    return {"rows": rows, "tiebreak_names": [str(n) for n in names],
            "winners": [game.seat_name(s) for s in state.winner()], "ended_by": state.ended_by}


def display_value(value, pres) -> str:
    return pres.text(value)


# ------------------------------------------------------------------ the log
def visible_event(state, event: dict, seat, pres: Presentation) -> dict | None:
    """One logged event (decision, chance, change, note, undo, end) as `seat` may
    see it, in words: {"text", "where", "kind"}; None when nothing of it is theirs."""
    if "change" in event:
        return _visible_change(state, event["change"], seat, pres)
    if "decision" in event:
        d = event["decision"]
        who = state.game.seat_name(d["player"])
        if d.get("secret") and seat != EVERYTHING and seat != d["player"]:
            return {"kind": "decision", "text": f"{who} decided (secretly)", "where": ""}
        return {"kind": "decision", "text": f"{who}: {pres.text(d['label'])}", "where": ""}
    if "chance" in event:
        return _visible_chance(state, event, seat, pres)
    if "note" in event:
        return {"kind": "note", "text": str(event["note"]), "where": ""}
    if "undo" in event:
        who = event["undo"].get("player")
        name = state.game.seat_name(who) if who is not None else "someone"
        return {"kind": "undo", "text": f"{name} took back a decision", "where": ""}
    return None


def _visible_chance(state, event, seat, pres):
    kind, details = event["chance"], [decode(d) for d in event.get("details", [])]
    if kind == "shuffle":
        text = f"{pres.zone_title(Zone(details[0]).base)} shuffled" if details else "shuffled"
    elif kind == "roll":
        text = f"die roll (d{details[0]}): {details[1]}"
    elif kind == "pick":
        text = f"random pick among {details[0]}"
    else:
        text = kind
    return {"kind": "chance", "text": text, "where": ""}


def _visible_change(state, record, seat, pres):
    where = pres.provenance(record)
    if seat != EVERYTHING and record.get("on") is not None and record.get("kind") in ("var", "move"):
        return _redacted_change(state, record, seat, pres, where)
    kind, what = record.get("kind"), str(record.get("what"))
    if kind == "move":
        if seat == EVERYTHING or _sees_name(state, record.get("from"), seat) \
                or _sees_name(state, record.get("to"), seat):
            return {"kind": "move", "text": pres.change_text(record), "where": where}
        hidden = dict(record, what="a card")
        return {"kind": "move", "text": "a card: " + pres.change_text(hidden).split(": ", 1)[1],
                "where": where}
    if kind == "forced" and seat != EVERYTHING and what != _name(state, seat):
        # the one option may be a card of a secret choice: only its seat reads it
        return {"kind": kind, "text": f"{what} had a single option", "where": where}
    if kind != "var":
        return {"kind": kind, "text": pres.change_text(record), "where": where}
    base, _, rest = what.partition("[")
    if base in pres.hidden:
        return None
    if seat != EVERYTHING and not _sees_var(state, base, rest.rstrip("]"), seat):
        record = dict(record, **{"from": "?", "to": "?"})
    return {"kind": "var", "text": pres.change_text(record), "where": where}


def _name(state, seat):
    return state.game.seat_name(seat) if isinstance(seat, int) else None


def _redacted_change(state, record, seat, pres, where):
    """A change that says what it touched ("on"): the engine's visibility decides
    (visibility.redact_change, as for `play --trace --seat`); the words stay ours."""
    kind = record.get("kind")
    if kind == "var" and str(record.get("what")).partition("[")[0] in pres.hidden:
        return None
    shown = redact_change(state.game, record, seat)
    if kind == "move" and shown["what"] == HIDDEN_TEXT:
        hidden = dict(record, what="a card")
        return {"kind": "move", "text": "a card: " + pres.change_text(hidden).split(": ", 1)[1],
                "where": where}
    if kind == "var" and shown is None:
        record = dict(record, **{"from": HIDDEN_TEXT, "to": HIDDEN_TEXT})
    elif shown is not None:
        record = shown
    return {"kind": kind, "text": pres.change_text(record), "where": where}


def _sees_name(state, name, seat) -> bool:
    if name is None:
        return False
    zone = as_zone(name, state.game)
    return zone in state.zones and state._sees(zone, seat)


def _sees_var(state, base, key, seat) -> bool:
    decls = state.game.decls
    if base in decls["per_player"]:
        vis = decls["per_player"][base].get("visibility", "public")
        return vis == "public" or (vis == "owner" and key == state.game.seat_name(seat)
                                   if isinstance(seat, int) else False)
    if base in decls["globals"]:
        return decls["globals"][base].get("visibility", "public") == "public"
    if base in decls["per_card"]:
        zone = state.loc.get(key.split("][")[0])
        return zone is not None and state._sees(zone, seat)
    return True
