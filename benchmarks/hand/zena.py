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

The rules run as one generator (`Zena._play`) that yields at each decision a
player really has; a decision with one option is taken without asking, as
rulespec does by default. `option_keys()` names the pending options with the
labels rulespec gives the same options, so a differential test can compare
the two (tests/benchmarks/test_hand_zena.py).

Chance. Every random event goes through a chooser: `RandomChance`
(random.Random(seed)) by default, or one that feeds the outcomes of another
engine (the differential test feeds rulespec's).
A shuffled deck stays "unordered" until a known card is put on it: until
then each draw from it is a chance event (which card comes up), afterwards
draws take the top card. That is rulespec's explicit-chance model
(interpreter/engine/chance.py), so both can be given the same outcomes;
with RandomChance a draw from an unordered deck simply takes the top card of
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
    """A face-down pile, top first. `unordered`: shuffled, and nothing known put on it since."""
    __slots__ = ("name", "cards", "unordered")

    def __init__(self, name: str, cards: list):
        self.name, self.cards, self.unordered = name, cards, False

    def put_top(self, ids: list) -> None:
        self.cards[:0] = ids
        self.unordered = False

    def put_bottom(self, ids: list) -> None:
        self.cards.extend(ids)
        self.unordered = False


class Player:
    """One family: purse, score, cubes, pawns (pawn -> area) and hand (newest first)."""
    __slots__ = ("seat", "coins", "points", "cubes_free", "pawns", "under", "hand", "goal_points")

    def __init__(self, seat: int, pawn_names: list, cubes: int):
        self.seat, self.coins, self.points, self.cubes_free = seat, 0, 0, cubes
        self.pawns = dict.fromkeys(pawn_names, None)
        self.under = dict.fromkeys(pawn_names, 0)
        self.hand: list[str] = []
        self.goal_points = 0


def new_game(players: int, seed: int = 0, variant: str | None = None, chooser=None) -> "Zena":
    """A new game run up to its first decision. Raises ValueError for a player
    count the spec does not allow."""
    return Zena(players, seed, variant, chooser)


class Zena:
    """A game in progress. API: current_player(), legal_actions(), apply(action),
    option_keys(), is_terminal(), scores(), clone(). clone() replays the actions
    taken so far from a copy of the starting chance object (O(moves played)), so it
    needs a copyable chance (RandomChance)."""

    def __init__(self, players: int, seed: int = 0, variant: str | None = None, chance=None):
        comp = components(variant)
        if not comp.min_players <= players <= comp.max_players:
            raise ValueError(f"Zena 1814 is for {comp.min_players} to {comp.max_players} players, not {players}")
        self.comp, self.cards, self.const = comp, comp.cards, comp.const
        self.n, self.seed, self.variant = players, seed, variant
        self.chance = chance if chance is not None else RandomChance(seed)
        self._chance_start = self.chance.copy() if hasattr(self.chance, "copy") else None
        self.advanced = self.const["advanced"]
        self.areas = self.const["areas"]
        self.pawn_names = self.const["pawn_names"]
        self.per_card = 2 if self.advanced and players <= 3 else 1
        self.players = [Player(s, self.pawn_names, self.const["cube_supply"]) for s in range(players)]
        self.decks = {name: Deck(name, list(comp.decks.get(name, [])))
                      for name in ("action_deck", "goal_deck", "fort_deck", "event_deck")}
        self.play: list[str] = []                 # cards in play, oldest first
        self.cubes: dict[str, list[int]] = {}     # card in play -> seats of its cubes, top first
        self.placed_in: dict[str, str] = {}       # card in play -> its area
        self.resolved_round: dict[str, int] = {}
        self.ruse_moved: set[str] = set()
        self.battles_won: list[str] = []
        self.round, self.first_player, self.event = 0, 0, None
        self.history: list = []
        self.decision = None                      # (seat, kind, options) or None at the end
        self._flow = self._play()
        self.decision = next(self._flow, None)

    # ------------------------------------------------------------------ API
    def current_player(self):
        """The seat that decides now, or None once the game is over."""
        return None if self.decision is None else self.decision[0]

    def legal_actions(self) -> list:
        """The options of the pending decision (do not mutate the list)."""
        return [] if self.decision is None else self.decision[2]

    def apply(self, action) -> None:
        """Answer the pending decision with one of legal_actions(); ValueError otherwise."""
        if self.decision is None or action not in self.decision[2]:
            raise ValueError(f"{action!r} is not a legal action now")
        self.history.append(action)
        try:
            self.decision = self._flow.send(action)
        except StopIteration:
            self.decision = None

    def is_terminal(self) -> bool:
        return self.decision is None

    def scores(self) -> list[int]:
        """Prestige Points per seat (final once the game is over)."""
        return [p.points for p in self.players]

    def clone(self) -> "Zena":
        if self._chance_start is None:
            raise TypeError("clone() needs a chance object with copy()")
        other = Zena(self.n, self.seed, self.variant, self._chance_start.copy())
        for action in self.history:
            other.apply(action)
        return other

    def option_keys(self) -> list[str]:
        """The pending options named as rulespec labels the same options."""
        if self.decision is None:
            return []
        _, kind, options = self.decision
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

    # ------------------------------------------------------------ helpers
    def _ask(self, seat, kind, options):
        """Ask `seat` to choose; a single option is taken without asking."""
        if len(options) == 1:
            return options[0]
        return (yield seat, kind, options)

    def _shuffle(self, deck: Deck) -> None:
        order = self.chance.shuffle(deck.name, deck.cards)
        deck.cards[:] = order
        deck.unordered = True

    def _draw(self, deck: Deck):
        """The top card of `deck` (a chance event while it is unordered), or None."""
        cards = deck.cards
        if not cards:
            return None
        if deck.unordered:
            return cards.pop(self.chance.draw(deck.name, cards))
        return cards.pop(0)

    def _draw_into(self, deck: Deck, hand: list) -> None:
        card = self._draw(deck)
        if card is not None:
            hand.insert(0, card)

    def _clockwise_from(self, seat: int) -> list[int]:
        n = self.n
        return [(seat + i) % n for i in range(n)]

    def _has_pawn_in(self, player: Player, area: str) -> bool:
        return area in player.pawns.values()

    def _cards_at(self, area: str) -> list[str]:
        placed_in = self.placed_in
        return [c for c in self.play if placed_in[c] == area]

    # ------------------------------------------------------------ the game
    def _play(self):
        """The whole game, set-up to final scoring (games/zena.yaml `flow`)."""
        const, decks = self.const, self.decks
        events = decks["event_deck"]
        self._shuffle(events)
        events.cards.pop(0)                       # one Event removed unseen
        if not self.advanced:
            action = decks["action_deck"]
            action.cards = [c for c in action.cards if self.cards[c].area != "streets"]
            decks["fort_deck"].cards.clear()
            decks["goal_deck"].cards.clear()
        for name in ("action_deck", "fort_deck", "goal_deck"):
            self._shuffle(decks[name])
        for player in self.players:
            yield from self._deal_hand(player)
            player.coins = const["start_coins"]
        if self.advanced:
            yield from self._advanced_placement()
        else:
            self.first_player = self.chance.pick(self.n)
            self._beginner_placement()
        while events.cards:
            self.round += 1
            self._event_phase()
            if self.advanced and self.event.fort_battle:
                yield from self._reveal_fort()
            yield from self._action_phase()
            for area in self.areas:
                yield from self._resolve_area(area)
            yield from self._end_of_round()
        self._final_scoring()

    def _deal_hand(self, player: Player):
        deck, size = self.decks["action_deck"], self.const["opening_hand"]
        for _ in range(size):
            self._draw_into(deck, player.hand)
        if all(self.cards[c].costs[0] >= self.const["redraw_cost"] for c in player.hand):
            if (yield from self._ask(player.seat, MENU, [REDRAW, KEEP_HAND])) == REDRAW:
                deck.put_bottom(player.hand)
                player.hand = []
                for _ in range(size):
                    self._draw_into(deck, player.hand)

    def _beginner_placement(self) -> None:
        """Round 0: each reveals a card; an Heir there, the rest in the following areas."""
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

    def _advanced_placement(self):
        """Round 0, Advanced: four cards chosen in secret, one per pawn."""
        placements = []
        for player in self.players:
            picks = []
            for _ in self.pawn_names:
                left = [c for c in player.hand if c not in picks]
                picks.append((yield from self._ask(player.seat, CARD, left)))
            placements.append(picks)
        deck = self.decks["action_deck"]
        for player, picks in zip(self.players, placements):
            for pawn, card in zip(self.pawn_names, picks):
                player.pawns[pawn] = self.cards[card].area
                player.hand.remove(card)
            deck.put_top(picks)
        self._shuffle(deck)
        fastest = self.chance.pick(self.n)
        self.first_player = yield from self._ask(fastest, SEAT, list(range(self.n)))

    def _event_phase(self) -> None:
        self.event = self.cards[self.decks["event_deck"].cards.pop(0)]
        for player in self.players:
            player.coins += self.event.income

    def _reveal_fort(self):
        forts = self.decks["fort_deck"].cards
        if not forts:
            return
        fort = forts.pop(0)
        self._enter_play(fort, "fort")
        for seat in self._clockwise_from(self.first_player):
            if self._has_pawn_in(self.players[seat], "fort"):
                yield from self._offer_influence(seat, fort)

    def _enter_play(self, cid: str, area: str) -> None:
        self.play.append(cid)
        self.placed_in[cid] = area
        self.cubes[cid] = []

    # --------------------------------------------------------- the turn
    def _action_phase(self):
        for seat in self._clockwise_from(self.first_player):
            step = 0      # 0 nothing yet, 1 moved, 2 promoted, 3 influenced, 4 took a coin or card
            while True:
                choice = yield from self._ask(seat, TURN, self._turn_options(seat, step))
                what = choice[0]
                if what == "done":
                    break
                if what == "move":
                    self.players[seat].pawns[choice[1]] = choice[2]
                    step = 1
                elif what == "promote":
                    step = 2
                    yield from self._promote(seat, choice[1])
                elif what == "influence":
                    step = 3
                    yield from self._place_cube(seat, choice[1])
                elif what == "take_coin":
                    self.players[seat].coins += 1
                    step = 4
                else:
                    yield from self._draw_card(self.players[seat])
                    step = 4

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

    def _promote(self, seat: int, cid: str):
        player = self.players[seat]
        yield from self._free_a_cube(player, cid)
        player.hand.remove(cid)
        self._enter_play(cid, self.cards[cid].area)
        yield from self._place_cube(seat, cid)
        # then the Promoter (2-3 players, Advanced) and the others may influence it at once
        yield from self._offer_influence(seat, cid)
        for other in self._clockwise_from(self.first_player):
            if other != seat:
                yield from self._offer_influence(other, cid)

    def _offer_influence(self, seat: int, cid: str):
        asked = 0
        while asked < self.per_card and self._can_influence(seat, cid):
            asked += 1
            if (yield from self._ask(seat, OFFER, [("influence", cid), DECLINE])) == DECLINE:
                break
            yield from self._place_cube(seat, cid)

    def _free_a_cube(self, player: Player, cid: str):
        """Out of cubes: take one back from another card first."""
        if player.cubes_free == 0:
            seat = player.seat
            sources = [c for c in self.play if c != cid and seat in self.cubes[c]]
            source = yield from self._ask(seat, CARD, sources)
            self._take_cube(player, source)

    def _take_cube(self, player: Player, cid: str) -> None:
        cubes = self.cubes[cid]
        del cubes[len(cubes) - 1 - cubes[::-1].index(player.seat)]   # the lowest of that family
        player.cubes_free += 1
        if not cubes:
            self._leave_play(cid)

    def _place_cube(self, seat: int, cid: str):
        player, card = self.players[seat], self.cards[cid]
        yield from self._free_a_cube(player, cid)
        cubes = self.cubes[cid]
        space = len(cubes)
        player.coins -= card.costs[space]
        player.cubes_free -= 1
        cubes.append(seat)
        if space > 0 and card.type != "dieroll":
            yield from self._gain(self.players[cubes[0]], card.bonus[space - 1])

    def _gain(self, player: Player, what: str):
        if what == "coin":
            player.coins += 1
        elif what == "point":
            player.points += 1
        elif what == "card":
            yield from self._draw_card(player)

    def _draw_card(self, player: Player):
        actions, goals = self.decks["action_deck"], self.decks["goal_deck"]
        if self.advanced and actions.cards and goals.cards:
            choice = yield from self._ask(player.seat, MENU, [DRAW_ACTION, DRAW_GOAL])
            self._draw_into(actions if choice == DRAW_ACTION else goals, player.hand)
        elif actions.cards:
            self._draw_into(actions, player.hand)
        elif self.advanced and goals.cards:
            self._draw_into(goals, player.hand)

    def _leave_play(self, cid: str) -> None:
        """Its cubes go home; a Fort card to the bottom of the Fort deck, others out of the game."""
        for seat in self.cubes.pop(cid):
            self.players[seat].cubes_free += 1
        del self.placed_in[cid]
        self.play.remove(cid)
        if self.cards[cid].kind == "fort_card":
            self.decks["fort_deck"].put_bottom([cid])

    # --------------------------------------------------------- resolution
    def _resolve_area(self, area: str):
        for cid in self._cards_at(area):
            if self.placed_in.get(cid) == area and self.resolved_round.get(cid) != self.round:
                self.resolved_round[cid] = self.round
                yield from self._resolve_card(cid)
        for cid in self._cards_at(area):
            if self.cards[cid].type == "temporary":
                self._leave_play(cid)
        limit = self.const["card_limit_per_area"]
        while len(self._cards_at(area)) > limit:
            self._leave_play(self._cards_at(area)[0])
        boss = self._controller(area)
        if boss is not None:
            yield from self._area_income(boss, area)

    def _resolve_card(self, cid: str):
        card = self.cards[cid]
        if card.type == "dieroll":
            yield from self._roll_venture(cid)
        elif card.name == "manezzi":
            yield from self._manezzi(cid)
        elif card.name == "sollevacioin_pilotae":
            yield from self._ruse(cid)
        elif card.name == "relacioin_co_a_compagnia":
            self._partnership(cid)
        elif card.name == "festa_a_o_paxo":
            yield from self._party(cid)
        else:
            yield from self._pay_out(cid)

    def _pay_out(self, cid: str):
        card = self.cards[cid]
        coins = 0
        if card.gain_coins > 0:
            area, event = self.placed_in[cid], self.event
            modifier = event.bank_mod if area == "bank" else event.port_mod if area == "port" else 0
            coins = max(0, card.gain_coins + modifier)
        for seat in list(self.cubes[cid]):
            player = self.players[seat]
            player.coins += coins
            player.points += card.gain_points
            for _ in range(card.gain_cards):
                yield from self._draw_card(player)

    def _roll_venture(self, cid: str):
        cubes, const = self.cubes[cid], self.const
        if not cubes:       # a Fort card nobody influenced fails
            self._venture_fails(cid)
            return
        boost = len(cubes) - 1
        if self.advanced:
            for seat in dict.fromkeys(list(cubes)):
                player = self.players[seat]
                top = min(player.coins, const["spend_cap"])
                spend = yield from self._ask(seat, NUMBER, list(range(top + 1)))
                player.coins -= spend
                boost += spend
        result = self.chance.roll(6) + boost
        if result <= const["venture_fails_at_most"]:
            self._venture_fails(cid)
        elif result >= const["venture_succeeds_from"]:
            yield from self._pay_out(cid)
            if self.cards[cid].kind == "fort_card":
                for seat in self.cubes.pop(cid):
                    self.players[seat].cubes_free += 1
                del self.placed_in[cid]
                self.play.remove(cid)
                self.battles_won.append(cid)
            else:
                self._leave_play(cid)

    def _venture_fails(self, cid: str) -> None:
        card = self.cards[cid]
        if card.kind == "fort_card":
            for area in card.destroys:
                at = self._cards_at(area)
                if at:
                    self._leave_play(at[0])
        self._leave_play(cid)

    def _manezzi(self, cid: str):
        """Each cube goes under a pawn of its family (+1 Control Point there for good)."""
        cubes = self.cubes[cid]
        for seat in list(cubes):
            pawn = yield from self._ask(seat, PAWN, self.pawn_names)
            self.players[seat].under[pawn] += 1
            cubes.remove(seat)
        self._leave_play(cid)

    def _ruse(self, cid: str):
        """Sollevacioin pilotae: pays, then the first time moves to another area."""
        yield from self._pay_out(cid)
        if cid not in self.ruse_moved:
            self.ruse_moved.add(cid)
            here = self.placed_in[cid]
            choices = [a for a in self.areas if a != "fort" and a != here]
            self.placed_in[cid] = yield from self._ask(self.cubes[cid][0], AREA, choices)
            self.play.remove(cid)
            self.play.append(cid)

    def _partnership(self, cid: str) -> None:
        """Relacioin co-a compagnia: a point each for a cube at the Port and at the Bank."""
        for seat in self.cubes[cid]:
            for area in ("port", "bank"):
                if any(seat in self.cubes[c] for c in self.play if self.placed_in[c] == area):
                    self.players[seat].points += 1

    def _party(self, cid: str):
        """Festa a-o Paxo: a point to the Promoter, a card to all, a card passed right."""
        self.players[self.cubes[cid][0]].points += 1
        for seat in self._clockwise_from(self.first_player):
            yield from self._draw_card(self.players[seat])
        gifts = []
        for player in self.players:
            if player.hand:
                gifts.append((player, (yield from self._ask(player.seat, CARD, list(player.hand)))))
        for player, gift in gifts:
            player.hand.remove(gift)
            self.players[(player.seat - 1) % self.n].hand.insert(0, gift)

    def _area_income(self, player: Player, area: str):
        if area == "palace":
            if player.coins >= 1 and (yield from self._ask(player.seat, MENU, [SPEND, KEEP_COIN])) == SPEND:
                player.coins -= 1
                player.points += 2
            return
        income = self.const["control_income"][area]
        player.coins += income["coins"]
        player.points += income["points"]
        for _ in range(income["cards"]):
            yield from self._draw_card(player)

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
    def _end_of_round(self):
        limit = self.const["hand_limit"]
        for player in self.players:
            if len(player.hand) > limit:
                left, out = list(player.hand), []
                for _ in range(len(player.hand) - limit):
                    card = yield from self._ask(player.seat, CARD, list(left))
                    left.remove(card)
                    out.append(card)
                for card in out:
                    player.hand.remove(card)
                    deck = "goal_deck" if self.cards[card].kind == "goal_card" else "action_deck"
                    self.decks[deck].put_bottom([card])
        self.first_player = (self.first_player - 1) % self.n

    def _final_scoring(self) -> None:
        for player in self.players:
            player.points += player.coins // 5
            if self.advanced:
                player.goal_points = self._goal_total(player)
                player.points += player.goal_points

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
