"""The action vocabulary: every legal option met in random games of every game has an
id, ids are a stable function of what an option does, and the mask matches the
legal options."""
from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from interpreter import load_game
from interpreter.adapters.encoding import ActionVocabulary, UnnamedOption
from tests.paths import ROOT, TESTS
from tests.shipped import shipped

SPECS = sorted(str(p) for p in (ROOT / "games").glob("*.yaml")) + \
    sorted(str(p) for p in (TESTS / "games").glob("*.yaml"))
GAMES = 4           # random games per spec and player count (seeds unlike the probe's)


def player_counts(game):
    return sorted({game.min_players, min(game.max_players, 4)})


@pytest.mark.parametrize("spec", SPECS, ids=lambda p: Path(p).stem)
def test_every_option_of_random_games_has_an_id_and_the_mask_matches(spec):
    game = shipped(spec)
    for players in player_counts(game):
        vocab = ActionVocabulary(game, players)
        meaning: dict[int, tuple] = {}
        for seed in range(1000, 1000 + GAMES):
            st, rand = game.new_state(players, seed), random.Random(seed)
            while not st.is_terminal():
                ids = vocab.ids(st)
                assert len(ids) == len(st.legal_actions())
                mask = vocab.mask(st)
                assert mask.dtype == bool and mask.shape == (vocab.size,)
                assert set(np.flatnonzero(mask)) == set(ids)
                for index, action_id in enumerate(ids):
                    key = vocab.key(st, index)
                    assert meaning.setdefault(action_id, key) == key   # one id, one meaning
                pick = rand.randrange(len(ids))
                option = vocab.option_for(st, ids[pick])
                assert vocab.id_of(st, option) == ids[pick]
                st.apply(option)


def test_the_vocabulary_is_deterministic_and_names_each_id():
    game = shipped(str(TESTS / "games" / "market.yaml"))
    a, b = ActionVocabulary(game, 3), ActionVocabulary(load_game(str(TESTS / "games" / "market.yaml")), 3)
    assert a.keys == b.keys and a.size == len(a.names) == len(set(a.names))


def test_an_action_keeps_its_id_in_every_state():
    """Tic-tac-toe: marking a cell is one id whatever else is on the board."""
    game = shipped(str(TESTS / "games" / "tictactoe.yaml"))
    vocab = ActionVocabulary(game, 2)
    st = game.new_state(2, 0)
    first = dict(zip([o.label for o in st.legal_actions()], vocab.ids(st)))
    st.apply(0)
    later = dict(zip([o.label for o in st.legal_actions()], vocab.ids(st)))
    assert later and all(first[label] == i for label, i in later.items())
    assert all(vocab.names[i].startswith("action ") for i in later.values())


def test_a_menu_option_is_named_by_its_site_and_label():
    game = shipped(str(TESTS / "games" / "kuhn.yaml"))
    vocab = ActionVocabulary(game, 2)
    st = game.new_state(2, 0)
    names = [vocab.names[i] for i in vocab.ids(st)]
    assert names and all(n.startswith("menu kuhn.yaml:") for n in names)
    assert [n.rsplit(" ", 1)[-1] for n in names] == [o.label for o in st.legal_actions()]


def test_a_computed_option_has_one_id_whatever_is_offered_beside_it():
    """Castles' [tile, cell] placements and Zena's built texts: the same value is the
    same id in every decision of every game (not its place among the options)."""
    for spec, players in (("castles", 3), ("zena", 3)):
        game = shipped(str(ROOT / "games" / f"{spec}.yaml"))
        vocab = ActionVocabulary(game, players)
        id_of, computed = {}, 0
        for seed in range(2000, 2003):
            st, rand = game.new_state(players, seed), random.Random(seed)
            while not st.is_terminal():
                d = st.pending
                for index, action_id in enumerate(vocab.ids(st)):
                    value = (d.kind, repr(d.values[index]))
                    assert id_of.setdefault(value, action_id) == action_id, value
                    computed += vocab.key(st, index)[0] == "shape"
                st.apply(rand.randrange(len(d.values)))
        assert computed > 100
    assert any(n == "action place_tile card:inn#1 4,-2" for n in
               ActionVocabulary(shipped(str(ROOT / "games" / "castles.yaml")), 3).names)


def test_a_number_piece_takes_its_shapes_whole_signed_range():
    """OpenSpiel's MCTS met Castles' "5,-4" at 2 players, a coordinate no probe game
    met at that position; and "1,2" (also a declared board node) was a word while
    "3,2" was pieces, so "1,-4" fitted neither shape. Every cell of the range any
    position met, mirrored about 0, has an id, with every tile of the section."""
    game = shipped(str(ROOT / "games" / "castles.yaml"))
    names = set(ActionVocabulary(game, 2).names)
    for cell in ("5,-4", "1,-4", "-5,5", "0,0", "1,2"):
        assert f"action place_tile card:inn#1 {cell}" in names, cell
    assert not any(n.startswith("action place_tile card:") and "word:" in n for n in names)


def test_an_option_of_a_shape_no_probe_met_names_the_decision():
    game = shipped(str(ROOT / "games" / "zena.yaml"))
    vocab = ActionVocabulary(game, 2, probe_games=0)   # no shape met
    for seed in range(20):
        st, rand = game.new_state(2, seed), random.Random(seed)
        while not st.is_terminal():
            try:
                vocab.ids(st)
            except UnnamedOption as e:
                assert "zena.yaml:" in str(e) and "no id for the" in str(e) and e.line
                return
            st.apply(rand.randrange(len(st.legal_actions())))
    pytest.fail("no computed option met")


def test_option_for_refuses_an_id_that_is_not_legal():
    game = shipped(str(TESTS / "games" / "tictactoe.yaml"))
    vocab = ActionVocabulary(game, 2)
    st = game.new_state(2, 0)
    illegal = next(i for i in range(vocab.size) if i not in set(vocab.ids(st)))
    with pytest.raises(ValueError, match="is not legal now"):
        vocab.option_for(st, illegal)


def test_option_for_takes_integer_ids_only():
    """The OpenSpiel and PettingZoo adapters' one way from an id to an option: a
    float equal to a legal id, a text or a bool is refused, never read as that id."""
    game = shipped(str(TESTS / "games" / "tictactoe.yaml"))
    vocab = ActionVocabulary(game, 2)
    st = game.new_state(2, 0)
    legal = vocab.ids(st)[0]
    assert vocab.option_for(st, np.int32(legal)) == vocab.option_for(st, legal)
    for bad in (float(legal), str(legal), True, None):
        with pytest.raises(ValueError, match=f"an action is an integer id, not {bad!r}"):
            vocab.option_for(st, bad)


# ---------------------------------------------------------------- observations
from interpreter.adapters.encoding import ObservationLayout   # noqa: E402
from interpreter.engine import visibility   # noqa: E402

HIDDEN_SPECS = [str(ROOT / "games" / f"{g}.yaml") for g in ("castles", "siena", "zena")] + \
    [str(TESTS / "games" / f"{g}.yaml") for g in ("market", "kuhn")]


def hide_differently(st, seat) -> int:
    """Change, in place, only what `seat` cannot see: swap cards of different names
    but one kind (a card's back shows its kind: the view counts kinds) between zones
    it cannot see into, reverse those zones, and set other seats' hidden values.
    Returns how many changes were made."""
    game, changes = st.game, 0
    kind = {card: attrs["kind"] for card, attrs in game.cards.items()}
    unseen = [z for z in st.zones if st.zones[z] and not visibility.sees_zone(game, z, seat)]
    for a, b in zip(unseen, unseen[1:]):
        x, y = next(((x, y) for x in st.zones[a] for y in st.zones[b]
                     if kind[x] == kind[y] and x.split("#")[0] != y.split("#")[0]), (None, None))
        if x is not None:
            i, j = st.zones[a].index(x), st.zones[b].index(y)
            st.zones[a][i], st.zones[b][j] = y, x
            st.loc[x], st.loc[y] = b, a
            changes += 1
    for zone in unseen:
        st.zones[zone].reverse()
    for name, values in st.pv.items():
        for other in range(st.n):
            if not visibility.sees_variable(game, "per_player", name, other, seat):
                values[other] = 12345
                changes += 1
    return changes


@pytest.mark.parametrize("spec", HIDDEN_SPECS, ids=lambda p: Path(p).stem)
def test_an_observation_does_not_change_with_what_the_seat_cannot_see(spec):
    game = shipped(spec)
    players = game.min_players
    layout = ObservationLayout(game, players)
    changed = 0
    for seed in range(3):
        st, rand = game.new_state(players, seed), random.Random(seed)
        for _ in range(rand.randrange(5, 40)):
            if st.is_terminal():
                break
            st.apply(rand.randrange(len(st.legal_actions())))
        for seat in range(players):
            other = st.clone()
            changed += hide_differently(other, seat)
            assert np.array_equal(layout.encode(st.view(seat), seat), layout.encode(other.view(seat), seat))
    assert changed, "nothing hidden was changed: the test proved nothing"


@pytest.mark.parametrize("spec", SPECS, ids=lambda p: Path(p).stem)
def test_the_layout_is_described_offset_by_offset(spec):
    game = shipped(spec)
    layout = ObservationLayout(game, game.min_players)
    parts = layout.describe()
    assert [p[0] for p in parts] == list(range(layout.size))
    assert all(length == 1 and name and meaning for _, length, name, meaning in parts)
    assert len({name for _, _, name, _ in parts}) == layout.size
    st = game.new_state(game.min_players, 0)
    vector = layout.encode(st.view(0), 0)
    assert vector.shape == (layout.size,) and vector.dtype == np.float32
    assert layout.size < layout.full_size or layout.full_size < 40


def test_docs_observations_table_holds_the_layouts_sizes():
    """docs/observations.md: each row's full and kept sizes are the layout's."""
    import re
    text = (ROOT / "docs" / "observations.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| (castles|siena|zena) \| (\d) \| (\d+) \| (\d+) \|", text, re.M)
    assert len(rows) == 9
    for name, players, full, kept in rows:
        layout = ObservationLayout(shipped(str(ROOT / "games" / f"{name}.yaml")), int(players))
        assert (layout.full_size, layout.size) == (int(full), int(kept)), (name, players)


@pytest.mark.parametrize("spec", SPECS, ids=lambda p: Path(p).stem)
def test_no_dropped_feature_changes_in_other_games(spec):
    """The keep rule (ObservationLayout's doc) loses nothing that games met beyond
    its probe games change: every dropped feature keeps one value, for every seat,
    through 3 random games of other seeds."""
    game = shipped(spec)
    players = game.min_players
    layout = ObservationLayout(game, players)
    dropped = np.ones(layout.full_size, bool)
    dropped[layout.index] = False
    first = None
    for seed in range(300, 303):
        st, rand = game.new_state(players, seed), random.Random(seed)
        while True:
            for seat in range(players):
                vector = layout.encode_full(st.view(seat), seat)[dropped]
                first = vector if first is None else first
                changed = [layout.features[i][0] for i in np.flatnonzero(dropped)[vector != first]]
                assert not changed, f"dropped features changed: {changed[:5]}"
            if st.is_terminal():
                break
            st.apply(rand.randrange(len(st.legal_actions())))
