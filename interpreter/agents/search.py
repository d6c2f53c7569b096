"""Agents that look ahead: greedy (one step) and MCTS, honest about hidden information.

Neither ever looks at what its seat cannot see. Both search copies made by
`determinize`: the state as the seat sees it, with everything hidden from it
filled in by a guess drawn from the agent's own generator — the cards it
cannot see dealt anew among the zones it cannot see, each zone keeping what
its view shows (visibility.view): its count and how many of its cards are of
each kind (card backs show their kind), the kinds in a random order (the order
of backs in a face-down zone is not shown); hidden variables drawn from their
declared range, and a fresh random-number state so future shuffles and rolls
are guesses too. The guess is built from sorted pools, so two states that look
the same to the seat give the same guess for the same generator: the real
hidden state cannot leak through the order.

A card the seat cannot see that a rule's local holds (a frame's variables:
another player's secret pick, say) or a hidden variable holds (the cards laid
face down) stands for a guess too: each such card becomes a card dealt into its
zone in the copy, drawn at random without replacement, the same card wherever it
is held (`_CardGuesses`). The guess keeps what the seat knows, that a card from
that zone is held, and the rules can play on with it (the card is where the real
one was). It does not keep the card's kind: the view gives a hidden zone's count
of each kind, never which of those backs a rule holds, so another player's
secret pick from a hand of mixed kinds (the cards discarded, not yet moved) is
guessed among all that hand's cards. Other values in locals (numbers,
texts) are copied as they are: a loop's counter cannot be guessed without
breaking the rule that runs, so a spec should keep a hidden number in a hidden
variable, not in a local across another player's decision.
"""
from __future__ import annotations

import bisect
import math
import random as _random

from rulespec.errors import RuleError
from ..engine import rng as _rng
from ..engine import visibility
from ..engine.state import _starting_zones
from ..engine.values import cards_in


# -------------------------------------------------------------- determinize
def determinize(state, seat: int, rand: _random.Random):
    """A copy of `state` in which all that `seat` cannot see is a fresh guess.

    The invariant: two states with equal view(seat) (visibility.view) give the same
    guess for generators in the same state, but for the zones of the cards that
    the rules' locals and hidden variables hold (see _CardGuesses): determinize reads the real hidden
    zones only through what the view gives of them — each one's count of each card
    kind, and which cards are unseen (every card not in a zone the seat sees) —
    never which card is in which hidden zone, nor the order of cards or kinds."""
    st = state.clone()
    kinds = {card: attrs["kind"] for card, attrs in st.game.cards.items()}
    hidden = [zone for zone in zone_order(st) if not visibility.sees_zone(st.game, zone, seat)]
    _guess_card_values(state, st, seat, rand)
    _deal_hidden(st, hidden, kinds, rand)
    guesses = _CardGuesses(state, st, seat, rand)
    for frame in st.stack:      # (clone gave each frame its own env)
        env = frame.env
        for key, value in env.items():
            env[key] = guesses.of(value)
    _guess_variables(st, seat, rand, guesses)
    st.rng = _rng.seed_state(rand.getrandbits(62))
    return st


def _deal_hidden(st, hidden: list, kinds: dict, rand) -> None:
    """Deal the cards of the `hidden` zones of `st` anew (in place), from what the
    seat's view gives: per zone its count of each kind (visibility.kind_counts),
    laid in a random order, each slot a card of its kind from the pool of the unseen
    cards of the kind (sorted, then shuffled, so the real cards cannot leak).
    hidden: the zones in zone_order. The generator is drawn in orders the view
    fixes: pools by kind in the spec's order, zones in the game's."""
    counts = {zone: visibility.kind_counts(st.game, st.zones[zone]) for zone in hidden}
    pools: dict = {kind: [] for kind in st.game.data.get("cards") or {}}
    for zone in hidden:
        for card in st.zones[zone]:
            pools[kinds[card]].append(card)
    for pool in pools.values():
        pool.sort()
        rand.shuffle(pool)
    for zone in hidden:
        slots = [kind for kind, n in counts[zone].items() for _ in range(n)]
        if len(counts[zone]) > 1:   # (one kind: nothing to shuffle, and the generator is spared)
            rand.shuffle(slots)
        cards = [pools[kind].pop() for kind in slots]
        st.zones[zone] = cards
        for card in cards:
            st.loc[card] = zone


def zone_order(st) -> list:
    """The zones of `st` in the game's own order for its player count: a state loaded
    from a save keeps the save's order, which the guess must not depend on."""
    return list(_starting_zones(st.game, st.n)[0])


class _CardGuesses:
    """The guess for each card a seat cannot see that a value holds: a card dealt
    into the same zone in the copy, drawn without replacement from that zone's cards
    (sorted, then shuffled by the agent's generator, so the real cards and their
    order cannot leak), the same guess for a card wherever it is held. `state` is
    the real state, `st` its copy with the hidden zones dealt anew (_deal_hidden).
    The one thing it reads of the real state that the view does not give: the zone
    of a held card, what the public history tells of it (the hand a secret pick was
    made from); neither which card it is nor its kind, which a pick from a hand of
    mixed kinds keeps secret (the view shows the hand's count of each kind, not
    which of them was picked)."""

    def __init__(self, state, st, seat, rand):
        self.state, self.st, self.seat, self.rand = state, st, seat, rand
        self.made: dict = {}     # real card -> its guess
        self.left: dict = {}     # zone -> its cards not yet given as a guess

    def of(self, value):
        """`value` with each card the seat cannot see replaced by its guess (lists and
        maps walked, a map's keys too)."""
        return visibility.seen_cards(self.state, value, self.seat, self.card, keyed=True)

    def all_hidden(self, value) -> bool:
        """Whether every card `value` holds is one the seat cannot see (and it holds one)."""
        held = cards_in(self.st.game.cards, value)
        return bool(held) and not any(visibility.sees_card(self.state, c, self.seat) for c in held)

    def card(self, real: str) -> str:
        made = self.made.get(real)
        if made is None:
            zone = self.state.loc[real]
            left = self.left.get(zone)
            if left is None:
                left = sorted(self.st.zones[zone])
                self.rand.shuffle(left)
                self.left[zone] = left
            # the copy's zone holds as many cards as the real one: one each
            made = self.made[real] = left.pop()
        return made


def _guess_variables(st, seat, rand, guesses=None):
    """Variables the seat cannot see: a value whose cards are all cards the seat cannot
    see (the cards laid face down) keeps its shape with each card guessed
    (`guesses`: _CardGuesses); any other value is drawn anew (_guess), since which
    of the cards the seat sees a hidden value holds is itself a secret."""
    game = st.game
    decls = game.decls

    def guess(decl, value):
        if guesses is not None and guesses.all_hidden(value):
            return guesses.of(value)
        return _guess(decl, rand)
    for name, decl in decls["globals"].items():
        if not visibility.sees_variable(game, "globals", name, None, seat):
            st.g[name] = guess(decl, st.g[name])
    for name, decl in decls["per_player"].items():
        values = st.pv[name]
        for s in range(st.n):
            if not visibility.sees_variable(game, "per_player", name, s, seat):
                values[s] = guess(decl, values[s])


def _guess_card_values(state, st, seat, rand):
    """Per-card values the seat cannot see (in `state`, before cards are dealt anew).
    Whether a seat sees a card's value depends on the card only through its zone
    (visibility.sees_card_value), so it is asked once per zone, not per card."""
    for name, decl in st.game.decls["per_card"].items():
        seen = zones_showing_card_value(state, name, seat)
        values = st.cv[name]
        for card in sorted(values):
            if not seen.get(state.loc.get(card), False):
                values[card] = _guess(decl, rand)


def zones_showing_card_value(state, name: str, seat) -> dict:
    """{zone: whether `seat` sees per-card value `name` of a card in it}, for every
    zone of `state`: visibility.sees_card_value asked once per zone."""
    game = state.game
    return {zone: visibility.sees_zone(game, zone, seat)
            and visibility.sees_variable(game, "per_card", name, zone, seat) for zone in state.zones}


def _guess(decl, rand):
    """A value the seat cannot see: any the declaration allows, else its start."""
    if decl.get("one_of"):
        return rand.choice(list(decl["one_of"]))
    low, high = decl.get("min"), decl.get("max")
    if isinstance(low, int) and isinstance(high, int) and low <= high:
        return rand.randint(low, high)
    return decl["start"]


# ------------------------------------------------------------------ values
def win_shares(state) -> list[float]:
    """1 to the winner, split on a tie, 0 to everyone else: what MCTS maximises."""
    winners = state.winner()
    shares = [0.0] * state.n
    for seat in winners:
        shares[seat] = 1.0 / len(winners)
    return shares


def estimate(state, seat) -> float:
    """How good `state` looks for `seat`: the spec's `heuristic:` for p, else its score;
    relative to the best other seat, since a board game is won against the others."""
    if state.is_terminal():
        return 1e9 * win_shares(state)[seat] + _own(state, seat, state.game.score)
    return margins(state)[seat]


def margins(state) -> list[float]:
    """Per seat, its `heuristic:` (else its score) minus the best other seat's: its lead."""
    game = state.game
    judge = game.heuristic or game.score
    if judge is None:
        return [0.0] * state.n
    values = [judge(state, {"p": s}) for s in state.seats]
    if state.n == 1:
        return values
    return [v - max(values[:s] + values[s + 1:]) for s, v in enumerate(values)]


def _own(state, seat, f):
    return f(state, {"p": state.seats[seat]}) if f is not None else 0


# ------------------------------------------------------------------ agents
class GreedyAgent:
    """One step ahead: the option whose result `estimate` likes best (ties: at random).

    An option is judged once the seat has answered the follow-up questions it
    raises (which cards to keep after a donation, whether to build once the turn
    is done): each of those is answered the same way, one step ahead, up to
    FOLLOW_UPS of them, stopping at the seat's next action of a turn (`turn ...`
    asks again) or at another seat's decision. A payment whose reward is chosen
    in a second question is so seen with its reward.

    `greedy:N` looks past the others' answers: after each option, the other seats
    play uniformly at random, up to N decisions, until this seat decides again, so
    what an option costs later (a bid paid when the auction closes) is seen.
    Raises ValueError for an option that is not a whole number >= 0.
    """
    name = "greedy"
    FOLLOW_UPS = 4

    def __init__(self, seed: int = 0, option: str | None = None):
        if option and not (option.isdigit() and option.isascii()):
            raise ValueError(f"greedy:N needs a whole number of decisions, not '{option}'")
        self.ahead = int(option) if option else 0
        self.rand = _random.Random(seed)

    def choose(self, state):
        seat = state.current_player()
        guess = determinize(state, seat, self.rand)
        return self._best(guess, state.legal_actions(), seat, self.FOLLOW_UPS)

    def _best(self, guess, options, seat, follow):
        """The option of `options` (of the decision pending in `guess`) judged best:
        with `follow` > 0 after the seat's follow-up questions and the others' answers
        (greedy:N), with 0 at once (a follow-up question's own options)."""
        best, best_value = [], None
        for option in options:
            after = guess.clone()
            try:
                after.apply(option.index)
                if follow:
                    self._follow_up(after, seat, follow)
                    self._others_answer(after, seat)
            except RuleError:   # the guess cannot be played on (see MCTSAgent.choose)
                continue
            value = estimate(after, seat)
            if best_value is None or value > best_value:
                best, best_value = [option], value
            elif value == best_value:
                best.append(option)
        best = best or options
        return best[self.rand.randrange(len(best))]

    def _follow_up(self, state, seat, follow) -> None:
        """Answer `seat`'s own next questions, one step ahead each, `follow` at most."""
        for _ in range(follow):
            if (state.is_terminal() or state.current_player() != seat
                    or state.pending.kind == "action"):
                return
            options = state.legal_actions()
            state.apply(self._best(state, options, seat, 0).index)

    def _others_answer(self, state, seat) -> None:
        """The others' next decisions, up to `ahead`, until `seat` decides again: each
        takes the null move where there is one (a bid's "pass", a turn's "done", an
        option whose value is "pass"), else an option at random. The null-move
        assumption of game-tree search: what an option is worth if nobody answers it,
        so a bid is seen paid at its own price, as it would be if nobody outbid it."""
        for _ in range(self.ahead):
            if state.is_terminal() or state.current_player() == seat:
                return
            values = state.pending.values
            null = [i for i, v in enumerate(values) if isinstance(v, str) and v in NULL_MOVES]
            index = null[0] if null else self.rand.randrange(len(values))
            try:
                state.apply(index)
            except RuleError:
                return


# Options that leave the game as it is: an auction's pass, the end of a turn.
NULL_MOVES = frozenset({"pass", "done"})


class Node:
    """One node of MCTS's tree: the statistics of one option in the position reached
    by the options above it, and no state. A playout makes its own state by applying
    the path's options to a fresh determinization (the tree is keyed by labels, which
    name an option alike in every guess), so the tree costs about 200 bytes a node
    (benchmarks/mcts_memory.py), not a state's tens of kilobytes.

    children: option label -> Node, for the options tried below this one; visits:
    playouts through it; total: the sum of their shares (0 to 1) for the seat that
    chose it; avail: playouts in which it was legal (the UCB term's parent count)."""
    __slots__ = ("children", "visits", "total", "avail")

    def __init__(self):
        self.children: dict = {}
        self.visits, self.total, self.avail = 0, 0.0, 1

    def size(self) -> int:
        """Nodes in this subtree, itself included."""
        count, todo = 0, [self]
        while todo:
            node = todo.pop()
            count += 1
            todo.extend(node.children.values())
        return count


class MCTSAgent:
    """Information-set MCTS: each playout searches a new determinization, the tree is
    keyed by option labels, and every seat's node maximises that seat's share.

    `mcts:N` runs N playouts per decision, each to the end: a winner's share is 1
    (split on a tie), everyone else's 0. `mcts:N:D` stops each random playout after
    D decisions (D = 0: no random playout, the new node is judged at once), and
    judges it by how each seat's margin (see `margins`) moved from the start of
    the playout (see `_judge`): cheaper in long games."""
    name = "mcts"
    EXPLORE = 0.7

    def __init__(self, seed: int = 0, option: str | None = None):
        parts = (option or "200").split(":")
        if len(parts) > 2 or not all(p.isascii() and p.isdigit() for p in parts) or int(parts[0]) == 0:
            raise ValueError(f"mcts takes mcts:PLAYOUTS or mcts:PLAYOUTS:DEPTH (PLAYOUTS "
                             f"above 0, DEPTH 0 or more), not 'mcts:{option}'")
        self.playouts = int(parts[0])
        self.depth = int(parts[1]) if len(parts) == 2 else None
        self.rand = _random.Random(seed)
        self._moves: list[float] = []   # sorted sizes of the margin moves this search saw

    def choose(self, state):
        options = state.legal_actions()
        if len(options) == 1:
            return options[0]
        root = self.search(state)
        by_label = {o.label: o for o in options}
        ranked = sorted(by_label, key=lambda label: -(root.children[label].visits
                                                       if label in root.children else -1))
        return by_label[ranked[0]]

    def search(self, state) -> Node:
        """Run this agent's playouts from `state` for the seat to decide; the tree's
        root, whose children are the options tried (by label). Raises the RuleError
        of the last skipped playout when none could be played on (see below)."""
        seat = state.current_player()
        root = Node()
        self._moves = []
        error = None
        for _ in range(self.playouts):
            try:
                guess = determinize(state, seat, self.rand)
                start = margins(guess) if self.depth is not None else None
                self._playout(root, guess, start)
            except RuleError as e:
                # A guess the spec's rules cannot play on (a rule expects a card in a
                # hidden zone the guess moved away): skip it. Mark such zones public.
                error = e
                continue
        if error is not None and not root.children:
            raise error     # no playout ran: a fault of the rules (a heuristic), not a guess
        return root

    def _playout(self, root, st, start):
        path, node = [], root
        while not st.is_terminal():                      # select, then expand one node
            player, labels = st.current_player(), st.pending.labels
            untried = [i for i, label in enumerate(labels) if label not in node.children]
            for label in labels:
                if label in node.children:
                    node.children[label].avail += 1
            if untried:
                index = untried[self.rand.randrange(len(untried))]
                node.children[labels[index]] = child = Node()
                st.apply(index)
                path.append((child, player))
                break
            index = self._select(node, labels, player)
            node = node.children[labels[index]]
            st.apply(index)
            path.append((node, player))
        rand, left = self.rand, self.depth
        while not st.is_terminal() and left != 0:       # random to the end (or the depth)
            st.apply(rand.randrange(len(st.pending.values)))   # no labels made in a playout
            if left is not None:
                left -= 1
        shares = win_shares(st) if st.is_terminal() else self._judge(st, start)
        for child, player in path:
            child.visits += 1
            child.total += shares[player]

    def _judge(self, st, start) -> list[float]:
        """A cut playout's share for each seat: how far its margin moved from `start`,
        squashed into (0, 1) by tanh, on the scale of the median move (of those not 0)
        this search has seen. Not "who leads now": once one seat leads by far (say,
        it holds a rank no other seat has) it leads in every playout, and a 0/1 lead
        then tells the search nothing; how much the lead grew or shrank still does."""
        moves = [m - s for m, s in zip(margins(st), start)]
        seen = self._moves
        for move in moves:
            if move:
                bisect.insort(seen, abs(move))
        scale = seen[len(seen) // 2] if seen else 1.0
        return [0.5 + 0.5 * math.tanh(move / scale) for move in moves]

    def _select(self, node, labels, player) -> int:
        best, best_value = 0, -1.0
        for i, label in enumerate(labels):
            child = node.children[label]
            if child.visits == 0:   # its only playout was skipped
                return i
            value = (child.total / child.visits
                     + self.EXPLORE * math.sqrt(math.log(child.avail) / child.visits))
            if value > best_value:
                best, best_value = i, value
        return best
