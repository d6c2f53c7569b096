"""The terminal seat reads the game as the table shows it: questions in words, what
changed since its last decision, its own status, help and card details."""
from __future__ import annotations

import io

from interpreter.cli import main
from tests.paths import ROOT

ZENA = str(ROOT / "games" / "zena.yaml")
SEED = "6997941401746768746"   # rng.seed_of_v1(2): the deal these tests were written for


def play(lines: str, *extra) -> str:
    out = io.StringIO()
    code = main(["play", ZENA, "--players", "2", "--agents", "human,random", "--seed", SEED, *extra],
                stdout=out, stderr=io.StringIO(), stdin=io.StringIO(lines))
    assert code in (0, 1)
    return out.getvalue()


def test_help_info_and_status_answer_instead_of_a_spec_error():
    text = play("help\ninfo 13\nstatus\n")
    assert "info N" in text and "error" not in text.split("info N", 1)[1].split("\n")[0]
    assert "audience (palace, temporary) (action card): area palace" in text
    assert "P2: Coins ● 4" in text and "hand of P2: 6 face down" in text
    assert "turn_step" not in text and "placement:" not in text and "placement=" not in text   # bookkeeping


def test_the_question_is_in_words_and_the_news_since_the_last_decision_is_listed():
    text = play("1\n1\n1\n1\n1\n")
    assert "Your turn: move a pawn, promote, influence, or take a coin or card?" in text
    assert "Since your last decision:" in text
    assert "pawns [P1][lord]: bank → cathedral   (action move_pawn, zena.yaml:" in text
    assert "P2: " in text.split("Since your last decision:", 2)[2]   # the other seat's moves are echoed


def test_another_seats_cards_are_never_named():
    text = play("1\n1\n1\n1\n1\n")
    dealt = [line for line in text.splitlines() if "→ hand [P2]" in line]
    assert dealt and all(line.strip().startswith("a card:") for line in dealt)
