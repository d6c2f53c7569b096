"""How a game is shown to people: the spec's `presentation:` section, read once.

One module serves the terminal (agents/human.py), the web table (interpreter/web/)
and the replay viewer alike, so a card, a variable or a question reads the same
everywhere. Nothing here changes a game: prompts and templates are words around
the engine's option labels, never the labels themselves.

The spec's section (every key optional; docs/spec-format.md):

    presentation:
      hidden: [turn_step, placement]        # bookkeeping variables nobody is shown
      colours: {dark_green: "#2f6d3a"}      # colour words -> CSS colours
      cards:                                # by card kind (the key under `cards:`)
        region_cards: {show: "{colour} card", colour: colour, icon: "▮"}
      variables:                            # globals, per-player and per-card variables
        coins: {label: "Coins", show: "{value} ¢", icon: "¢"}
      zones: {hand: {title: "Hand"}}
      boards:                               # extra boards to draw (areas without adjacency)
        city: {areas: [market, temple], title: "The town"}

Templates name attributes in braces: `{cost}` is the card's `cost`, `{value}`
the variable's value; an unknown name is left as written. They are filled by
plain text substitution (never str.format or eval): specs are data.

A decision's question comes from its statement's `as "..."` (grammar.lark,
`prompt`); `{name}` in it shows a value the asking rule can read (a local, else a
global or constant, read as the rules read it: _read), `{player}` the
deciding seat. Without one, a default names the kind of decision and its rule.
"""
from __future__ import annotations

from rulespec import ast
from rulespec.scope import PLACEHOLDER

from ..engine.values import Seat, Zone, decode, display

# CSS colour keywords a spec's colour words commonly are (after dropping _ and spaces).
CSS_COLOURS = {
    "black", "white", "red", "blue", "green", "yellow", "orange", "purple", "brown", "pink",
    "grey", "gray", "beige", "gold", "tan", "cyan", "magenta", "violet", "darkgreen",
    "lightgreen", "lightblue", "darkblue", "darkred", "lightgrey", "lightgray", "darkgrey",
    "darkgray", "olive", "navy", "maroon", "khaki", "ivory", "salmon", "turquoise", "silver",
}
SEAT_COLOURS = ("#c0392b", "#2471a3", "#229954", "#b7950b", "#7d3c98")

DEFAULT_PROMPTS = {
    "one": "Choose one",
    "number": "Choose a number",
    "several": "Choose several, then done",
    "menu": "Choose",
    "action": "Your turn: what do you do?",
    "bid": "Bid, or pass",
}


def fill(template: str, values: dict, names=None, show=None) -> str:
    """`template` with each {name} replaced by show(values[name]) (default: display);
    unknown names are kept as written."""
    show = show or (lambda v: display(v, names))

    def one(match):
        key = match.group(1)
        return show(values[key]) if key in values else match.group(0)
    return PLACEHOLDER.sub(one, template)


def words(name: str) -> str:
    """An identifier as words: 'farm_olives' -> 'farm olives'."""
    return str(name).replace("_", " ")


class Presentation:
    """The spec's presentation section with its defaults, for one compiled game."""

    def __init__(self, game):
        self.game = game
        self._readers = {}      # name -> f(state, env) reading it (_read)
        section = game.data.get("presentation") or {}
        self.hidden = set(section.get("hidden") or ())
        self.colours = dict(section.get("colours") or {})
        self.cards = dict(section.get("cards") or {})
        self.variables = dict(section.get("variables") or {})
        self.zones = dict(section.get("zones") or {})
        self.boards = dict(section.get("boards") or {})

    # -------------------------------------------------------------- words
    def seat(self, seat) -> str:
        return self.game.seat_name(int(seat))

    def text(self, value) -> str:
        """A value in words: a card by its template, a seat by its name."""
        if isinstance(value, str) and value in self.game.cards:
            return self.card_text(value)
        return display(value, self.game.player_names or None)

    def css(self, word) -> str | None:
        """A colour word of the spec as a CSS colour, or None when it names none."""
        if word in self.colours:
            return str(self.colours[word])
        name = str(word).replace("_", "").replace(" ", "").lower()
        return name if name in CSS_COLOURS else None

    def seat_colour(self, seat: int) -> str:
        return SEAT_COLOURS[int(seat) % len(SEAT_COLOURS)]

    # -------------------------------------------------------------- cards
    def card_text(self, cid: str) -> str:
        card = self.game.cards[cid]
        style = self.cards.get(card["kind"]) or {}
        if style.get("show"):
            return fill(style["show"], card, show=lambda v: words(display(v, self.game.player_names or None)))
        return words(card["name"])

    def card(self, cid: str, cv: dict | None = None) -> dict:
        """A card for a page: id, text, colour, icon, and its attributes in words.

        cv: its per-card variables' values, when the seat may see them.
        """
        card = self.game.cards[cid]
        style = self.cards.get(card["kind"]) or {}
        colour_attr = style.get("colour", "colour")
        details = {words(k): self.text(v) for k, v in card.items()
                   if k not in ("id", "kind", "name")}
        for k, v in (cv or {}).items():
            if k not in self.hidden:
                details[self.var_label(k)] = self.text(v)
        return {"id": cid, "text": self.card_text(cid), "kind": words(card["kind"]),
                "colour": self.css(card.get(colour_attr)) if colour_attr in card else None,
                "icon": style.get("icon"), "details": details}

    # ---------------------------------------------------------- variables
    def var_label(self, name: str) -> str:
        return str((self.variables.get(name) or {}).get("label") or words(name))

    def var_text(self, name: str, value) -> str:
        style = self.variables.get(name) or {}
        shown = self.text(value)
        if style.get("show"):
            shown = fill(style["show"], {"value": shown})
        return f"{style['icon']} {shown}" if style.get("icon") else shown

    def zone_title(self, base: str) -> str:
        return str((self.zones.get(base) or {}).get("title") or words(base))

    # ---------------------------------------------------------- decisions
    def prompt(self, state) -> str:
        """The pending decision as a question in words ('' when none is pending)."""
        decision = state.pending
        if decision is None or state.over or not state.stack:
            return ""
        frame = state.stack[-1]
        program = self.game.programs[frame.proc]
        instr = program.code[frame.pc] if frame.pc < len(program.code) else None
        node = getattr(instr, "node", None)
        own = getattr(node, "prompt", None)
        if own:
            env = {k: v for k, v in frame.env.items() if not k.startswith("$")}
            env.setdefault("player", Seat(decision.player))   # the deciding seat, by name
            for name in PLACEHOLDER.findall(own):
                if name not in env:     # a global, constant, `nplayers`...: what validate accepts
                    try:
                        env[name] = self._read(name, state)
                    except Exception:   # noqa: BLE001 — a local not yet set: shown as written
                        continue
            return fill(own, env, show=self.text)
        default = DEFAULT_PROMPTS.get(decision.kind, "Choose")
        return default if decision.kind == "action" else f"{default} ({program.rule})"

    def _read(self, name: str, state):
        """The value a rule would read for a name that is no local (a global, a
        constant, `nplayers`...), compiled once per name as the rules compile it."""
        read = self._readers.get(name)
        if read is None:
            read = self._readers[name] = self.game.compile_expression(ast.Name(0, 0, name), ())
        return read(state, {})

    # ------------------------------------------------------------ changes
    def change_text(self, record: dict) -> str:
        """A change record (engine/changes.py) in words, without its provenance."""
        kind, what = record.get("kind"), record.get("what")
        if kind == "move":
            card = self.card_text(what) if what in self.game.cards else words(what)
            return f"{card}: {self._zone_words(record.get('from'))} → {self._zone_words(record.get('to'))}"
        if kind == "order":
            return f"{self._zone_words(what)} shuffled"
        if kind == "phase":
            return f"phase: {words(record.get('to') or '-')}"
        if kind == "end":
            return f"game over: {record.get('to')}"
        if kind == "forced":
            return f"{what} must: {self.text(record.get('to'))}"
        if kind == "pass":
            return f"{what} has no legal action: {record.get('to')}"
        if kind == "log":
            return str(record.get("to"))
        base, _, rest = str(what).partition("[")
        label = self.var_label(base) + (f" [{rest}" if rest else "")
        old, new = decode(record.get("from")), decode(record.get("to"))
        if isinstance(old, int) and isinstance(new, int) and not isinstance(old, bool):
            delta = new - old
            return f"{label}: {old} → {new} ({'+' if delta >= 0 else ''}{delta})"
        return f"{label}: {self.text(old)} → {self.text(new)}"

    def _zone_words(self, name) -> str:
        if name is None:
            return "-"
        base, _, rest = str(name).partition("[")
        return self.zone_title(base) + (f" [{rest}" if rest else "")

    def provenance(self, record: dict) -> str:
        """'action sell, market.yaml:112': the rule and spec line behind a change."""
        file = str(record.get("file") or "").rsplit("/", 1)[-1]
        line = record.get("line")
        return f"{record.get('rule')}, {file}:{line}" if line else str(record.get("rule") or "")


def zone_seat(name: str, game) -> tuple[str, int | None]:
    """('hand', 1) for a zone named 'hand[P2]' as change records name it."""
    base, _, rest = str(name).partition("[")
    if not rest:
        return base, None
    seat_name = rest.rstrip("]")
    for seat in range(game.max_players):
        if game.seat_name(seat) == seat_name:
            return base, seat
    return base, None


def as_zone(name: str, game) -> Zone:
    base, seat = zone_seat(name, game)
    return Zone(base if seat is None else f"{base}@{seat}")
