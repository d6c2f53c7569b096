"""The terminal seat reads the game as the table shows it: questions in words, what
changed since its last decision, its own status, help and card details."""
from __future__ import annotations

import io
import json

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


# --------------------------------------------- answers that are not an option
MARKET = str(ROOT / "tests" / "games" / "market.yaml")
HOW = "`options` shows them again, `help` the commands."


def play_market(lines: str, *extra) -> str:
    out = io.StringIO()
    code = main(["play", MARKET, "--players", "2", "--agents", "human,first", "--seed", "3", *extra],
                stdout=out, stderr=io.StringIO(), stdin=io.StringIO(lines))
    assert code in (0, 1)
    return out.getvalue()


def refusals(text: str) -> list[str]:
    """Each refusal's two lines, joined: what was wrong, then how to answer."""
    lines = text.splitlines()
    return [f"{line} {lines[i + 1].strip()}" for i, line in enumerate(lines[:-1])
            if lines[i + 1].strip().endswith(HOW)]


def test_a_number_out_of_range_an_unknown_word_and_a_refused_option_read_alike():
    # bets are numbered 1-3; at the auction `bid` starts five options; pray is refused
    said = refusals(play_market("7\nxyz\n2\nbid\nbid 1\npray\n"))
    assert len(said) == 4, said
    assert said[0] == f"> '7' is not one of the options. Type a number from 1 to 3 or an option's text; {HOW}"
    assert said[1] == f"> 'xyz' is not one of the options. Type a number from 1 to 3 or an option's text; {HOW}"
    assert said[2] == ("> 'bid' is the start of 5 options: bid 1, bid 2, bid 3, bid 4, bid 5. "
                       f"Type more of its text, or a number from 1 to 6; {HOW}")
    assert said[3].startswith("> 'pray' is not one of the options: action pray refuses it: "
                              "`player.where == temple` is false: player.where = gate "
                              "(its `when:` at ")
    assert "error" not in "\n".join(said)    # a person's slip is not a spec error


def test_a_unique_start_of_an_option_chooses_it_and_says_which(tmp_path):
    log = tmp_path / "h.jsonl"
    text = play_market("2\nPA\n", "--log", str(log))
    assert ">   (pass)" in text
    decisions = [json.loads(x)["decision"] for x in log.read_text().splitlines() if '"decision"' in x]
    assert [d["label"] for d in decisions if d["player"] == 0][:2] == ["1", "pass"]


def test_options_shows_the_question_again_and_nothing_is_lost():
    text = play_market("9\noptions\n2\n")
    again = text.split(HOW, 1)[1]
    assert "Choose a number (phase bets)" in again and "  3. 2" in again
    assert "Bid, or pass" in again       # the next answer still counts: the game went on
