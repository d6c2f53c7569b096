"""Presentation: prompts from the spec, templates, bookkeeping hidden, logs as a seat sees them."""
from __future__ import annotations

from interpreter.tools.present import Presentation, fill
from interpreter.tools.table import EVERYTHING, seat_table, visible_event
from rulespec.dsl import parse_statements
from tests.paths import ROOT
from tests.shipped import shipped


def game(name):
    return shipped(str(ROOT / "games" / f"{name}.yaml"))


def test_as_gives_a_decision_its_question_in_every_choosing_construct():
    for text in ('x = choose one of [1, 2] by p as "Q?"\n', 'x = choose number from 1 to 3 by p as "Q?"\n',
                 'x = choose up to 2 of [1, 2] by p as "Q?"\n', 'x = auction among ps as "Q?"\n',
                 'turn p until done as "Q?": a, b\n', 'choose by p as "Q?":\n    "a": pass\n'):
        node = parse_statements(text).body[0]
        assert node.prompt == "Q?", text
    assert parse_statements('x = choose one of [1, 2] by p\n').body[0].prompt is None


def test_castles_questions_are_asked_in_words_and_labels_stay_the_engines():
    castles = game("castles")
    pres = Presentation(castles)
    state = castles.new_state(2, 1)
    asked = set()
    while not state.is_terminal() and state.round() < 2:
        asked.add(pres.prompt(state))
        state.apply(0)
    assert "On which dark green hex does your starting castle go?" in asked
    assert "Your turn: draw cards, take a tile or place one?" in asked
    assert all(p and "{" not in p for p in asked)


def test_a_prompt_shows_locals_and_a_default_names_the_rule():
    assert fill("Influence {c} for {n}?", {"c": "mass#1", "n": 3}) == "Influence mass#1 for 3?"
    assert fill("{unknown} stays", {}) == "{unknown} stays"
    market = shipped(str(ROOT / "tests" / "games" / "market.yaml"))
    state = market.new_state(2, 1)
    prompt = Presentation(market).prompt(state)
    assert prompt and "{" not in prompt


def test_cards_and_variables_read_as_the_spec_says():
    pres = Presentation(game("castles"))
    assert pres.card_text("red#1") == "red region card"
    assert pres.card("red#1")["colour"] == "#d84c3c"
    assert pres.var_text("red", 5) == "★ 5"
    assert "boards_left" in pres.hidden and "turn_step" in Presentation(game("zena")).hidden


def test_bookkeeping_is_never_listed_and_others_hidden_values_are_question_marks():
    zena = game("zena")
    state = zena.new_state(2, 3)
    table = seat_table(state, 0, Presentation(zena))
    names = {v["name"] for p in table["players"] for v in p["vars"]}
    assert "placement" not in names and "coins" in names
    gift = [v["text"] for v in table["players"][1]["vars"] if v["name"] == "gift"]
    assert gift == ["?"]
    own_hand = [z for z in table["zones"] if z["name"] == "hand@0"][0]
    other_hand = [z for z in table["zones"] if z["name"] == "hand@1"][0]
    assert own_hand["cards"] and other_hand["cards"] is None and other_hand["count"] == 6


def test_a_card_drawn_into_anothers_hand_is_a_card_in_your_log():
    zena = game("zena")
    pres = Presentation(zena)
    events = []
    state = zena.new_state(2, 3, record=True, trace=lambda r: None)
    moves = [e for e in state.events if "change" in e and e["change"]["kind"] == "move"
             and e["change"]["to"] == "hand[P2]"]
    assert moves
    card = moves[0]["change"]["what"]
    mine = visible_event(state, moves[0], 0, pres)
    theirs = visible_event(state, moves[0], 1, pres)
    designer = visible_event(state, moves[0], EVERYTHING, pres)
    assert mine["text"].startswith("a card") and pres.card_text(card) not in mine["text"]
    assert pres.card_text(card) in theirs["text"] and pres.card_text(card) in designer["text"]
    assert mine["where"].startswith("procedure") or ":" in mine["where"]
    shuffles = [e for e in state.events if "chance" in e and e["chance"] == "shuffle"]
    shown = visible_event(state, shuffles[0], 0, pres)["text"]
    assert "shuffled" in shown and "#" not in shown   # never the order
    del events
