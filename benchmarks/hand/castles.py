"""The Castles of Tuscany, written by hand: the performance anchor for games/castles.yaml.

An idiomatic Python implementation of the game exactly as the spec declares it
(base game, 2-4 players), to measure what the rules-as-data engine costs against
code a good programmer would write (issue 18). Its components (tiles, cards,
region boards, constants, supplies) are read from the spec's YAML; its rules are
plain Python written from the spec's rule texts, with no rulespec code at play
time. tests/benchmarks/test_hand_castles.py plays it in lockstep with rulespec
and checks that both offer the same options at every decision.

    game = new_game(players=3, seed=1)
    while not game.is_terminal():
        options = game.legal_actions()
        game.apply(options[0])
    game.scores()        # [red points per seat]

The state is resumable data: `todo` is a stack of steps still to run, each
(function, args); a step that needs a decision leaves it `pending` and the run
stops. A decision with one option is taken at once and not asked, as rulespec
does. `clone()` copies the state; args and estates are immutable, so clones
share them.

Random events: by default the game draws from piles shuffled with its own
`random.Random(seed)`. With `chooser=f`, every random event asks
`f(kind, outcomes)` instead, outcomes [(value, probability)] in the spec's card
order, exactly where rulespec's explicit chance nodes stand ("draw": a card or
tile name from a shuffled pile; "pick": a region board's name, or a seat number
for the start player), and takes the value it returns. A draw from a pile
whose cards are all alike is certain and asks nothing, as in rulespec.
"""
from __future__ import annotations

import random
from collections import Counter
from functools import lru_cache
from pathlib import Path

import yaml

SPEC = Path(__file__).resolve().parents[2] / "games" / "castles.yaml"
HEX_STEPS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
BLUE_HEX = "blue_hex"
STARTING_CASTLE = "starting_castle"
DRAW = ("draw",)
END_TURN, SPEND_MARBLE = "end the turn", "spend a marble for another turn"


# ------------------------------------------------------------------ components
def _value(constant):
    """A constant's value: specs wrap some as {value: ..., assumed: "..."}."""
    return constant["value"] if isinstance(constant, dict) and "value" in constant else constant


class Components:
    """Everything the spec's YAML says about the pieces; read once per spec file."""

    def __init__(self, spec_path=SPEC):
        with open(spec_path, encoding="utf-8") as f:
            data = yaml.load(f, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))  # libyaml when built
        const = {k: _value(v) for k, v in data["constants"].items()}
        self.colours = list(const["colours"])
        self.storage_spaces = const["storage_spaces"]
        self.blue_staging = const["blue_staging"]
        self.stack_size = const["stack_size"]
        self.player_tiles = dict(const["player_tiles"])
        self.neutral_tiles = dict(const["neutral_tiles"])
        self.colour_bonus = {k: tuple(v) for k, v in const["colour_bonus"].items()}
        self.region_boards = {k: tuple(v) for k, v in const["region_boards"].items()}
        self.board_width = const["board_width"]
        self.offsets = dict(const["offsets"])
        self.joined_zones = bool(const["joined_zones"])
        self.boards = {name: tuple(tuple(cell) for cell in board["hex"])
                       for name, board in data["boards"].items() if isinstance(board, dict)}
        cards = data["cards"]
        self.region_cards = [(c["name"], c["count"]) for c in cards["region_cards"]["list"]]
        self.region_colour = {c["name"]: c["colour"] for c in cards["region_cards"]["list"]}
        yield_attrs = cards["yield_cards"]["attrs"]
        self.yield_cards = [(c["name"], c["count"]) for c in cards["yield_cards"]["list"]]
        self.yield_reward = {c["name"]: {k: c.get(k, d) for k, d in yield_attrs.items()}
                             for c in cards["yield_cards"]["list"]}
        self.bonus_tiles = [(c["name"], c["count"]) for c in cards["bonus_tiles"]["list"]]
        hexes = cards["hex_tiles"]["list"]
        self.hex_tiles = [(t["name"], t["count"]) for t in hexes]
        self.tile_colour = {t["name"]: t["colour"] for t in hexes}
        self.tile_crop = {t["name"]: t.get("crop") for t in hexes}
        start = {k: (v["start"] if isinstance(v, dict) and "start" in v else v)
                 for k, v in data["globals"].items()}
        self.supplies = {k: start[k] for k in ("marble_supply", "worker_supply", "blue_supply")}
        self.bonus_side = dict(start["bonus_side"])
        # chance outcomes are listed in the spec's card order, as rulespec lists them
        self.region_order = [name for name, _ in self.region_cards]
        self.yield_order = [name for name, _ in self.yield_cards]
        self.tile_order = [name for name, _ in self.hex_tiles]


@lru_cache(maxsize=4)
def components(spec_path=SPEC) -> Components:
    return Components(spec_path)


def zone_value(n: int) -> int:
    """Points for a completed colour zone of n hexes: 1, 3, 6, 10, ... (spec: zone_value)."""
    return n * (n + 1) // 2


# ------------------------------------------------------------------ the estate
def _turn_hex(q, r, turns):
    """(q, r) turned `turns` x 60 degrees clockwise about 0,0 (cube (x,y,z) -> (-z,-x,-y))."""
    for _ in range(turns % 6):
        q, r = -r, q + r
    return q, r


class Estate:
    """A player's three region boards joined: cells 0..29 in layout order, with
    their "q,r" names, colours, neighbours and colour zones precomputed."""
    __slots__ = ("key", "colour", "neighbours", "zone", "cells_of")

    def __init__(self, parts, boards, joined_zones):
        """parts: ((board name, dq, dr, turns), ...), left to right."""
        coords, colour, board_of = [], [], []
        for name, dq, dr, turns in parts:
            for q, r, c in boards[name]:
                q, r = _turn_hex(q, r, turns)
                coords.append((q + dq, r + dr))
                colour.append(c)
                board_of.append(name)
        index = {qr: i for i, qr in enumerate(coords)}
        if len(index) != len(coords):
            raise ValueError(f"region boards overlap: {parts}")
        self.key = [f"{q},{r}" for q, r in coords]
        self.colour = colour
        self.neighbours = [tuple(sorted(index[(q + a, r + b)] for a, b in HEX_STEPS
                                        if (q + a, r + b) in index)) for q, r in coords]
        same_zone = (lambda i, j: colour[i] == colour[j] and
                     (joined_zones or board_of[i] == board_of[j]))
        self.zone = [None] * len(coords)
        for i in range(len(coords)):
            if self.zone[i] is None:
                members, todo = {i}, [i]
                while todo:
                    for j in self.neighbours[todo.pop()]:
                        if j not in members and same_zone(i, j):
                            members.add(j)
                            todo.append(j)
                zone = tuple(sorted(members))
                for j in zone:
                    self.zone[j] = zone
        self.cells_of = {}
        for i, c in enumerate(colour):
            self.cells_of.setdefault(c, []).append(i)


@lru_cache(maxsize=1024)
def estate(parts, spec_path=SPEC) -> Estate:
    comp = components(spec_path)
    return Estate(parts, comp.boards, comp.joined_zones)


# ------------------------------------------------------------------ players
class Player:
    __slots__ = ("seat", "green", "red", "marble", "workers", "blue_hexes", "hand", "stacks",
                 "storage", "bonuses", "estate", "covered", "frontier")

    def __init__(self, seat, colours, bonus_kinds):
        self.seat = seat
        self.green = self.red = self.marble = self.workers = self.blue_hexes = 0
        self.hand = dict.fromkeys(colours, 0)     # region cards by colour
        self.stacks = [[], [], []]                # face-down tile stacks, top at the end
        self.storage = []                         # tile names
        self.bonuses = dict.fromkeys(bonus_kinds, 0)   # bonus tiles taken, by type
        self.estate = None
        self.covered = {}                         # cell -> tile name (or blue_hex)
        self.frontier = set()                     # empty cells next to a covered one

    def copy(self) -> Player:
        other = Player.__new__(Player)
        other.seat, other.green, other.red = self.seat, self.green, self.red
        other.marble, other.workers, other.blue_hexes = self.marble, self.workers, self.blue_hexes
        other.hand = dict(self.hand)
        other.stacks = [list(s) for s in self.stacks]
        other.storage = list(self.storage)
        other.bonuses = dict(self.bonuses)
        other.estate = self.estate
        other.covered = dict(self.covered)
        other.frontier = set(self.frontier)
        return other

    def cover(self, cell, piece):
        self.covered[cell] = piece
        self.frontier.discard(cell)
        self.frontier.update(n for n in self.estate.neighbours[cell] if n not in self.covered)

    def payment_units(self, colour) -> int:
        """How many of a space's two cards the player could pay: a card of the colour,
        two cards of another colour, or a worker, each counts one."""
        hand = self.hand
        return hand[colour] + sum(k // 2 for c, k in hand.items() if c != colour) + self.workers

    def stacks_emptied(self) -> int:
        return sum(1 for s in self.stacks if not s)


def _unique(names):
    return list(dict.fromkeys(names))


# ------------------------------------------------------------------ the game
class Castles:
    """A game in progress; see the module docstring for the API and `new_game`."""
    __slots__ = ("comp", "n", "players", "rng", "rng_shared", "chooser", "todo", "pending", "over",
                 "region_deck", "region_discard", "yield_deck", "yield_discard", "bonus_supply",
                 "neutral_stacks", "display", "supply", "bonus_side", "boards_left",
                 "round", "start_player", "turn_of", "turns_left")

    def __init__(self, players: int, seed: int = 0, chooser=None, spec_path=SPEC):
        comp = self.comp = components(spec_path)
        if not 2 <= players <= 4:
            raise ValueError("The Castles of Tuscany is for 2 to 4 players")
        self.n = players
        kinds = [kind for kind, _ in comp.bonus_tiles]
        self.players = [Player(i, comp.colours, kinds) for i in range(players)]
        self.rng, self.rng_shared, self.chooser = random.Random(seed), False, chooser
        self.todo, self.pending, self.over = [], None, False
        self.region_deck = [name for name, k in comp.region_cards for _ in range(k)]
        self.region_discard = []
        self.yield_deck = [name for name, k in comp.yield_cards for _ in range(k)]
        self.yield_discard = []
        self.bonus_supply = dict(comp.bonus_tiles)
        self.neutral_stacks = [t for t, k in comp.neutral_tiles.items() for _ in range(k)]
        self.display = []      # face-up tiles, newest first (the spec draws onto the front)
        self.supply = dict(comp.supplies)
        self.bonus_side = dict(comp.bonus_side)
        self.boards_left = {letter: list(names) for letter, names in comp.region_boards.items()}
        self.round = 0
        self.start_player = self.turn_of = None
        self.turns_left = -1
        for pile in (self.region_deck, self.yield_deck, self.neutral_stacks):
            self._shuffle(pile)
        self._then(*[(Castles._deal, (p.seat,)) for p in self.players],
                   *[(Castles._ask_castle, (p.seat,)) for p in self.players],
                   (Castles._choose_start_player, ()))
        self._run()

    # ------------------------------------------------------------- the API
    def clone(self) -> Castles:
        other = Castles.__new__(Castles)
        other.comp, other.n, other.rng, other.chooser = self.comp, self.n, self.rng, self.chooser
        self.rng_shared = other.rng_shared = True     # copied by the first to shuffle (_random)
        other.players = [p.copy() for p in self.players]
        other.todo, other.pending, other.over = list(self.todo), self.pending, self.over
        other.region_deck, other.region_discard = list(self.region_deck), list(self.region_discard)
        other.yield_deck, other.yield_discard = list(self.yield_deck), list(self.yield_discard)
        other.bonus_supply = dict(self.bonus_supply)
        other.neutral_stacks, other.display = list(self.neutral_stacks), list(self.display)
        other.supply, other.bonus_side = dict(self.supply), dict(self.bonus_side)
        other.boards_left = {k: list(v) for k, v in self.boards_left.items()}
        other.round, other.start_player = self.round, self.start_player
        other.turn_of, other.turns_left = self.turn_of, self.turns_left
        return other

    def current_player(self):
        """The seat deciding now, or None once the game is over."""
        return None if self.pending is None else self.pending[0]

    def legal_actions(self) -> list:
        """The pending decision's options (plain values: names, cells, tuples)."""
        return [] if self.pending is None else list(self.pending[1])

    def option_keys(self) -> list[str]:
        """Each legal option as rulespec labels the same option of the same decision."""
        if self.pending is None:
            return []
        seat, options, _, _ = self.pending
        return [self._key(self.players[seat], option) for option in options]

    def apply(self, action) -> None:
        """Answer the pending decision with one of `legal_actions()`; ValueError otherwise."""
        if self.pending is None or action not in self.pending[1]:
            raise ValueError(f"{action!r} is not a legal action now")
        _, _, step, args = self.pending
        self.pending = None
        step(self, *args, action)
        self._run()

    def is_terminal(self) -> bool:
        return self.over

    def scores(self) -> list[int]:
        """Points on the red track, by seat."""
        return [p.red for p in self.players]

    # ------------------------------------------------------------- the machine
    def _then(self, *steps):
        """Run these steps, in this order, before anything already waiting."""
        self.todo.extend(reversed(steps))

    def _run(self):
        todo = self.todo
        while todo and self.pending is None:
            step, args = todo.pop()
            step(self, *args)

    def _ask(self, seat, options, step, *args):
        """Let `seat` choose among `options`, then call step(self, *args, choice).
        Must be the last thing a step does; one option is taken without asking."""
        if len(options) == 1:
            step(self, *args, options[0])
        else:
            self.pending = (seat, options, step, args)

    # ------------------------------------------------------------- chance
    def _random(self) -> random.Random:
        """The game's generator. A clone shares it until either draws: then that one
        takes a copy, so a clone has the same future as its original."""
        if self.rng_shared:
            rng = random.Random()
            rng.setstate(self.rng.getstate())
            self.rng, self.rng_shared = rng, False
        return self.rng

    def _shuffle(self, pile):
        if self.chooser is None:     # with a chooser every draw is chosen instead
            self._random().shuffle(pile)

    def _draw(self, pile, order):
        """Take one card (by name) from a shuffled pile."""
        if self.chooser is None:
            return pile.pop()
        counts = Counter(pile)
        if len(counts) == 1:        # all alike: certain, not a chance event (as in rulespec)
            return pile.pop()
        name = self.chooser("draw", [(x, counts[x] / len(pile)) for x in order if x in counts])
        pile.remove(name)
        return name

    def _pick(self, items):
        if self.chooser is None:
            return self._random().choice(items)
        return self.chooser("pick", [(x, 1 / len(items)) for x in items])

    def _draw_regions(self, p, n):
        """Draw n region cards to p's hand, reshuffling the discards when the deck runs out."""
        for _ in range(n):
            if not self.region_deck:
                if not self.region_discard:
                    return
                self.region_deck, self.region_discard = self.region_discard, []
                self._shuffle(self.region_deck)
            p.hand[self._draw(self.region_deck, self.comp.region_order)] += 1

    def _draw_yield(self):
        if not self.yield_deck:
            self.yield_deck, self.yield_discard = self.yield_discard, []
            self._shuffle(self.yield_deck)
        return self._draw(self.yield_deck, self.comp.yield_order)

    # ------------------------------------------------------------- set-up
    def _deal(self, seat):
        """21 tiles into 3 face-down stacks of 7, 5 region cards, 3 region boards drawn."""
        p = self.players[seat]
        comp = self.comp
        pile = [t for t, k in comp.player_tiles.items() for _ in range(k)]
        self._shuffle(pile)
        for stack in p.stacks:
            for _ in range(comp.stack_size):
                stack.append(self._draw(pile, comp.tile_order))
        self._draw_regions(p, 5)
        drawn = []
        for left in self.boards_left.values():     # A, B, C
            board = self._pick(left)
            left.remove(board)
            drawn.append(board)
        self._ask(seat, drawn, Castles._board_chosen, seat, tuple(drawn), (), 0)

    # The estate: per board, left to right, which board, which way up, and (after
    # the first) one hex up, level or down from its left neighbour.
    def _board_chosen(self, seat, drawn, parts, dr, board):
        left = tuple(b for b in drawn if b != board)
        self._ask(seat, ["upright", "turned"], Castles._side_chosen, seat, left, parts, dr, board)

    def _side_chosen(self, seat, left, parts, dr, board, side):
        if parts:
            self._ask(seat, list(self.comp.offsets), Castles._board_laid, seat, left, parts, dr, board,
                      side)
        else:
            self._board_laid(seat, left, parts, dr, board, side, None)

    def _board_laid(self, seat, left, parts, dr, board, side, shift):
        p = self.players[seat]
        if shift is not None:
            dr = dr - 1 + self.comp.offsets[shift]   # a column two to the right is one r lower
        dq = self.comp.board_width * len(parts)
        # turned 180 degrees about its cell 0,0, then shifted back onto its footprint
        part = (board, dq + 1, dr + 4, 3) if side == "turned" else (board, dq, dr, 0)
        parts += (part,)
        if left:
            self._ask(seat, list(left), Castles._board_chosen, seat, left, parts, dr)
        else:
            p.estate = estate(parts)

    def _ask_castle(self, seat):
        p = self.players[seat]
        self._ask(seat, list(p.estate.cells_of["dark_green"]), Castles._lay_starting_castle, seat)

    def _lay_starting_castle(self, seat, cell):
        p = self.players[seat]
        p.cover(cell, STARTING_CASTLE)     # no scoring, no effect

    def _choose_start_player(self):
        self.start_player = self._pick(list(range(self.n)))
        order = [self.players[(self.start_player + i) % self.n] for i in range(self.n)]
        self._then(*[(Castles._take_bonus_tile, (p.seat,)) for p in order],
                   (Castles._open_display, ()), (Castles._start_round, (1,)))

    def _open_display(self):
        for _ in range(8):
            if self.neutral_stacks:
                self.display.insert(0, self._draw(self.neutral_stacks, self.comp.tile_order))
        self._five_of_a_colour()

    # ------------------------------------------------------------- rounds and turns
    def _start_round(self, number):
        self.round, self.turn_of, self.turns_left = number, self.start_player, -1
        self._next_turn()

    def _next_turn(self):
        if self.turns_left == 0:
            for p in self.players:
                p.red += p.green        # the green track is banked, not reset
            if self.round < 3:
                self._start_round(self.round + 1)
            else:
                self._final_scoring()
            return
        p = self.players[self.turn_of]
        self._then((Castles._turn, (p.seat,)), (Castles._offer_marble, (p.seat,)),
                   (Castles._end_of_turn, (p.seat,)))

    def _end_of_turn(self, seat):
        """The round ends when someone has emptied `round` stacks: then play on until
        the player right of the start player has had a turn (round 3: one more each)."""
        if self.turns_left > 0:
            self.turns_left -= 1
        elif any(q.stacks_emptied() >= self.round for q in self.players):
            if self.round == 3:
                self.turns_left = self.n
            else:
                self.turns_left = (self.start_player - seat - 1) % self.n
        self.turn_of = (seat + 1) % self.n
        self._then((Castles._next_turn, ()))

    def _offer_marble(self, seat):
        """Each marble buys one more turn, played at once."""
        p = self.players[seat]
        if p.marble > 0:
            self._ask(seat, [END_TURN, SPEND_MARBLE], Castles._marble_answered, seat)

    def _marble_answered(self, seat, answer):
        p = self.players[seat]
        if answer == SPEND_MARBLE:
            p.marble -= 1
            self.supply["marble_supply"] += 1
            self._then((Castles._turn, (seat,)), (Castles._offer_marble, (seat,)))

    def _final_scoring(self):
        for p in self.players:
            p.red += (len(p.storage) + p.blue_hexes + p.marble + p.workers
                      + sum(p.hand.values()) // 3)
        self.over = True

    def _turn(self, seat):
        p = self.players[seat]
        options = self._turn_options(p)
        if options:                       # with nothing legal the turn passes
            self._ask(seat, options, Castles._act, seat)

    def _turn_options(self, p):
        options = []
        if self.region_deck or self.region_discard:
            options.append(DRAW)
        options += [("take", name) for name in _unique(self.display)]
        colour_of, cell_colour = self.comp.tile_colour, p.estate.colour
        for name in _unique(p.storage):
            colour = colour_of[name]
            if p.payment_units(colour) >= 2:
                options += [("place", name, c) for c in p.frontier if cell_colour[c] == colour]
        if p.blue_hexes > 0:
            units = {colour: p.payment_units(colour) for colour in self.comp.colours}
            options += [("blue", c) for c in range(len(cell_colour))
                        if c not in p.covered and units[cell_colour[c]] >= 2]
        return options

    def _act(self, seat, action):
        p = self.players[seat]
        kind = action[0]
        if kind == "draw":
            self._draw_regions(p, 2 + p.bonuses["bonus_draw"])
        elif kind == "take":
            self.display.remove(action[1])
            self._then((Castles._refill_display, (seat,)))
            self._store_tile(p, action[1])
        elif kind == "place":
            _, name, cell = action
            p.storage.remove(name)
            self._then((Castles._place_tile_on, (seat, name, cell)))
            self._pay_for(p, self.comp.tile_colour[name])
        else:
            cell = action[1]
            self._then((Castles._place_blue_hex, (seat, cell)))
            self._pay_for(p, p.estate.colour[cell])

    def _key(self, p, option) -> str:
        if isinstance(option, tuple):
            kind = option[0]
            if kind == "draw":
                return "draw region cards"
            if kind == "take":
                return "take " + option[1]
            if kind == "place":
                return f"place {option[1]} on {p.estate.key[option[2]]}"
            if kind == "blue":
                return "place blue hex on " + p.estate.key[option[1]]
            if kind == "pay":
                return f"pay {option[1][0]} + {option[2][0]}"
        if isinstance(option, int):
            return p.estate.key[option]
        return option

    # ------------------------------------------------------------- tiles
    def _store_tile(self, p, name):
        """Storage full: one tile (the new one or a stored one) goes back to the box."""
        capacity = self.comp.storage_spaces + p.bonuses["bonus_storage"]
        if len(p.storage) < capacity:
            p.storage.append(name)
        else:
            self._ask(p.seat, _unique(p.storage + [name]), Castles._tile_to_box, p.seat, name)

    def _tile_to_box(self, seat, name, out):
        p = self.players[seat]
        if out != name:
            p.storage.remove(out)
            p.storage.append(name)

    def _refill_display(self, seat):
        """The top tile of p's left-most stack replaces the tile taken."""
        p = self.players[seat]
        stack = next((s for s in p.stacks if s), None)
        if stack is not None:
            self.display.insert(0, stack.pop())
            self._five_of_a_colour()

    def _five_of_a_colour(self):
        """Five tiles of one colour on display go out and five neutral tiles replace them."""
        colour_of = self.comp.tile_colour
        while len(self.neutral_stacks) >= 5:
            counts = Counter(colour_of[t] for t in self.display)
            crowded = next((c for c in self.comp.colours if counts[c] >= 5), None)
            if crowded is None:
                return
            for _ in range(5):   # the newest first: the spec takes from the display's front
                self.display.remove(next(t for t in self.display if colour_of[t] == crowded))
            for _ in range(5):
                self.display.insert(0, self._draw(self.neutral_stacks, self.comp.tile_order))

    # ------------------------------------------------------------- paying
    def _pay_for(self, p, colour):
        """Two cards' worth: a card of the colour, two same-colour cards of another
        colour, or a worker, each at most twice; every pair of two is a way to pay."""
        units = []
        units += [(colour, (colour,), 0)] * min(p.hand[colour], 2)
        for other in self.comp.colours:
            if other != colour:
                units += [("2 " + other, (other, other), 0)] * min(p.hand[other] // 2, 2)
        units += [("worker", (), 1)] * min(p.workers, 2)
        plans = _unique(("pay", units[i], units[j])
                        for i in range(len(units)) for j in range(i + 1, len(units)))
        self._ask(p.seat, plans, Castles._paid, p.seat)

    def _paid(self, seat, plan):
        p = self.players[seat]
        for _, cards, workers in plan[1:]:
            for card in cards:
                p.hand[card] -= 1
                self.region_discard.append(card)
            p.workers -= workers
            self.supply["worker_supply"] += workers

    # ------------------------------------------------------------- placing
    def _place_blue_hex(self, seat, cell):
        p = self.players[seat]
        p.blue_hexes -= 1
        p.cover(cell, BLUE_HEX)
        self._score_cover(p, cell)

    def _place_tile_on(self, seat, name, cell):
        p = self.players[seat]
        p.cover(cell, name)
        self._score_cover(p, cell)
        self._tile_effect(p, name, cell)

    def _score_cover(self, p, cell):
        """A completed colour zone scores on the green track; the last zone of a
        colour takes that colour's bonus (side 1, then side 2, then none)."""
        covered, estate_ = p.covered, p.estate
        zone = estate_.zone[cell]
        if all(c in covered for c in zone):
            p.green += zone_value(len(zone))
        colour = estate_.colour[cell]
        if all(c in covered for c in estate_.cells_of[colour]):
            side = self.bonus_side[colour]
            if side > 0:
                p.green += self.comp.colour_bonus[colour][side - 1]
                self.bonus_side[colour] = 2 if side == 1 else 0

    def _tile_effect(self, p, name, cell):
        colour = self.comp.tile_colour[name]
        if colour == "dark_green":
            self._castle_effect(p)
        elif colour == "red":
            self._take_bonus_tile(p.seat)
        elif colour == "blue":
            self._inn_effect(p)
        elif colour == "light_green":
            self._agriculture(p, name, cell)
        elif colour == "grey":
            self._gain(p, "marble", "marble_supply", 1 + p.bonuses["bonus_marble"])
        elif colour == "orange":
            self._gain(p, "workers", "worker_supply", 1 + p.bonuses["bonus_worker"])
        elif colour == "yellow":
            self._draw_regions(p, 3)     # the +1 region card bonus does not apply
        elif colour == "beige":
            for _ in range(1 + p.bonuses["bonus_yield"]):
                self._wagon(p)

    def _open_cells(self, p, colour):
        cell_colour = p.estate.colour
        return [c for c in p.frontier if cell_colour[c] == colour]

    def _castle_effect(self, p):
        """Any tile of the display, placed for free; the display is refilled after."""
        colour_of = self.comp.tile_colour
        free = [t for t in _unique(self.display) if self._open_cells(p, colour_of[t])]
        if free:
            self._then((Castles._refill_display, (p.seat,)))
            self._ask(p.seat, free, Castles._castle_tile_chosen, p.seat)

    def _castle_tile_chosen(self, seat, name):
        p = self.players[seat]
        self._ask(seat, self._open_cells(p, self.comp.tile_colour[name]),
                  Castles._castle_cell_chosen, seat, name)

    def _castle_cell_chosen(self, seat, name, cell):
        self.display.remove(name)
        self._place_tile_on(seat, name, cell)

    def _take_bonus_tile(self, seat):
        kinds = [kind for kind, _ in self.comp.bonus_tiles if self.bonus_supply[kind] > 0]
        if kinds:
            self._ask(seat, kinds, Castles._bonus_taken, seat)

    def _bonus_taken(self, seat, kind):
        p = self.players[seat]
        self.bonus_supply[kind] -= 1
        p.bonuses[kind] += 1
        if kind == "bonus_storage":
            p.green += 2

    def _inn_effect(self, p):
        if p.blue_hexes < self.comp.blue_staging and self.supply["blue_supply"] > 0:
            self.supply["blue_supply"] -= 1
            p.blue_hexes += 1
        else:
            p.red += 2

    def _agriculture(self, p, name, cell):
        """A crop new to its zone scores 1 per crop now in the zone."""
        crop_of, covered = self.comp.tile_crop, p.covered
        before = {crop_of[covered[c]] for c in p.estate.zone[cell]
                  if c != cell and c in covered and covered[c] != BLUE_HEX}
        if crop_of[name] not in before:
            p.green += len(before) + 1

    def _gain(self, p, what, supply, n):
        """Marble or workers from the supply, as many as it still holds."""
        got = min(n, self.supply[supply])
        self.supply[supply] -= got
        setattr(p, what, getattr(p, what) + got)

    def _wagon(self, p):
        card = self._draw_yield()
        reward = self.comp.yield_reward[card]
        p.green += reward["points"]
        self._gain(p, "marble", "marble_supply", reward["marble"])
        self._gain(p, "workers", "worker_supply", reward["workers"])
        self._draw_regions(p, reward["cards"])
        self.yield_discard.append(card)



def new_game(players: int, seed: int = 0, chooser=None) -> Castles:
    """A new game of `players` (2-4) seats, set up and waiting at its first decision.
    chooser: None (random events from random.Random(seed)) or f(kind, outcomes) -> value."""
    return Castles(players, seed, chooser)
