"""Siena written by hand: the performance anchor for `games/siena.yaml`.

A plain-Python implementation of the game exactly as the spec declares it (its
`assumed:` readings included), 2 to 5 players, for measuring what
interpretation costs (issue 18). Its components -- the Siena, Fato, Senesi and
Artista cards, the Town and the two roads, the constants and the starting
values -- are read from the spec's YAML once; its rules are plain Python
written from the spec's rule texts, with no rulespec code at play time.
tests/benchmarks/test_hand_siena.py plays it in lockstep with rulespec.

    game = new_game(players=4, seed=1)               # or variant="long" (no round limit)
    while not game.is_terminal():
        options = game.legal_actions()               # opaque values
        game.apply(random.choice(options))
    game.scores()                                    # Consent Points per seat
    game.ended_by       # "round limit", "tower finished" or "Lorenzetti booked"

The rules run as a to-do list of small steps (`Siena.todo`, each a function
and immutable arguments), as in castles.py and zena.py: a step that asks a
player leaves the step that takes the answer pending, and play stops there. A
decision with one option is taken without asking, as rulespec does. The state
is plain data, so `clone()` copies it. `option_keys()` names the pending
options with the labels rulespec gives the same options.

Cards are ids as rulespec makes them: the card's name, `name#k` for the k-th
of several alike; which id goes where matters, since rulespec labels a card
choice by its id. A hand, the table and the discard pile list their cards top
first, as rulespec's zones do.

Chance. A face-down pile (`Deck`) is a list of packets, top first: a packet
of several cards has been shuffled and none of it seen yet, a packet of one is
a known card. Taking the top card of an unordered packet is the random event
(which card comes up); of several alike, the first in the spec's order comes
up, and a packet whose cards are all alike decides nothing. That is rulespec's
explicit-chance model (interpreter/engine/chance.py). With `chooser=f`, each
random event asks `f(kind, outcomes)` with outcomes [(value, probability)] in
the spec's card order ("draw": a card name; "pick": a seat's label, P1..) and
takes the value returned; without one, the game's random.Random(seed) decides.
"""
from __future__ import annotations

import random
from functools import lru_cache
from pathlib import Path

import yaml

SPEC = Path(__file__).resolve().parents[2] / "games" / "siena.yaml"
# The variants bench.py measures. new_game(..., variant="long") plays the spec's
# `long` variant too (tests/benchmarks/test_hand_siena.py checks it), but random
# agents can play one of its games for hundreds of thousands of decisions or
# more (no round limit), and bench.py times whole games: it is not listed.
VARIANTS = (None,)

# decision kinds: they say how option_keys() names an option
TURN, MENU, CARD, NUMBER, SEAT, BID = "turn", "menu", "card", "number", "seat", "bid"
DONE, PASS, DECLINE = "done", "pass", "decline"
PEASANT, MERCHANT, BANKER = "peasant", "merchant", "banker"
INN, VIA_DELLA_CERCHIA, PALAZZO_TOLOMEI = "inn", "via_della_cerchia", "palazzo_tolomei"
DUOMO, TOWER_DISTRICT, TOWN_WALLS = "duomo", "torre_del_mangia", "town_walls"
DEAL_DISTRICTS = ("banchi_di_sotto", "via_dei_servi")
LORENZETTI, DEVIL = "ambrogio_lorenzetti", "devil"
ROADS = ("firenze", "arezzo")          # the spec's `choose one of [firenze, arezzo]`

# the spec's menu labels (its `choose by` options), named once
KEEP_FLORINS = "keep all the florins"
ONE_SENESI = "give up 10 florins for a Senesi card"
TWO_SENESI = "give up 15 florins for two Senesi cards, keep one"
LEAVE_INN, LEAD_INTO_INN = "leave the Inn alone", "play an Inn card to lead Calandrino into the Inn"
GIRLFRIENDS_GO_ON, ENTER_INN = "play the Courtesan's girlfriends and go on", "enter the Inn"
STOP_WEDDING = "stop and join the wedding procession"
PAY_WEDDING = "pay 10 florins as a wedding present and go on"
SEND_GIRLFRIEND, PAY_COURTESANS = "play the Courtesan's girlfriends", "pay the Courtesans"
BOOK, NO_BOOK = "book an Artist", "do not book an Artist"
NO_PEEK, PAY_PEEK = "do not look at the Artist", "pay 8 florins to look at the Artist"
INN_PEEK = "play an Inn card to look at the Artist"
GIVE_ALMS, REFUSE_ALMS, PLAY_GUARDS = ("give Calandrino the alms", "refuse and take a stinginess cube",
                                       "play the Guards")
NO_FLOOR, FLOOR, FLOOR_BRICKLAYER = ("do not build", "build the next floor",
                                     "build the next floor with the Bricklayer")
BECOME_MERCHANT, STAY_PEASANT = "become a Merchant", "stay a Peasant"
BECOME_BANKER, STAY_MERCHANT = "become a Banker", "stay a Merchant"


# ------------------------------------------------------------------ components
def _plain(value):
    """A spec value without its `assumed:` notes ({value: v, assumed: ...} -> v)."""
    if isinstance(value, dict):
        if "value" in value:
            return value["value"]
        return {k: v for k, v in value.items() if k != "assumed"}
    return value


class Card:
    """One card's printed attributes (read from the spec; never changed in play)."""
    __slots__ = ("id", "name", "kind", "effect", "cost", "green", "asterisk", "road", "cubes",
                 "goods_value", "florins", "points")

    def __init__(self, attrs: dict):
        for slot in self.__slots__:
            setattr(self, slot, attrs.get(slot))


class Components:
    """What games/siena.yaml (and one of its variants) says about the pieces: cards
    by id in the spec's order, where each starts, the boards, the constants and
    the starting values. Read once per variant; shared by every game."""

    def __init__(self, variant: str | None, spec_path=SPEC):
        """Raises ValueError for a variant the spec does not declare."""
        with open(spec_path, encoding="utf-8") as f:
            data = yaml.load(f, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
        const = {k: _plain(v) for k, v in data["constants"].items()}
        if variant is not None:
            if variant not in (data.get("variants") or {}):
                raise ValueError(f"Siena has no variant {variant!r}")
            const.update(data["variants"][variant]["changes"].get("constants") or {})
        self.const = const
        self.min_players, self.max_players = data["players"]["min"], data["players"]["max"]
        self._read_cards(data["cards"])
        self._read_boards(data["boards"])
        start = {k: v["start"] if isinstance(v, dict) and "start" in v else v
                 for k, v in {**data["globals"], **data["per_player"]}.items()}
        self.globals = {k: start[k] for k in data["globals"]}
        self.per_player = {k: start[k] for k in data["per_player"]}

    def _read_cards(self, declared: dict) -> None:
        """Cards by id (name, or name#k for the k-th of several alike) in the spec's
        order, as rulespec makes them, and the zone each starts in."""
        self.cards: dict[str, Card] = {}
        self.start: dict[str, list[str]] = {}          # zone -> card ids, spec order
        for kind, decl in declared.items():
            for entry in decl["list"]:
                count = entry.get("count", 1)
                for i in range(1, count + 1):
                    cid = entry["name"] if count == 1 else f"{entry['name']}#{i}"
                    self.cards[cid] = Card({**decl.get("attrs", {}), **entry, "id": cid, "kind": kind})
                    self.start.setdefault(decl["in"], []).append(cid)
        self.order = {cid: i for i, cid in enumerate(self.cards)}

    def _read_boards(self, boards: dict) -> None:
        """The Town's ring and extra edges (the ring's step first: next/previous
        take it), its yellow districts, and the roads with their florins."""
        town = boards["town"]
        ring = town["ring"]
        self.successors = {n: [ring[(i + 1) % len(ring)]] for i, n in enumerate(ring)}
        self.predecessors = {n: [ring[i - 1]] for i, n in enumerate(ring)}
        for a, b in town["edges"]:
            self.successors.setdefault(a, []).append(b)
            self.predecessors.setdefault(b, []).append(a)
        self.yellow = {n for n, attrs in _plain(town["nodes"]).items() if attrs.get("yellow")}
        self.roads = {name: boards[name]["path"] for name in ROADS}
        self.road_florins = {name: {n: a.get("florins", 0) for n, a in _plain(boards[name]["nodes"]).items()}
                             for name in ROADS}


@lru_cache(maxsize=None)
def components(variant: str | None = None) -> Components:
    return Components(variant)


# ------------------------------------------------------------------ piles
class Deck:
    """A face-down pile as packets, top first: a packet of several cards is
    shuffled and unseen (which lies where is chance), a packet of one is known."""
    __slots__ = ("packets",)

    def __init__(self, packets=None):
        self.packets = packets if packets is not None else []

    def copy(self) -> Deck:
        return Deck([list(p) for p in self.packets])

    def __len__(self) -> int:
        return sum(len(p) for p in self.packets)

    def cards(self) -> list:
        return [c for p in self.packets for c in p]

    def shuffle(self, cards: list, order: dict) -> None:
        """These cards, and nothing else, shuffled into one unordered packet."""
        self.packets = [sorted(cards, key=order.__getitem__)] if cards else []

    def put_bottom(self, cards) -> None:
        self.packets.extend([c] for c in cards)


class Player:
    """One player's pawns, purse and cards (hands list the newest card first)."""
    __slots__ = ("seat", "florins", "moved_at", "status", "merchant_since", "surcharge",
                 "district", "road", "road_at", "stinginess", "donated", "sold", "deal_done",
                 "salimbeni_done", "sits_out", "hand", "senesi", "artists")

    def __init__(self, seat: int, start: dict):
        self.seat = seat
        self.florins, self.moved_at, self.status = start["florins"], start["moved_at"], start["status"]
        self.merchant_since, self.surcharge = start["merchant_since"], start["surcharge"]
        self.district, self.road, self.road_at = start["district"], start["road"], start["road_at"]
        self.stinginess, self.donated, self.sold = start["stinginess"], start["donated"], []
        self.deal_done, self.salimbeni_done, self.sits_out = False, False, False
        self.hand: list[str] = []
        self.senesi: list[str] = []
        self.artists: list[str] = []

    def copy(self) -> Player:
        other = Player.__new__(Player)
        for slot in Player.__slots__:
            setattr(other, slot, getattr(self, slot))
        other.sold, other.hand = list(self.sold), list(self.hand)
        other.senesi, other.artists = list(self.senesi), list(self.artists)
        return other

    @property
    def wealth(self) -> tuple:
        """Florins, then the last to land on a pile tops it (the spec's `wealth`)."""
        return self.florins, self.moved_at


def unique_labels(labels: list[str]) -> list[str]:
    """Equal labels get ' (2)', ' (3)', as rulespec names equal options."""
    seen: dict[str, int] = {}
    out = []
    for label in labels:
        seen[label] = seen.get(label, 0) + 1
        out.append(label if seen[label] == 1 else f"{label} ({seen[label]})")
    return out


def new_game(players: int, seed: int = 0, chooser=None, variant: str | None = None) -> Siena:
    """A new game run up to its first decision. Raises ValueError for a player count
    or a variant the spec does not have."""
    return Siena(players, seed, chooser, variant)


# ------------------------------------------------------------------ the game
class Siena:
    """A game in progress. API: current_player(), legal_actions(), apply(action),
    option_keys(), is_terminal(), scores(), clone()."""

    def __init__(self, players: int, seed: int = 0, chooser=None, variant: str | None = None):
        comp = self.comp = components(variant)
        if not comp.min_players <= players <= comp.max_players:
            raise ValueError(f"Siena is for {comp.min_players} to {comp.max_players} players, not {players}")
        self.cards, self.const, self.n = comp.cards, comp.const, players
        self.rng, self.rng_shared, self.chooser = random.Random(seed), False, chooser
        self.players = [Player(s, comp.per_player) for s in range(players)]
        g = comp.globals
        self.round, self.pawn_moves, self.initiative = g["round"], g["pawn_moves"], []
        self.beggar_at, self.frame, self.ready = g["beggar_at"], dict(g["frame"]), dict(g["ready"])
        self.inn_cubes, self.tower = g["inn_cubes"], []
        self.labourers_gone, self.wayfarers_gone = g["labourers_gone"], g["wayfarers_gone"]
        start = comp.start
        self.deck = Deck([[c] for c in start["deck"]])
        self.fato, self.senesi_deck = Deck([[c] for c in start["fato"]]), Deck([[c] for c in start["senesi_deck"]])
        self.artista_box, self.artista_deck = list(start["artista_box"]), Deck()
        self.discard: list[str] = []
        self.table: list[str] = []
        self.out_of_play: list[str] = []
        self.todo: list[tuple] = []
        self.pending = None           # (seat, kind, options, step, args)
        self.over, self.ended_by = False, None
        self._set_up()
        self._run()

    # ------------------------------------------------------------- the API
    def current_player(self):
        """The seat that decides now, or None once the game is over."""
        return None if self.pending is None else self.pending[0]

    def legal_actions(self) -> list:
        """The options of the pending decision (do not mutate the list)."""
        return [] if self.pending is None else self.pending[2]

    def apply(self, action) -> None:
        """Answer the pending decision with one of legal_actions(); ValueError otherwise."""
        if self.pending is None or action not in self.pending[2]:
            raise ValueError(f"{action!r} is not a legal action now")
        _, _, _, step, args = self.pending
        self.pending = None
        step(self, *args, action)
        self._run()

    def is_terminal(self) -> bool:
        return self.over

    def scores(self) -> list[int]:
        """Consent Points per seat (the spec's `final_consent`; 0 for a non-Banker)."""
        return [self._final_consent(p) if p.status == BANKER else 0 for p in self.players]

    def clone(self) -> Siena:
        """An independent copy; without a chooser its random events are the ones this
        game would have had. Components are shared."""
        other = Siena.__new__(Siena)
        other.__dict__.update(self.__dict__)      # immutable parts and numbers
        self.rng_shared = other.rng_shared = True  # copied by the first to use it (_random)
        other.players = [p.copy() for p in self.players]
        other.initiative = list(self.initiative)
        other.frame, other.ready, other.tower = dict(self.frame), dict(self.ready), list(self.tower)
        other.deck, other.fato, other.senesi_deck = self.deck.copy(), self.fato.copy(), self.senesi_deck.copy()
        other.artista_box, other.artista_deck = list(self.artista_box), self.artista_deck.copy()
        other.discard, other.table = list(self.discard), list(self.table)
        other.out_of_play, other.todo = list(self.out_of_play), list(self.todo)
        return other

    def option_keys(self) -> list[str]:
        """The pending options named as rulespec labels the same options."""
        if self.pending is None:
            return []
        _, kind, options, _, _ = self.pending
        if kind == TURN:
            return unique_labels([self._action_label(o) for o in options])
        if kind == SEAT:
            return [f"P{s + 1}" for s in options]
        if kind == BID:
            return [PASS if o == PASS else f"bid {o}" for o in options]
        return [str(o) for o in options]

    def _action_label(self, option) -> str:
        what, cid = option
        name = self.cards[cid].name if cid is not None else None
        if what in ("work", "courtesan", "calandrino"):
            return f"play {name}"
        if what == "travel":
            return f"travel with {name}"
        if what in ("mule", "francigena"):
            return f"play {name} with Labourers-Wayfarers cards"
        if what == "inns":
            return "play three Inn cards for 20 florins"
        if what == "business":
            return f"do business in {self.players[self.pending[0]].district}"
        if what == "salimbeni":
            return "play the Piazza Salimbeni card"
        if what == "donate":
            return f"donate {self._donation(self.players[self.pending[0]])} florins to the Duomo"
        return what       # "discard a card", "done"

    # ------------------------------------------------------------- the machine
    def _then(self, *steps) -> None:
        """Run these (function, args) steps, in this order, before anything waiting."""
        self.todo.extend(reversed(steps))

    def _run(self) -> None:
        todo = self.todo
        while todo and self.pending is None and not self.over:
            step, args = todo.pop()
            step(self, *args)

    def _ask(self, seat: int, kind: str, options: list, step, *args) -> None:
        """Let `seat` choose, then step(self, *args, choice). The last thing a step
        does; a single option is taken without asking."""
        if len(options) == 1:
            step(self, *args, options[0])
        else:
            self.pending = (seat, kind, options, step, args)

    def _end_game(self, reason: str) -> None:
        """The game ends now; `reason` is the spec's name for the end."""
        self.over, self.ended_by = True, reason
        self.todo.clear()
        self.pending = None

    # ------------------------------------------------------------- chance
    def _draw(self, deck: Deck):
        """The top card of `deck`, taken off (None when empty): a random event while
        it lies in an unordered packet whose cards are not all alike."""
        if not deck.packets:
            return None
        packet = deck.packets[0]
        if len(packet) == 1 or self.chooser is None:
            card = packet.pop()      # known, or shuffled by the game's generator (_shuffle)
        else:
            card = self._chosen_card(packet)
            packet.remove(card)
        if not packet:
            deck.packets.pop(0)
        return card

    def _chosen_card(self, packet: list) -> str:
        """Which card of an unordered packet comes up, asked of the chooser by name
        (names in the spec's order, each with its share); of equal cards the first
        in the spec's order; all alike: certain, nothing asked."""
        cards, order = self.cards, self.comp.order
        counts: dict[str, int] = {}
        for c in sorted(packet, key=order.__getitem__):
            counts[cards[c].name] = counts.get(cards[c].name, 0) + 1
        if len(counts) == 1:
            name = cards[packet[0]].name
        else:
            name = self.chooser("draw", [(n, k / len(packet)) for n, k in counts.items()])
        return min((c for c in packet if cards[c].name == name), key=order.__getitem__)

    def _random(self) -> random.Random:
        """The game's generator. A clone shares it until either uses it: then that
        one takes a copy, so a clone has the same future as its original."""
        if self.rng_shared:
            rng = random.Random.__new__(random.Random)
            rng.setstate(self.rng.getstate())
            self.rng, self.rng_shared = rng, False
        return self.rng

    def _pick(self, seats: list) -> int:
        """A seat picked at random (the spec's `random_of(players)`)."""
        if self.chooser is None:
            return seats[self._random().randrange(len(seats))]
        label = self.chooser("pick", [(f"P{s + 1}", 1 / len(seats)) for s in seats])
        return seats[[f"P{s + 1}" for s in seats].index(label)]

    def _shuffle(self, deck: Deck, cards: list) -> None:
        """These cards become `deck`, one unordered packet. Without a chooser the
        game's generator orders the packet now, and a draw takes its last card."""
        deck.shuffle(cards, self.comp.order)
        if self.chooser is None and deck.packets:
            self._random().shuffle(deck.packets[0])

    # ------------------------------------------------------------- small rules
    def _gain(self, p: Player, n: int) -> None:
        """Every change of florins moves the pawn onto the top of its pile."""
        if n > 0:
            p.florins += n
            self.pawn_moves += 1
            p.moved_at = self.pawn_moves

    def _pay(self, p: Player, n: int) -> None:
        if n > 0:
            p.florins -= n
            self.pawn_moves += 1
            p.moved_at = self.pawn_moves

    def _pay_what_you_can(self, p: Player, n: int) -> None:
        self._pay(p, min(n, p.florins))

    def _spend(self, p: Player, cid: str) -> None:
        """A played card: an asterisk card leaves the game, the others are discarded."""
        p.hand.remove(cid)
        (self.out_of_play if self.cards[cid].asterisk else self.discard).insert(0, cid)

    def _hand_of(self, p: Player, effect: str) -> list[str]:
        cards = self.cards
        return [c for c in p.hand if cards[c].effect == effect]

    def _holds(self, p: Player, effect: str) -> bool:
        cards = self.cards
        return any(cards[c].effect == effect for c in p.hand)

    def _price(self, p: Player, cid: str) -> int:
        cost = self.cards[cid].cost
        return 0 if cost == 0 else cost + p.surcharge

    def _sellable(self, p: Player):
        const = self.const
        if p.status == PEASANT:
            return const["labour_goods"]
        return const["wayfarer_goods"] if p.status == MERCHANT else ()

    def _donation(self, p: Player) -> int:
        return max(r for r in self.const["donation_brackets"] if r <= p.florins)

    def _place_on_initiative_chart(self) -> None:
        self.initiative = [p.seat for p in sorted(self.players, key=lambda p: p.wealth)]
        for seat, space in zip(self.initiative, self.const["initiative_spaces"]):
            self.players[seat].surcharge = space

    def _next_town(self, district: str) -> str:
        return self.comp.successors[district][0]

    # ------------------------------------------------------------- set-up
    def _set_up(self) -> None:
        """Pawns piled in a random order, the piles shuffled, the Artista deck built
        (Lorenzetti and 2 others shuffled under the other 5), asterisk cards out."""
        left = list(range(self.n))
        while left:
            seat = self._pick(left)
            left.remove(seat)
            self.pawn_moves += 1
            self.players[seat].moved_at = self.pawn_moves
        self._place_on_initiative_chart()
        self._shuffle(self.fato, self.fato.cards())
        self._shuffle(self.senesi_deck, self.senesi_deck.cards())
        box = Deck()
        self._shuffle(box, [c for c in self.artista_box if c != LORENZETTI])
        drawn = [self._draw(box) for _ in range(2)]
        self._shuffle(self.artista_deck, [*drawn, LORENZETTI])
        if box.packets:
            self.artista_deck.packets.insert(0, box.cards())   # the other five, unordered, on top
        self.artista_box = []
        cards = self.cards
        self.table = [c for c in self.deck.cards() if cards[c].asterisk]
        self._shuffle(self.deck, [c for c in self.deck.cards() if not cards[c].asterisk])
        self._then((Siena._opening_lot, (0, 0)))

    def _opening_lot(self, declines: int, i: int) -> None:
        """The opening auction sale: by the Initiative Chart, each may put a face-up
        card up for auction or decline; it ends when all decline in a row."""
        if not self.table or declines >= self.n:
            self._opening_done()
            return
        p = self.players[self.initiative[i % self.n]]
        if len(p.hand) < self.const["hand_limit"] and p.florins >= self.const["opening_bid"]:
            self._ask(p.seat, CARD, self.table + [DECLINE], Siena._opening_lot_chosen, declines, i, p.seat)
        else:
            self._opening_lot_chosen(declines, i, p.seat, DECLINE)

    def _opening_lot_chosen(self, declines: int, i: int, seat: int, lot) -> None:
        if lot == DECLINE:
            self.players[seat].sits_out = True
            self._then((Siena._opening_lot, (declines + 1, i + 1)))
            return
        limit = self.const["hand_limit"]
        bidders = tuple(q for q in self.initiative
                        if (q == seat or not self.players[q].sits_out) and len(self.players[q].hand) < limit)
        self._auction(bidders, seat, self.const["opening_bid"], None, Siena._opening_sold, lot, i)

    def _opening_sold(self, lot: str, i: int, winner: int, price: int) -> None:
        self._pay(self.players[winner], price)
        self.table.remove(lot)
        self.players[winner].hand.insert(0, lot)
        for q in self.players:
            q.sits_out = False
        self._then((Siena._opening_lot, (0, i + 1)))

    def _opening_done(self) -> None:
        self._shuffle(self.deck, self.table + self.deck.cards())
        self.table = []
        for q in self.players:
            q.sits_out = False
        self._then((Siena._new_round, ()))

    # ------------------------------------------------------------- auctions
    def _auction(self, order: tuple, starter, opening: int, raises, then, *args) -> None:
        """A bid-or-pass auction among `order` (seats), as the spec's `auction`: the
        starter (if any) holds the opening bid; each in turn passes (and is out) or
        raises by at least raises[status] (1 when None), up to their florins. Then
        then(self, *args, winner, price); no winner: (None, 0)."""
        turn = order.index(starter) + 1 if starter is not None and starter in order else 0
        self._bidding((order, order, starter, opening, turn, raises, then, args))

    def _bidding(self, auction: tuple) -> None:
        order, active, high, price, turn, raises, then, args = auction
        while True:
            rivals = [b for b in active if b != high]
            if not rivals:
                then(self, *args, high, price if high is not None else 0)
                return
            for k in range(len(order)):
                if order[(turn + k) % len(order)] in rivals:
                    turn = (turn + k) % len(order)
                    break
            bidder = self.players[order[turn]]
            step = 1 if raises is None else raises[bidder.status]
            low = price + step if high is not None else price
            if low <= bidder.florins:
                bids = [PASS, *range(low, bidder.florins + 1)]
                self._ask(bidder.seat, BID, bids, Siena._bid,
                          (order, active, high, price, turn, raises, then, args))
                return
            active = tuple(b for b in active if b != bidder.seat)

    def _bid(self, auction: tuple, bid) -> None:
        order, active, high, price, turn, raises, then, args = auction
        bidder = order[turn]
        if bid == PASS:
            active = tuple(b for b in active if b != bidder)
        else:
            high, price = bidder, bid
        self._bidding((order, active, high, price, turn + 1, raises, then, args))

    # ------------------------------------------------------------- several at once
    def _choose_several(self, seat: int, items: tuple, n: int, up_to: bool, then, args, picked=()) -> None:
        """The spec's `choose [up to] n of items`: one item at a time, "done" to stop
        (with `up to` any time; else once n are picked or none is left). Then
        then(self, *args, picked)."""
        options = list(items) if len(picked) < n else []
        if up_to or len(picked) >= n or not items:
            options.append(DONE)
        self._ask(seat, CARD, options, Siena._picked, seat, items, n, up_to, then, args, picked)

    def _picked(self, seat, items, n, up_to, then, args, picked, choice) -> None:
        if choice == DONE:
            then(self, *args, picked)
            return
        picked = picked + (choice,)
        if len(picked) >= n and not up_to:
            then(self, *args, picked)
            return
        rest = list(items)
        rest.remove(choice)
        self._choose_several(seat, tuple(rest), n, up_to, then, args, picked)

    # ------------------------------------------------------------- a round
    def _new_round(self) -> None:
        """1. The round cube moves on; the Card Drawing Phase a) to c)."""
        self.round += 1
        self._place_on_initiative_chart()
        for _ in range(2 * self.n):
            if not self.deck.packets:
                if not self.discard:
                    break
                self._shuffle(self.deck, self.discard)
                self.discard = []
            self.table.insert(0, self._draw(self.deck))
        self._then(*[(Siena._offer_cards, (seat,)) for _ in range(2) for seat in self.initiative],
                   (Siena._asterisk_auction, ()))

    def _offer_cards(self, seat: int) -> None:
        """c) poorest first: a card without the asterisk at its price, or pass."""
        p, cards = self.players[seat], self.cards
        offer = [c for c in self.table if not cards[c].asterisk and self._price(p, c) <= p.florins]
        if len(p.hand) < self.const["hand_limit"] and offer:
            self._ask(seat, CARD, offer + [PASS], Siena._card_bought, seat)

    def _card_bought(self, seat: int, cid: str) -> None:
        if cid != PASS:
            p = self.players[seat]
            self._pay(p, self._price(p, cid))
            self.table.remove(cid)
            p.hand.insert(0, cid)

    def _asterisk_auction(self) -> None:
        """d) e) the asterisk card with the lowest green number is auctioned."""
        cards = self.cards
        stars = sorted((c for c in self.table if cards[c].asterisk), key=lambda c: cards[c].green)
        if stars:
            limit = self.const["hand_limit"]
            bidders = tuple(s for s in self.initiative if len(self.players[s].hand) < limit)
            self._auction(bidders, None, self.const["opening_bid"], None, Siena._asterisk_sold, stars[0])
        else:
            self._clear_table()

    def _asterisk_sold(self, lot: str, winner, price: int) -> None:
        self.table.remove(lot)
        if winner is not None:
            self._pay(self.players[winner], price)
            self.players[winner].hand.insert(0, lot)
        else:
            self.discard.insert(0, lot)
        self._clear_table()

    def _clear_table(self) -> None:
        """f) the asterisk cards stay, the others are discarded; then the Actions Phase."""
        cards = self.cards
        gone = [c for c in self.table if not cards[c].asterisk]
        self.discard[:0] = gone
        self.table = [c for c in self.table if cards[c].asterisk]
        self._ask(self.initiative[0], SEAT, list(self.initiative), Siena._first_player)

    def _first_player(self, first: int) -> None:
        i = self.initiative.index(first)
        order = self.initiative[i:] + self.initiative[:i]
        self._then(*[(Siena._take_turn, (seat,)) for seat in order], (Siena._round_over, ()))

    def _round_over(self) -> None:
        limit = self.const["round_limit"]
        if limit > 0 and self.round >= limit:
            self._end_game("round limit")
        else:
            self._then((Siena._new_round, ()))

    # ------------------------------------------------------------- a turn
    def _take_turn(self, seat: int) -> None:
        p = self.players[seat]
        p.sold, p.deal_done, p.salimbeni_done = [], False, False
        self._then((Siena._turn, (seat,)), (Siena._turn_over, (seat,)))
        if p.status == BANKER:
            self._gain(p, self.const["banker_income"])
            self._banker_moves(p)

    def _turn(self, seat: int) -> None:
        self._ask(seat, TURN, self._turn_options(self.players[seat]) + [(DONE, None)], Siena._action, seat)

    def _turn_options(self, p: Player) -> list:
        """The legal actions (the spec's `actions:` whose `when` holds), each (what, card)."""
        options, cards = [], self.cards
        peasant, merchant, banker = p.status == PEASANT, p.status == MERCHANT, p.status == BANKER
        has_workers = peasant and self._holds(p, "workers")
        inns = 0
        for cid in p.hand:
            card = cards[cid]
            effect = card.effect
            if effect == "workers" and (peasant or (merchant and not card.road)):
                options.append(("work", cid))
            if card.road and merchant:
                options.append(("travel", cid))
            if effect == "mule" and has_workers:
                options.append(("mule", cid))
            elif effect == "via_francigena" and has_workers:
                options.append(("francigena", cid))
            elif effect == "courtesan":
                options.append(("courtesan", cid))
            elif effect == "calandrino":
                options.append(("calandrino", cid))
            elif effect == "inn":
                inns += 1
        if inns >= 3:
            options.append(("inns", None))
        if banker:
            district = p.district
            if district in DEAL_DISTRICTS and not p.deal_done and self._holds(p, district):
                options.append(("business", None))
            if (district == "piazza_salimbeni" and not p.salimbeni_done
                    and self._holds(p, "piazza_salimbeni")):
                options.append(("salimbeni", None))
            if (district == DUOMO and not p.donated and p.florins >= self.const["donation_brackets"][0]
                    and len(self.senesi_deck) > 0):
                options.append(("donate", None))
        if p.hand:
            options.append(("discard a card", None))
        return options

    def _action(self, seat: int, option) -> None:
        what, cid = option
        if what == DONE:
            return
        self._then((Siena._turn, (seat,)))
        p = self.players[seat]
        ACTIONS[what](self, p, cid)

    def _turn_over(self, seat: int) -> None:
        p = self.players[seat]
        self._then((Siena._rise_in_status, (seat,)))
        if p.status == BANKER:
            self._build_a_floor(p)

    # ------------------------------------------------------------- producing goods
    def _place_workers(self, p: Player, played) -> list[str]:
        """The played cards' cubes into the frames (where their workers are still in
        play); a full frame makes a good ready. Returns the goods placed, in order."""
        goods, threshold, frame = self.const["goods"], self.const["threshold"], self.frame
        placed = []
        for cid in played:
            cubes = self.cards[cid].cubes
            if p.road is not None and cubes[3] + cubes[4] > 0:
                p.road, p.road_at = None, "siena"
            for g, k in zip(goods, cubes):
                if k > 0 and self._workers_present(g):
                    frame[g] += k
                    if g not in placed:
                        placed.append(g)
        for g in placed:
            while frame[g] >= threshold[g]:
                frame[g] -= threshold[g]
                self.ready[g] += 1
        return placed

    def _workers_present(self, good: str) -> bool:
        if good in self.const["labour_goods"]:
            return not self.labourers_gone
        return not self.wayfarers_gone

    def _sell(self, seat: int, placed: tuple, per_good: int) -> None:
        """Sells the next good it may (one of each a turn, two with the Mule); each
        sale earns its price, and Bankers share in a Merchant's."""
        p = self.players[seat]
        sellable = self._sellable(p)
        for g in placed:
            if g in sellable and self.ready[g] > 0 and p.sold.count(g) < per_good:
                self.ready[g] -= 1
                p.sold.append(g)
                self._then((Siena._bankers_share, (seat, g)), (Siena._sell, (seat, placed, per_good)))
                self._earn(p, self.const["price"][g])
                return

    def _bankers_share(self, seat: int, good: str) -> None:
        """The trigger: a Merchant sells cloth or spices, every Banker earns 3."""
        if self.players[seat].status == MERCHANT and good in self.const["wayfarer_goods"]:
            for b in self.players:
                if b.status == BANKER:
                    self._gain(b, self.const["merchant_share"])

    def _earn(self, p: Player, n: int) -> None:
        """Florins earned; a Merchant earning 10 or more may trade some for Senesi cards."""
        const = self.const
        if p.status == MERCHANT and n >= const["senesi_for_one"] and len(self.senesi_deck) > 0:
            options = [KEEP_FLORINS, ONE_SENESI]
            if n >= const["senesi_for_two"] and len(self.senesi_deck) >= 2:
                options.append(TWO_SENESI)
            self._ask(p.seat, MENU, options, Siena._earn_traded, p.seat, n)
        else:
            self._gain(p, n)

    def _earn_traded(self, seat: int, n: int, answer: str) -> None:
        p, const = self.players[seat], self.const
        if answer == ONE_SENESI:
            n -= const["senesi_for_one"]
            p.senesi.insert(0, self._draw(self.senesi_deck))
        elif answer == TWO_SENESI:
            n -= const["senesi_for_two"]
            choice = []
            for _ in range(2):
                choice.insert(0, self._draw(self.senesi_deck))
            self._ask(seat, CARD, choice, Siena._senesi_kept, seat, n, tuple(choice))
            return
        self._gain(p, n)

    def _senesi_kept(self, seat: int, n: int, choice: tuple, kept: str) -> None:
        p = self.players[seat]
        p.senesi.insert(0, kept)
        self.senesi_deck.put_bottom(c for c in choice if c != kept)
        self._gain(p, n)

    def _work_the_land(self, p: Player, cid: str) -> None:
        placed = self._place_workers(p, [cid])
        self._spend(p, cid)
        self._sell(p.seat, tuple(placed), 1)

    def _travel(self, p: Player, cid: str) -> None:
        cards = self.cards
        companions = tuple(d for d in p.hand if d != cid and cards[d].effect == "workers" and cards[d].road)
        self._choose_several(p.seat, companions, len(companions), True, Siena._travel_with, (p.seat, cid))

    def _travel_with(self, seat: int, cid: str, more: tuple) -> None:
        played = (cid,) + more
        if self.players[seat].road is None:
            self._ask(seat, CARD, list(self.comp.roads), Siena._journey, seat, played)
        else:
            self._journey(seat, played, self.players[seat].road)

    def _journey(self, seat: int, played: tuple, road: str) -> None:
        """One space per card, never beyond the city; the city pays most and ends it."""
        p = self.players[seat]
        p.road = road
        path = self.comp.roads[road]
        for _ in played:
            i = path.index(p.road_at)
            if i + 1 < len(path):
                p.road_at = path[i + 1]
        reached = p.road_at
        self._place_workers(p, played)
        for d in played:
            self._spend(p, d)
        profit = self.comp.road_florins[road].get(reached, 0)
        if reached == path[-1]:
            p.road, p.road_at = None, "siena"
        self._earn(p, profit)

    def _choose_workers(self, p: Player, then) -> None:
        """A Labourers-Wayfarers card to lead, and any others with it: then(self, seat, played)."""
        cards = self._hand_of(p, "workers")
        self._ask(p.seat, CARD, cards, Siena._lead_chosen, p.seat, then, tuple(cards))

    def _lead_chosen(self, seat: int, then, cards: tuple, lead: str) -> None:
        rest = tuple(c for c in cards if c != lead)
        self._choose_several(seat, rest, len(rest), True, Siena._workers_chosen, (seat, then, lead))

    def _workers_chosen(self, seat: int, then, lead: str, more: tuple) -> None:
        then(self, seat, (lead,) + more)

    def _lead_the_mule(self, p: Player, cid: str) -> None:
        self._spend(p, cid)
        self._choose_workers(p, Siena._mule_played)

    def _mule_played(self, seat: int, played: tuple) -> None:
        p = self.players[seat]
        placed = self._place_workers(p, played)
        for d in played:
            self._spend(p, d)
        self._sell(seat, tuple(placed), 2)

    def _walk_the_via_francigena(self, p: Player, cid: str) -> None:
        self._spend(p, cid)
        self._choose_workers(p, Siena._francigena_played)

    def _francigena_played(self, seat: int, played: tuple) -> None:
        """Peasants' goods carried out of town, one of each not sold this turn."""
        p = self.players[seat]
        placed = self._place_workers(p, played)
        for d in played:
            self._spend(p, d)
        carried = []
        for g in placed:
            if g in self.const["labour_goods"] and self.ready[g] > 0 and g not in p.sold:
                self.ready[g] -= 1
                p.sold.append(g)
                carried.append(g)
        if carried:
            self._ask(seat, NUMBER, list(range(1, len(self.fato) + 1)), Siena._francigena_walk,
                      seat, tuple(carried))

    def _francigena_walk(self, seat: int, carried: tuple, length: int) -> None:
        drawn = self._reveal_fate(length)
        if DEVIL not in drawn:
            labour = self.const["labour_goods"]
            value = sum(self.cards[d].goods_value[labour.index(g)] for d in drawn for g in carried)
            self._gain(self.players[seat], value)

    def _reveal_fate(self, length: int) -> list[str]:
        """The Fato deck shuffled and `length` cards turned (then put back)."""
        self._shuffle(self.fato, self.fato.cards())
        drawn = [self._draw(self.fato) for _ in range(min(length, len(self.fato)))]
        self.fato.packets[:0] = [[c] for c in drawn]
        return drawn

    # ------------------------------------------------------------- other cards
    def _three_inn_cards(self, p: Player, _cid) -> None:
        for cid in self._hand_of(p, "inn")[:3]:
            self._spend(p, cid)
        self._earn(p, self.const["inn_cards_prize"])

    def _send_a_courtesan(self, p: Player, cid: str) -> None:
        self._spend(p, cid)
        self.inn_cubes += 1
        there = tuple(b.seat for b in self.players if b.status == BANKER and b.district == INN)
        self._courtesan_visits(there, False)

    def _courtesan_visits(self, bankers: tuple, someone_paid: bool, paid: bool = False) -> None:
        someone_paid = someone_paid or paid
        if bankers:
            self._meet_courtesans(self.players[bankers[0]], Siena._courtesan_visits, bankers[1:], someone_paid)
        elif someone_paid:
            self.inn_cubes = 0

    def _meet_courtesans(self, b: Player, then, *args) -> None:
        """10 florins a cube, unless the girlfriends distract: then(self, *args, paid)."""
        if self._holds(b, "girlfriends"):
            self._ask(b.seat, MENU, [SEND_GIRLFRIEND, PAY_COURTESANS], Siena._courtesans_met, b.seat, then, args)
        else:
            self._courtesans_met(b.seat, then, args, PAY_COURTESANS)

    def _courtesans_met(self, seat: int, then, args: tuple, answer: str) -> None:
        b = self.players[seat]
        if answer == SEND_GIRLFRIEND:
            self._spend(b, self._hand_of(b, "girlfriends")[0])
            then(self, *args, False)
        else:
            self._pay_what_you_can(b, self.const["courtesan_fee"] * self.inn_cubes)
            then(self, *args, True)

    def _send_calandrino(self, p: Player, cid: str) -> None:
        self._spend(p, cid)
        greens = tuple(d for d in p.hand if self.cards[d].green > 0)
        self._choose_several(p.seat, greens, len(greens), True, Siena._calandrino_greens, (p.seat,))

    def _calandrino_greens(self, seat: int, extra: tuple) -> None:
        p = self.players[seat]
        steps = 3 + sum(self.cards[d].green for d in extra)
        for d in extra:
            self._spend(p, d)
        if self._holds(p, "inn"):
            self._ask(seat, MENU, [LEAVE_INN, LEAD_INTO_INN], Siena._calandrino_sent, seat, steps)
        else:
            self._beggar_walks(seat, steps, False)

    def _calandrino_sent(self, seat: int, steps: int, answer: str) -> None:
        if answer == LEAD_INTO_INN:
            p = self.players[seat]
            self._spend(p, self._hand_of(p, "inn")[0])
        self._beggar_walks(seat, steps, answer == LEAD_INTO_INN)

    def _beggar_walks(self, mover: int, left: int, into_inn: bool) -> None:
        """One district counter-clockwise (the Inn only if led there); the Bankers
        there, but the mover, are asked for alms."""
        if left <= 0:
            return
        at = self.beggar_at
        if at == INN:
            at = VIA_DELLA_CERCHIA
        elif at == VIA_DELLA_CERCHIA and into_inn:
            at = INN
        else:
            at = self.comp.predecessors[at][0]
        self.beggar_at = at
        left = 0 if at == INN else left - 1
        asked = [(Siena._give_alms, (b.seat,)) for b in self.players
                 if b.seat != mover and b.status == BANKER and b.district == at]
        self._then(*asked, (Siena._beggar_walks, (mover, left, into_inn)))

    def _give_alms(self, seat: int) -> None:
        b, const = self.players[seat], self.const
        if self.beggar_at == DUOMO:
            self._pay_what_you_can(b, const["alms_at_duomo"])
            return
        due = const["alms_at_inn"] if self.beggar_at == INN else const["alms"]
        options = [GIVE_ALMS] if b.florins >= due else []
        options.append(REFUSE_ALMS)
        if self._holds(b, "guards"):
            options.append(PLAY_GUARDS)
        self._ask(seat, MENU, options, Siena._alms_answered, seat, due)

    def _alms_answered(self, seat: int, due: int, answer: str) -> None:
        b = self.players[seat]
        if answer == GIVE_ALMS:
            self._pay(b, due)
        elif answer == REFUSE_ALMS:
            b.stinginess += 1
        else:
            self._spend(b, self._hand_of(b, "guards")[0])

    # ------------------------------------------------------------- the Banker's actions
    def _do_business(self, p: Player, _cid) -> None:
        if len(self._hand_of(p, p.district)) >= 2:
            self._ask(p.seat, NUMBER, [1, 2], Siena._business_done, p.seat)
        else:
            self._business_done(p.seat, 1)

    def _business_done(self, seat: int, n: int) -> None:
        p = self.players[seat]
        for cid in self._hand_of(p, p.district)[:n]:
            self._spend(p, cid)
        p.deal_done = True
        self._earn(p, self.const["district_deal"] * n)

    def _try_piazza_salimbeni(self, p: Player, _cid) -> None:
        self._spend(p, self._hand_of(p, "piazza_salimbeni")[0])
        p.salimbeni_done = True
        self._ask(p.seat, NUMBER, list(range(1, len(self.fato) + 1)), Siena._salimbeni_walk, p.seat)

    def _salimbeni_walk(self, seat: int, length: int) -> None:
        drawn = self._reveal_fate(length)
        if DEVIL not in drawn:
            self._gain(self.players[seat], sum(self.cards[d].florins for d in drawn))

    def _donate_to_the_duomo(self, p: Player, _cid) -> None:
        """Once a game: pay by the red numbers, look at 4 Senesi cards, keep 2."""
        self._pay(p, self._donation(p))
        p.donated = True
        choice = []
        for _ in range(4):
            card = self._draw(self.senesi_deck)
            if card is None:
                break
            choice.insert(0, card)
        self._choose_several(p.seat, tuple(choice), min(2, len(choice)), False,
                             Siena._senesi_chosen, (p.seat, tuple(choice)))

    def _senesi_chosen(self, seat: int, choice: tuple, kept: tuple) -> None:
        self.players[seat].senesi[:0] = kept
        self.senesi_deck.put_bottom(c for c in choice if c not in kept)

    def _discard_a_card(self, p: Player, _cid) -> None:
        self._ask(p.seat, CARD, list(p.hand), Siena._discarded, p.seat)

    def _discarded(self, seat: int, cid: str) -> None:
        self.players[seat].hand.remove(cid)
        self.discard.insert(0, cid)

    # ------------------------------------------------------------- the Banker moves
    def _banker_moves(self, p: Player) -> None:
        """One compulsory step clockwise plus the green numbers played with it."""
        greens = tuple(c for c in p.hand if self.cards[c].green > 0)
        self._choose_several(p.seat, greens, len(greens), True, Siena._banker_greens, (p.seat,))

    def _banker_greens(self, seat: int, extra: tuple) -> None:
        p = self.players[seat]
        points = 1 + sum(self.cards[c].green for c in extra)
        for c in extra:
            self._spend(p, c)
        self._banker_step(seat, points, False, False)

    def _banker_step(self, seat: int, points: int, from_inn: bool, distracted: bool) -> None:
        p = self.players[seat]
        if points <= 0:
            self._banker_stopped(seat)
            return
        here = p.district
        if here == INN:         # "bound to move it out of the Inn"
            p.district, from_inn = VIA_DELLA_CERCHIA, True
        elif here == VIA_DELLA_CERCHIA and not from_inn and not distracted:
            self._ask(seat, CARD, [PALAZZO_TOLOMEI, INN], Siena._banker_forked,
                      seat, points, from_inn, distracted)
            return
        else:
            p.district = self._next_town(here)
        self._banker_arrived(seat, points - 1, from_inn, distracted)

    def _banker_forked(self, seat, points, from_inn, distracted, district: str) -> None:
        self.players[seat].district = district
        self._banker_arrived(seat, points - 1, from_inn, distracted)

    def _banker_arrived(self, seat: int, points: int, from_inn: bool, distracted: bool) -> None:
        p = self.players[seat]
        if p.district == INN:
            self._then((Siena._banker_stopped, (seat,)))
            self._enter_inn(p)
        elif p.district == VIA_DELLA_CERCHIA and self.inn_cubes > 0 and not from_inn:
            if self._holds(p, "girlfriends"):   # the Courtesan draws a passing Banker in
                self._ask(seat, MENU, [GIRLFRIENDS_GO_ON, ENTER_INN], Siena._courtesan_passed,
                          seat, points, from_inn)
            else:
                self._courtesan_passed(seat, points, from_inn, ENTER_INN)
        elif p.district == PALAZZO_TOLOMEI and points > 0:
            options = [STOP_WEDDING]
            if p.florins >= self.const["wedding_present"]:
                options.append(PAY_WEDDING)
            self._ask(seat, MENU, options, Siena._wedding, seat, points, from_inn, distracted)
        else:
            self._banker_step(seat, points, from_inn, distracted)

    def _courtesan_passed(self, seat: int, points: int, from_inn: bool, answer: str) -> None:
        p = self.players[seat]
        if answer == GIRLFRIENDS_GO_ON:
            self._spend(p, self._hand_of(p, "girlfriends")[0])
            self._banker_step(seat, points, from_inn, True)
        else:
            self._then((Siena._banker_stopped, (seat,)))
            self._enter_inn(p)

    def _wedding(self, seat: int, points: int, from_inn: bool, distracted: bool, answer: str) -> None:
        if answer == STOP_WEDDING:
            self._banker_stopped(seat)
        else:
            self._pay(self.players[seat], self.const["wedding_present"])
            self._banker_step(seat, points, from_inn, distracted)

    def _banker_stopped(self, seat: int) -> None:
        p = self.players[seat]
        if p.district in self.comp.yellow:
            self._gain(p, self.const["yellow_income"])

    def _enter_inn(self, p: Player) -> None:
        p.district = INN
        if self.inn_cubes > 0:
            self._meet_courtesans(p, Siena._inn_met, p.seat)
        else:
            self._offer_artist(p)

    def _inn_met(self, seat: int, paid: bool) -> None:
        if paid:
            self.inn_cubes = 0
        self._offer_artist(self.players[seat])

    # ------------------------------------------------------------- artists
    def _offer_artist(self, b: Player) -> None:
        if len(self.artista_deck) > 0 and b.florins >= self.const["artist_opening"]:
            self._ask(b.seat, MENU, [BOOK, NO_BOOK], Siena._artist_offered, b.seat)

    def _artist_offered(self, seat: int, answer: str) -> None:
        if answer != BOOK:
            return
        lot = self._draw(self.artista_deck)
        peeks = [(Siena._peek, (q,)) for q in self.initiative if q != seat
                 and not (self.players[q].status == BANKER and self.players[q].district == INN)]
        self._then(*peeks, (Siena._artist_auction, (seat, lot)))

    def _peek(self, seat: int) -> None:
        """The others may look at the Artist: for 8 florins or an Inn card."""
        q = self.players[seat]
        options = [NO_PEEK]
        if q.florins >= self.const["artist_peek"]:
            options.append(PAY_PEEK)
        if self._holds(q, "inn"):
            options.append(INN_PEEK)
        self._ask(seat, MENU, options, Siena._peeked, seat)

    def _peeked(self, seat: int, answer: str) -> None:
        q = self.players[seat]
        if answer == PAY_PEEK:
            self._pay(q, self.const["artist_peek"])
        elif answer == INN_PEEK:
            self._spend(q, self._hand_of(q, "inn")[0])

    def _artist_auction(self, seat: int, lot: str) -> None:
        self._auction(tuple(self.initiative), seat, self.const["artist_opening"],
                      self.const["artist_raise"], Siena._artist_sold, lot)

    def _artist_sold(self, lot: str, winner: int, price: int) -> None:
        self._pay(self.players[winner], price)
        self.players[winner].artists.insert(0, lot)
        if self.cards[lot].name == LORENZETTI:     # the game ends at once
            self._end_game("Lorenzetti booked")

    # ------------------------------------------------------------- end of a turn
    def _build_a_floor(self, p: Player) -> None:
        const = self.const
        if (p.district == TOWER_DISTRICT and len(self.tower) < 7
                and self.tower.count(p.seat) < const["floors_each"]):
            materials = const["floor_materials"][len(self.tower)]
            options = [NO_FLOOR]
            if p.florins >= materials + const["labour_cost"]:
                options.append(FLOOR)
            if self._holds(p, "bricklayer") and p.florins >= materials:
                options.append(FLOOR_BRICKLAYER)
            self._ask(p.seat, MENU, options, Siena._floor_built, p.seat, materials)

    def _floor_built(self, seat: int, materials: int, answer: str) -> None:
        p = self.players[seat]
        if answer == NO_FLOOR:
            return
        if answer == FLOOR:
            self._pay(p, materials + self.const["labour_cost"])
        else:
            self._spend(p, self._hand_of(p, "bricklayer")[0])
            self._pay(p, materials)
        self.tower.append(seat)
        if len(self.tower) >= 7:                   # the game ends at once
            self._end_game("tower finished")

    def _rise_in_status(self, seat: int) -> None:
        p, const = self.players[seat], self.const
        if p.status == PEASANT and p.florins >= const["merchant_at"]:
            self._ask(seat, MENU, [BECOME_MERCHANT, STAY_PEASANT], Siena._risen, seat)
        elif p.status == MERCHANT and p.florins >= const["banker_at"] and p.merchant_since < self.round:
            self._ask(seat, MENU, [BECOME_BANKER, STAY_MERCHANT], Siena._risen, seat)
        else:
            self._workers_leave()

    def _risen(self, seat: int, answer: str) -> None:
        p = self.players[seat]
        if answer == BECOME_MERCHANT:
            p.status, p.merchant_since = MERCHANT, self.round
        elif answer == BECOME_BANKER:
            p.status, p.district, p.road, p.road_at = BANKER, TOWN_WALLS, None, "siena"
        self._workers_leave()

    def _workers_leave(self) -> None:
        """No Peasant left: no more Labourers; everyone a Banker: no more Wayfarers."""
        if not self.labourers_gone and all(q.status != PEASANT for q in self.players):
            self.labourers_gone = True
            for g in self.const["labour_goods"]:
                self.frame[g] = 0
        if not self.wayfarers_gone and all(q.status == BANKER for q in self.players):
            self.wayfarers_gone = True
            for g in self.const["wayfarer_goods"]:
                self.frame[g] = 0

    # ------------------------------------------------------------- the final count
    def _final_consent(self, p: Player) -> int:
        const = self.const
        bankers = sorted((q for q in self.players if q.status == BANKER), key=lambda q: q.wealth)
        if p is bankers[-1]:
            place = const["richest_place"]
        elif p is bankers[0] and len(bankers) > 2:
            place = const["poorest_place"]
        else:
            place = const["middle_place"]
        cards = self.cards
        floors = sum(const["floor_points"][i] for i, s in enumerate(self.tower) if s == p.seat)
        in_hand = sum(cards[c].points for c in p.senesi) + sum(cards[c].points for c in p.artists) + floors
        most = max(self.tower.count(q.seat) for q in self.players)
        holder = next((s for s in self.tower if self.tower.count(s) == most), None)
        bonus = const["most_floors_bonus"] if holder == p.seat else 0
        return place - p.stinginess * (p.stinginess + 1) // 2 + in_hand + bonus


ACTIONS = {
    "work": Siena._work_the_land, "travel": Siena._travel, "mule": Siena._lead_the_mule,
    "francigena": Siena._walk_the_via_francigena, "inns": Siena._three_inn_cards,
    "courtesan": Siena._send_a_courtesan, "calandrino": Siena._send_calandrino,
    "business": Siena._do_business, "salimbeni": Siena._try_piazza_salimbeni,
    "donate": Siena._donate_to_the_duomo, "discard a card": Siena._discard_a_card,
}
