"""Zena 1814 written by hand: the performance anchor for `games/zena.yaml`.

A plain-Python implementation of the game exactly as the spec declares it
(the Beginner game, and the `advanced` variant), for measuring what
interpretation costs (issue 18). It reads its components -- every card and
its attributes, the constants of the variant -- from the spec through
`load_game(...)` once, then plays with dicts, lists and small classes: no
rulespec engine at play time. Where the spec says something the rulebook
would not, the anchor follows the spec (see benchmarks/hand/README.md).

    game = new_game(players=4, seed=1)                 # or variant="advanced"
    while not game.is_terminal():
        options = game.legal_actions()                  # opaque values
        game.apply(random.choice(options))
    game.scores()                                       # Prestige Points per seat

The rules run as a to-do list of small steps (`Zena.todo`): a step does its
part and schedules what follows; a step that asks a player stores the step
that takes the answer (`Zena.pending`) and play stops there. A decision with
one option is taken without asking, as rulespec does by default. The state is
plain data (the to-do list holds functions and immutable arguments), so
`clone()` copies it. `option_keys()` names the pending options with the
labels rulespec gives the same options, so a differential test can compare
the two (tests/benchmarks/test_hand_zena.py).

Chance. Every random event goes through a chooser: `RandomChance`
(random.Random(seed)) by default, or one that feeds the outcomes of another
engine (the differential test feeds rulespec's).
A shuffled deck is unordered where no card has been drawn yet (`Deck.lo:hi`);
cards put on top of it or at its bottom are known. Taking or turning the top
card is a chance event (which card comes up) while it lies in the unordered
part, a plain read once it is known. That is rulespec's explicit-chance model
(interpreter/engine/chance.py), so both can be given the same outcomes;
with RandomChance a draw from the unordered part simply takes the top card of
the shuffled list.
"""
from __future__ import annotations

import random
from functools import lru_cache
from pathlib import Path

SPEC = Path(__file__).resolve().parents[2] / "games" / "zena.yaml"
VARIANTS = (None, "advanced")     # the spec's variants this module plays

# decision kinds: they say how option_keys() names an option
TURN, OFFER, CARD, MENU, PAWN, AREA, NUMBER, SEAT = (
    "turn", "offer", "card", "menu", "pawn", "area", "number", "seat")
DONE, DECLINE = ("done",), ("decline",)
TAKE_COIN, TAKE_CARD = ("take_coin",), ("take_card",)
REDRAW, KEEP_HAND = "discard them all and draw a new hand", "keep this hand"
SPEND, KEEP_COIN = "spend 1 coin for 2 prestige points", "keep the coin"
DRAW_ACTION, DRAW_GOAL = "draw an Action card", "draw a Goal card"


class Card:
    """One card's printed attributes (read from the spec; never changed in play)."""
    __slots__ = ("id", "name", "kind", "area", "type", "costs", "gain_coins", "gain_points",
                 "gain_cards", "bonus", "destroys", "goal", "income", "bank_mod", "port_mod",
                 "fort_battle")

    def __init__(self, attrs: dict):
        for slot in self.__slots__:
            setattr(self, slot, attrs.get(slot))


class Components:
    """The spec's cards by id, the decks they start in (spec order), and the
    constants of one variant. Built once per variant; shared by every game."""

    def __init__(self, variant: str | None):
        from interpreter import load_game     # set-up only: the rules never call the engine
        game = load_game(str(SPEC), variant=variant)
        self.cards = {cid: Card(attrs) for cid, attrs in game.cards.items()}
        self.decks: dict[str, list[str]] = {}
        for cid, zone in game.card_start.items():
            self.decks.setdefault(zone, []).append(cid)
        self.const = game.data["constants"]
        self.min_players, self.max_players = game.min_players, game.max_players


@lru_cache(maxsize=None)
def components(variant: str | None = None) -> Components:
    """The components of `variant` (None: the Beginner game), loaded once."""
    return Components(variant)


class RandomChance:
    """Random events from random.Random(seed). Methods: shuffle(deck, ids) -> new
    order; draw(deck, ids) -> index drawn from an unordered deck; roll(sides) ->
    1..sides; pick(n) -> 0..n-1."""

    def __init__(self, seed: int):
        self.rng = random.Random(seed)

    def shuffle(self, deck: str, ids: list) -> list:
        ids = list(ids)
        self.rng.shuffle(ids)
        return ids

    def draw(self, deck: str, ids: list) -> int:
        return 0        # the list was shuffled: its top card is a random one

    def roll(self, sides: int) -> int:
        return self.rng.randint(1, sides)

    def pick(self, n: int) -> int:
        return self.rng.randrange(n)

    def copy(self) -> "RandomChance":
        other = RandomChance.__new__(RandomChance)
        other.rng = random.Random()
        other.rng.setstate(self.rng.getstate())
        return other


class Deck:
    """A face-down pile, top first. cards[lo:hi] is its unordered part: shuffled and
    not drawn yet, so which card lies where in it is chance; cards put on top
    (before lo) or at the bottom (from hi) are known. lo == hi: all known."""
    __slots__ = ("name", "cards", "lo", "hi")

    def __init__(self, name: str, cards: list, lo: int = 0, hi: int = 0):
        self.name, self.cards, self.lo, self.hi = name, cards, lo, hi

    def copy(self) -> "Deck":
        return Deck(self.name, list(self.cards), self.lo, self.hi)

    def put_top(self, ids) -> None:
        self.cards[:0] = ids
        if self.hi:
            self.lo, self.hi = self.lo + len(ids), self.hi + len(ids)

    def put_bottom(self, ids) -> None:
        self.cards.extend(ids)

    def shuffled(self, order: list) -> None:
        self.cards[:] = order
        self.lo, self.hi = (0, len(order)) if len(order) > 1 else (0, 0)

    def take_top(self, chance):
        """The top card, taken off (None when empty): a chance event when it lies in
        the unordered part, which then shrinks (unless the cards there are all
        alike); one card left there is known."""
        cards = self.cards
        if not cards:
            return None
        if self.hi and not self.lo:
            part = cards[:self.hi]
            alike = len({c.partition("#")[0] for c in part}) == 1   # certain: no chance event
            card = cards.pop(0 if alike else chance.draw(self.name, part))
            self.hi -= 1
        else:
            card = cards.pop(0)
            if self.hi:
                self.lo, self.hi = self.lo - 1, self.hi - 1
        if self.hi - self.lo < 2:
            self.lo = self.hi = 0
        return card


class Player:
    """One family: purse, score, cubes, pawns (pawn -> area) and hand (newest first)."""
    __slots__ = ("seat", "coins", "points", "cubes_free", "pawns", "under", "hand",
                 "goal_points", "gift", "placement")

    def __init__(self, seat: int, pawn_names: list, cubes: int):
        self.seat, self.coins, self.points, self.cubes_free = seat, 0, 0, cubes
        self.pawns = dict.fromkeys(pawn_names, None)
        self.under = dict.fromkeys(pawn_names, 0)
        self.hand: list[str] = []
        self.goal_points = 0
        self.gift = None              # Festa a-o Paxo: the card to pass right
        self.placement = ()           # Advanced Round 0: one card per pawn

    def copy(self) -> "Player":
        other = Player.__new__(Player)
        other.seat, other.coins, other.points = self.seat, self.coins, self.points
        other.cubes_free, other.pawns, other.under = self.cubes_free, dict(self.pawns), dict(self.under)
        other.hand, other.goal_points = list(self.hand), self.goal_points
        other.gift, other.placement = self.gift, self.placement
        return other


def new_game(players: int, seed: int = 0, variant: str | None = None, chooser=None) -> "Zena":
    """A new game run up to its first decision. `chooser`: the random events'
    source (default RandomChance(seed)). Raises ValueError for a player count the
    spec does not allow."""
    return Zena(players, seed, variant, chooser)


class Zena:
    """A game in progress. API: current_player(), legal_actions(), apply(action),
    option_keys(), is_terminal(), scores(), clone()."""

    def __init__(self, players: int, seed: int = 0, variant: str | None = None, chooser=None):
        comp = components(variant)
        if not comp.min_players <= players <= comp.max_players:
            raise ValueError(f"Zena 1814 is for {comp.min_players} to {comp.max_players} players, not {players}")
        self.cards, self.const = comp.cards, comp.const
        self.n = players
        self.chance = chooser if chooser is not None else RandomChance(seed)
        self.advanced = self.const["advanced"]
        self.areas = self.const["areas"]
        self.pawn_names = self.const["pawn_names"]
        self.per_card = 2 if self.advanced and players <= 3 else 1     # cubes per family per card
        self.players = [Player(s, self.pawn_names, self.const["cube_supply"]) for s in range(players)]
        self.decks = {name: Deck(name, list(comp.decks.get(name, [])))
                      for name in ("action_deck", "goal_deck", "fort_deck", "event_deck")}
        self.play: list[str] = []                 # cards in play, oldest first
        self.cubes: dict[str, list[int]] = {}     # card in play -> seats of its cubes, top first
        self.placed_in: dict[str, str] = {}       # card in play -> its area
        self.resolved_round: dict[str, int] = {}
        self.ruse_moved: set[str] = set()
        self.battles_won: list[str] = []
        self.round, self.first_player, self.event, self.boost = 0, 0, None, 0
        self.todo: list[tuple] = []               # steps still to run, the next one last
        self.pending = None                       # (seat, kind, options, step, args)
        self.over = False
        self._set_up()
        self._run()

    # ------------------------------------------------------------------ API
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
        """Prestige Points per seat (final once the game is over)."""
        return [p.points for p in self.players]

    def clone(self) -> "Zena":
        """An independent copy; with the default chooser its future random events
        are the ones this game would have had. Components are shared."""
        other = Zena.__new__(Zena)
        other.__dict__.update(self.__dict__)      # the immutable parts and the numbers
        if isinstance(self.chance, RandomChance):
            other.chance = self.chance.copy()
        other.players = [p.copy() for p in self.players]
        other.decks = {name: deck.copy() for name, deck in self.decks.items()}
        other.play, other.battles_won = list(self.play), list(self.battles_won)
        other.cubes = {cid: list(cubes) for cid, cubes in self.cubes.items()}
        other.placed_in, other.resolved_round = dict(self.placed_in), dict(self.resolved_round)
        other.ruse_moved, other.todo = set(self.ruse_moved), list(self.todo)
        return other

    def option_keys(self) -> list[str]:
        """The pending options named as rulespec labels the same options."""
        if self.pending is None:
            return []
        _, kind, options, _, _ = self.pending
        if kind == TURN or kind == OFFER:
            return [self._action_key(o) for o in options]
        if kind == SEAT:
            return [f"P{s + 1}" for s in options]
        return [str(o) for o in options]

    def _action_key(self, option) -> str:
        what = option[0]
        if what == "move":
            return f"move {option[1]} to {option[2]}"
        if what == "promote":
            card = self.cards[option[1]]
            return f"promote {card.id} at {card.area} for {card.costs[0]}"
        if what == "influence":
            cid = option[1]
            return f"influence {cid} at {self.placed_in[cid]} for {self.cards[cid].costs[len(self.cubes[cid])]}"
        return {"take_coin": "take a coin", "take_card": "take a card"}.get(what, what)

    # ------------------------------------------------------------ the machine
    def _then(self, *steps) -> None:
        """Run these (function, args) steps, in this order, before anything waiting."""
        self.todo.extend(reversed(steps))

    def _run(self) -> None:
        todo = self.todo
        while todo and self.pending is None:
            step, args = todo.pop()
            step(self, *args)

    def _ask(self, seat, kind, options, step, *args) -> None:
        """Let `seat` choose, then step(self, *args, choice). The last thing a step
        does; a single option is taken without asking."""
        if len(options) == 1:
            step(self, *args, options[0])
        else:
            self.pending = (seat, kind, options, step, args)

    # ------------------------------------------------------------ helpers
    def _shuffle(self, deck: Deck) -> None:
        deck.shuffled(self.chance.shuffle(deck.name, deck.cards))

    def _draw(self, deck: Deck):
        """The top card of `deck` (a chance event while it is unordered), or None."""
        return deck.take_top(self.chance)

    def _draw_into(self, deck: Deck, hand: list) -> None:
        card = self._draw(deck)
        if card is not None:
            hand.insert(0, card)

    def _clockwise_from(self, seat: int) -> list[int]:
        n = self.n
        return [(seat + i) % n for i in range(n)]

    def _cards_at(self, area: str) -> list[str]:
        placed_in = self.placed_in
        return [c for c in self.play if placed_in[c] == area]

    # ------------------------------------------------------------ set-up
    def _set_up(self) -> None:
        """Set-up 2-7 (games/zena.yaml `flow`), then Round 0 and the rounds."""
        decks = self.decks
        events = decks["event_deck"]
        self._shuffle(events)
        self._draw(events)                        # one Event removed unseen
        if not self.advanced:
            action = decks["action_deck"]
            action.cards = [c for c in action.cards if self.cards[c].area != "streets"]
            decks["fort_deck"].cards.clear()
            decks["goal_deck"].cards.clear()
        for name in ("action_deck", "fort_deck", "goal_deck"):
            self._shuffle(decks[name])
        placement = Zena._advanced_placement if self.advanced else Zena._beginner_placement
        self._then(*[(Zena._deal_hand, (seat,)) for seat in range(self.n)], (placement, ()))

    def _deal_hand(self, seat: int) -> None:
        player = self.players[seat]
        for _ in range(self.const["opening_hand"]):
            self._draw_into(self.decks["action_deck"], player.hand)
        if all(self.cards[c].costs[0] >= self.const["redraw_cost"] for c in player.hand):
            self._ask(seat, MENU, [REDRAW, KEEP_HAND], Zena._hand_kept, seat)
        else:
            player.coins = self.const["start_coins"]

    def _hand_kept(self, seat: int, answer: str) -> None:
        player, deck = self.players[seat], self.decks["action_deck"]
        if answer == REDRAW:
            deck.put_bottom(player.hand)
            player.hand = []
            for _ in range(self.const["opening_hand"]):
                self._draw_into(deck, player.hand)
        player.coins = self.const["start_coins"]

    def _beginner_placement(self) -> None:
        """Round 0: each reveals a card; an Heir there, the rest in the following areas."""
        self.first_player = self.chance.pick(self.n)
        deck, order = self.decks["action_deck"], self.const["placement_order"]
        revealed = []
        for seat in self._clockwise_from(self.first_player):
            card = self._draw(deck)
            revealed.insert(0, card)
            i = order.index(self.cards[card].area)
            pawns = self.players[seat].pawns
            for k, pawn in enumerate(("heir1", "heir2", "lady", "lord")):
                pawns[pawn] = order[(i + k) % len(order)]
        deck.put_top(revealed)
        self._shuffle(deck)
        self._then((Zena._next_round, ()))

    def _advanced_placement(self) -> None:
        """Round 0, Advanced: four cards chosen in secret, one per pawn."""
        self._then(*[(Zena._pick_placement, (seat, ())) for seat in range(self.n)],
                   (Zena._placed, ()))

    def _pick_placement(self, seat: int, picks: tuple) -> None:
        left = [c for c in self.players[seat].hand if c not in picks]
        self._ask(seat, CARD, left, Zena._picked, seat, picks)

    def _picked(self, seat: int, picks: tuple, card: str) -> None:
        picks += (card,)
        if len(picks) < len(self.pawn_names):
            self._then((Zena._pick_placement, (seat, picks)))
        else:
            self.players[seat].placement = picks

    def _placed(self) -> None:
        deck = self.decks["action_deck"]
        for player in self.players:
            for pawn, card in zip(self.pawn_names, player.placement):
                player.pawns[pawn] = self.cards[card].area
                player.hand.remove(card)
            deck.put_top(player.placement)
            player.placement = ()
        self._shuffle(deck)
        fastest = self.chance.pick(self.n)       # who finished placing first
        self._ask(fastest, SEAT, list(range(self.n)), Zena._first_chosen)

    def _first_chosen(self, seat: int) -> None:
        self.first_player = seat
        self._then((Zena._next_round, ()))

    # ------------------------------------------------------------ a round
    def _next_round(self) -> None:
        """One round per Event card left: Event, Actions, Resolution, End; then the end."""
        events = self.decks["event_deck"]
        if not events.cards:
            self._final_scoring()
            return
        self.round += 1
        self.event = self.cards[self._draw(events)]
        for player in self.players:
            player.coins += self.event.income
        order = self._clockwise_from(self.first_player)
        self._then(*([(Zena._reveal_fort, ())] if self.advanced and self.event.fort_battle else []),
                   *[(Zena._turn, (seat, 0)) for seat in order],
                   *[(Zena._resolve_area, (area,)) for area in self.areas],
                   *[(Zena._discard, (seat, ())) for seat in range(self.n)],
                   (Zena._end_of_round, ()))

    def _reveal_fort(self) -> None:
        fort = self._draw(self.decks["fort_deck"])
        if fort is None:
            return
        self._enter_play(fort, "fort")
        self._then(*[(Zena._offer_influence, (seat, fort, 0))
                     for seat in self._clockwise_from(self.first_player)
                     if "fort" in self.players[seat].pawns.values()])

    def _enter_play(self, cid: str, area: str) -> None:
        self.play.append(cid)
        self.placed_in[cid] = area
        self.cubes[cid] = []

    # --------------------------------------------------------- the turn
    def _turn(self, seat: int, step: int) -> None:
        """`step`: 0 nothing yet, 1 moved, 2 promoted, 3 influenced, 4 took a coin or card."""
        self._ask(seat, TURN, self._turn_options(seat, step), Zena._act, seat)

    def _act(self, seat: int, choice: tuple) -> None:
        what, player = choice[0], self.players[seat]
        if what == "done":
            return
        if what == "move":
            player.pawns[choice[1]] = choice[2]
            self._then((Zena._turn, (seat, 1)))
        elif what == "promote":
            self._then((Zena._promote, (seat, choice[1])), (Zena._turn, (seat, 2)))
        elif what == "influence":
            self._then((Zena._place_cube, (seat, choice[1])), (Zena._turn, (seat, 3)))
        elif what == "take_coin":
            player.coins += 1
            self._then((Zena._turn, (seat, 4)))
        else:
            self._then((Zena._draw_card, (seat,)), (Zena._turn, (seat, 4)))

    def _turn_options(self, seat: int, step: int) -> list:
        player, cards = self.players[seat], self.cards
        options = self._pawn_moves(player) if step == 0 else []
        if step < 2 and (player.cubes_free > 0 or self._cubes_on_cards(seat) > 0):
            for cid in player.hand:
                card = cards[cid]
                if (card.kind == "action_card" and player.coins >= card.costs[0]
                        and card.area in player.pawns.values()):
                    options.append(("promote", cid))
        if step < 4:
            options += [("influence", cid) for cid in self.play if self._can_influence(seat, cid)]
        if step == 0:
            options.append(TAKE_COIN)
            if self._can_draw():
                options.append(TAKE_CARD)
        options.append(DONE)
        return options

    def _pawn_moves(self, player: Player) -> list:
        pawns, areas = player.pawns, self.areas
        moves = [("move", pawn, a) for pawn in ("lord", "lady", "heir1") for a in areas if a != pawns[pawn]]
        if pawns["heir2"] != pawns["heir1"]:      # the spec's: two Heirs together move as one
            moves += [("move", "heir2", a) for a in areas if a != pawns["heir2"]]
        return moves

    def _cubes_on_cards(self, seat: int) -> int:
        return sum(cubes.count(seat) for cubes in self.cubes.values())

    def _can_draw(self) -> bool:
        return bool(self.decks["action_deck"].cards) or (self.advanced and bool(self.decks["goal_deck"].cards))

    def _can_influence(self, seat: int, cid: str) -> bool:
        cubes, player = self.cubes[cid], self.players[seat]
        return (len(cubes) < 3 and self.placed_in[cid] in player.pawns.values()
                and player.coins >= self.cards[cid].costs[len(cubes)]
                and cubes.count(seat) < self.per_card
                and (player.cubes_free > 0
                     or any(seat in cs for c, cs in self.cubes.items() if c != cid)))

    def _promote(self, seat: int, cid: str) -> None:
        self._with_free_cube(seat, cid, Zena._promoted)

    def _promoted(self, seat: int, cid: str) -> None:
        """The card goes into play with the Promoter's cube; then the Promoter (2-3
        players, Advanced) and the others may influence it at once."""
        self.players[seat].hand.remove(cid)
        self._enter_play(cid, self.cards[cid].area)
        self._put_cube(seat, cid)
        self._then((Zena._offer_influence, (seat, cid, 0)),
                   *[(Zena._offer_influence, (other, cid, 0))
                     for other in self._clockwise_from(self.first_player) if other != seat])

    def _offer_influence(self, seat: int, cid: str, asked: int) -> None:
        if asked < self.per_card and self._can_influence(seat, cid):
            self._ask(seat, OFFER, [("influence", cid), DECLINE], Zena._offer_answered, seat, cid, asked + 1)

    def _offer_answered(self, seat: int, cid: str, asked: int, answer) -> None:
        if answer != DECLINE:
            self._then((Zena._place_cube, (seat, cid)), (Zena._offer_influence, (seat, cid, asked)))

    def _with_free_cube(self, seat: int, cid: str, then) -> None:
        """then(self, seat, cid), once `seat` has a cube in front of it: out of cubes,
        it takes one back from another card first."""
        if self.players[seat].cubes_free > 0:
            then(self, seat, cid)
            return
        sources = [c for c in self.play if c != cid and seat in self.cubes[c]]
        self._ask(seat, CARD, sources, Zena._cube_taken, seat, cid, then)

    def _cube_taken(self, seat: int, cid: str, then, source: str) -> None:
        player, cubes = self.players[seat], self.cubes[source]
        del cubes[len(cubes) - 1 - cubes[::-1].index(seat)]    # the lowest of that family
        player.cubes_free += 1
        if not cubes:
            self._leave_play(source)
        then(self, seat, cid)

    def _place_cube(self, seat: int, cid: str) -> None:
        self._with_free_cube(seat, cid, Zena._put_cube)

    def _put_cube(self, seat: int, cid: str) -> None:
        """The cube on the top empty space, paying its price; the Promoter's bonus."""
        player, card, cubes = self.players[seat], self.cards[cid], self.cubes[cid]
        space = len(cubes)
        player.coins -= card.costs[space]
        player.cubes_free -= 1
        cubes.append(seat)
        if space > 0 and card.type != "dieroll":
            self._gain(cubes[0], card.bonus[space - 1])

    def _gain(self, seat: int, what: str) -> None:
        if what == "coin":
            self.players[seat].coins += 1
        elif what == "point":
            self.players[seat].points += 1
        elif what == "card":
            self._draw_card(seat)

    def _draw_card(self, seat: int) -> None:
        actions, goals = self.decks["action_deck"], self.decks["goal_deck"]
        if self.advanced and actions.cards and goals.cards:
            self._ask(seat, MENU, [DRAW_ACTION, DRAW_GOAL], Zena._draw_from, seat)
        elif actions.cards:
            self._draw_into(actions, self.players[seat].hand)
        elif self.advanced and goals.cards:
            self._draw_into(goals, self.players[seat].hand)

    def _draw_from(self, seat: int, answer: str) -> None:
        deck = self.decks["action_deck" if answer == DRAW_ACTION else "goal_deck"]
        self._draw_into(deck, self.players[seat].hand)

    def _leave_play(self, cid: str) -> None:
        """Its cubes go home; a Fort card to the bottom of the Fort deck, others out of the game."""
        for seat in self.cubes.pop(cid):
            self.players[seat].cubes_free += 1
        del self.placed_in[cid]
        self.play.remove(cid)
        if self.cards[cid].kind == "fort_card":
            self.decks["fort_deck"].put_bottom([cid])

    # --------------------------------------------------------- resolution
    def _resolve_area(self, area: str) -> None:
        """Step 1 (each card, oldest first), then steps 2 and 3 (_settle)."""
        self._then(*[(Zena._resolve_if_due, (area, cid)) for cid in self._cards_at(area)],
                   (Zena._settle, (area,)))

    def _resolve_if_due(self, area: str, cid: str) -> None:
        # a card may have left (destroyed, discarded) or arrived meanwhile
        if self.placed_in.get(cid) == area and self.resolved_round.get(cid) != self.round:
            self.resolved_round[cid] = self.round
            self._resolve_card(cid)

    def _resolve_card(self, cid: str) -> None:
        card = self.cards[cid]
        if card.type == "dieroll":
            self._roll_venture(cid)
        elif card.name == "manezzi":
            self._then(*[(Zena._ask_manezzi, (seat, cid)) for seat in self.cubes[cid]],
                       (Zena._leave_play, (cid,)))
        elif card.name == "sollevacioin_pilotae":
            self._then(*self._pay_out(cid), (Zena._ruse_move, (cid,)))
        elif card.name == "relacioin_co_a_compagnia":
            self._partnership(cid)
        elif card.name == "festa_a_o_paxo":
            self._party(cid)
        else:
            self._then(*self._pay_out(cid))

    def _pay_out(self, cid: str) -> list:
        """The steps that reward every cube on the card, top to bottom."""
        card, coins = self.cards[cid], 0
        if card.gain_coins > 0:
            area, event = self.placed_in[cid], self.event
            modifier = event.bank_mod if area == "bank" else event.port_mod if area == "port" else 0
            coins = max(0, card.gain_coins + modifier)
        return [(Zena._reward, (seat, card, coins)) for seat in self.cubes[cid]]

    def _reward(self, seat: int, card: Card, coins: int) -> None:
        player = self.players[seat]
        player.coins += coins
        player.points += card.gain_points
        self._then(*[(Zena._draw_card, (seat,))] * card.gain_cards)

    def _roll_venture(self, cid: str) -> None:
        """Dieroll cards and Fort cards: +1 per cube below the top one, and in the
        Advanced game the coins each family spends, top to bottom."""
        cubes = self.cubes[cid]
        if not cubes:       # a Fort card nobody influenced fails
            self._venture_fails(cid)
            return
        self.boost = len(cubes) - 1
        spenders = list(dict.fromkeys(cubes)) if self.advanced else []
        self._then(*[(Zena._ask_spend, (seat,)) for seat in spenders], (Zena._roll, (cid,)))

    def _ask_spend(self, seat: int) -> None:
        top = min(self.players[seat].coins, self.const["spend_cap"])
        self._ask(seat, NUMBER, list(range(top + 1)), Zena._spent, seat)

    def _spent(self, seat: int, coins: int) -> None:
        self.players[seat].coins -= coins
        self.boost += coins

    def _roll(self, cid: str) -> None:
        result = self.chance.roll(6) + self.boost
        if result <= self.const["venture_fails_at_most"]:
            self._venture_fails(cid)
        elif result >= self.const["venture_succeeds_from"]:
            self._then(*self._pay_out(cid), (Zena._venture_won, (cid,)))

    def _venture_won(self, cid: str) -> None:
        if self.cards[cid].kind != "fort_card":
            self._leave_play(cid)
            return
        for seat in self.cubes.pop(cid):          # a Fort card is set aside in Battles Won
            self.players[seat].cubes_free += 1
        del self.placed_in[cid]
        self.play.remove(cid)
        self.battles_won.append(cid)

    def _venture_fails(self, cid: str) -> None:
        card = self.cards[cid]
        if card.kind == "fort_card":
            for area in card.destroys:
                at = self._cards_at(area)
                if at:
                    self._leave_play(at[0])
        self._leave_play(cid)

    def _ask_manezzi(self, seat: int, cid: str) -> None:
        """Manezzi: the cube goes under a pawn of its family (+1 Control Point there for good)."""
        self._ask(seat, PAWN, self.pawn_names, Zena._under_pawn, seat, cid)

    def _under_pawn(self, seat: int, cid: str, pawn: str) -> None:
        self.players[seat].under[pawn] += 1
        self.cubes[cid].remove(seat)

    def _ruse_move(self, cid: str) -> None:
        """Sollevacioin pilotae: the first time it is resolved, the Promoter moves it."""
        if cid in self.ruse_moved:
            return
        self.ruse_moved.add(cid)
        here = self.placed_in[cid]
        choices = [a for a in self.areas if a != "fort" and a != here]
        self._ask(self.cubes[cid][0], AREA, choices, Zena._ruse_moved_to, cid)

    def _ruse_moved_to(self, cid: str, area: str) -> None:
        self.placed_in[cid] = area
        self.play.remove(cid)
        self.play.append(cid)

    def _partnership(self, cid: str) -> None:
        """Relacioin co-a compagnia: a point each for a cube at the Port and at the Bank."""
        for seat in self.cubes[cid]:
            for area in ("port", "bank"):
                if any(seat in self.cubes[c] for c in self.play if self.placed_in[c] == area):
                    self.players[seat].points += 1

    def _party(self, cid: str) -> None:
        """Festa a-o Paxo: a point to the Promoter, a card to all, a card passed right."""
        self.players[self.cubes[cid][0]].points += 1
        self._then(*[(Zena._draw_card, (seat,)) for seat in self._clockwise_from(self.first_player)],
                   *[(Zena._ask_gift, (seat,)) for seat in range(self.n)],
                   (Zena._pass_gifts, ()))

    def _ask_gift(self, seat: int) -> None:
        hand = self.players[seat].hand
        if hand:
            self._ask(seat, CARD, list(hand), Zena._gift_chosen, seat)

    def _gift_chosen(self, seat: int, card: str) -> None:
        self.players[seat].gift = card

    def _pass_gifts(self) -> None:
        for player in self.players:
            if player.gift is not None:
                player.hand.remove(player.gift)
                self.players[(player.seat - 1) % self.n].hand.insert(0, player.gift)
                player.gift = None

    def _settle(self, area: str) -> None:
        """Step 2: Temporary cards leave, then the oldest down to the limit; step 3: control."""
        for cid in self._cards_at(area):
            if self.cards[cid].type == "temporary":
                self._leave_play(cid)
        limit = self.const["card_limit_per_area"]
        while len(self._cards_at(area)) > limit:
            self._leave_play(self._cards_at(area)[0])
        boss = self._controller(area)
        if boss is not None:
            self._area_income(boss, area)

    def _area_income(self, player: Player, area: str) -> None:
        if area == "palace":
            if player.coins >= 1:
                self._ask(player.seat, MENU, [SPEND, KEEP_COIN], Zena._palace_answered, player.seat)
            return
        income = self.const["control_income"][area]
        player.coins += income["coins"]
        player.points += income["points"]
        self._then(*[(Zena._draw_card, (player.seat,))] * income["cards"])

    def _palace_answered(self, seat: int, answer: str) -> None:
        if answer == SPEND:
            self.players[seat].coins -= 1
            self.players[seat].points += 2

    def _control_of(self, player: Player, area: str) -> int:
        points = self.const["control_points"]
        return sum(points[pawn] + player.under[pawn] for pawn, at in player.pawns.items() if at == area)

    def _controller(self, area: str):
        """The one player with the most Control Points (a tie: nobody); a Lady alone
        controls only the Old Town Streets."""
        points = [self._control_of(p, area) for p in self.players]
        best = max(points)
        if best <= 0 or points.count(best) != 1:
            return None
        player = self.players[points.index(best)]
        pawns = player.pawns
        if area == "streets" or area in (pawns["lord"], pawns["heir1"], pawns["heir2"]):
            return player
        return None

    # --------------------------------------------------------- the round's end
    def _discard(self, seat: int, picked: tuple) -> None:
        """Down to the hand limit, one card at a time; they go to the bottom of their deck."""
        hand = self.players[seat].hand
        excess = len(hand) - self.const["hand_limit"]
        if excess <= len(picked):
            for card in picked:
                hand.remove(card)
                deck = "goal_deck" if self.cards[card].kind == "goal_card" else "action_deck"
                self.decks[deck].put_bottom([card])
            return
        left = [c for c in hand if c not in picked]
        self._ask(seat, CARD, left, Zena._discarded, seat, picked)

    def _discarded(self, seat: int, picked: tuple, card: str) -> None:
        self._then((Zena._discard, (seat, picked + (card,))))

    def _end_of_round(self) -> None:
        self.first_player = (self.first_player - 1) % self.n      # the card passes right
        self._then((Zena._next_round, ()))

    def _final_scoring(self) -> None:
        for player in self.players:
            player.points += player.coins // 5
            if self.advanced:
                player.goal_points = self._goal_total(player)
                player.points += player.goal_points
        self.over = True

    def _goal_total(self, player: Player) -> int:
        goals = [self.cards[c] for c in player.hand if self.cards[c].kind == "goal_card"]
        grabs = sum(1 for g in goals if g.goal == "grab")
        controlled = sum(1 for a in self.areas if self._controller(a) is player)
        total = grabs * grabs
        for goal in goals:
            if goal.goal == "humble":
                total += 5 if controlled == 0 else 0
            elif goal.goal == "unplanned":
                total += 3 if controlled >= 1 else 0
            elif goal.goal == "fearless":
                total += len(self.battles_won)
            elif goal.goal == "control":
                total += 5 if self._controller(goal.area) is player else 0
            elif goal.goal == "permanents":
                total += sum(1 for c in self._cards_at(goal.area) if self.cards[c].type == "permanent")
        return total
