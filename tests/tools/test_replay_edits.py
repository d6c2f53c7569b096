"""Replay across edits: a log names its spec by content, and on edited rules it is
still played, reporting the first change that differs with the rule and line in
the new and the old spec, and the first decision or chance outcome the new rules
cannot follow."""
from __future__ import annotations

import io
import json

import pytest

from interpreter import load_game
from interpreter.agents import make_agents
from interpreter.cli import main
from interpreter.tools.log import replay, write_log
from interpreter.tools.trace import quiet
from rulespec.errors import CorruptFile
from tests.paths import TESTS

MARKET = (TESTS / "games" / "market.yaml").read_text(encoding="utf-8")
DICE = (TESTS / "games" / "dice.yaml").read_text(encoding="utf-8")
SELL = "player.coins += sale_value[c.good] + player.bet"


def logged(tmp_path, text, players=3, seed=5, provenance=True):
    spec = tmp_path / "game.yaml"
    spec.write_text(text, encoding="utf-8")
    game = load_game(str(spec))
    names = ["random"] * players
    log = tmp_path / "game.jsonl"
    with open(log, "w", encoding="utf-8") as f:
        write_log(game, players, seed, names, make_agents(names, seed), f,
                  trace=quiet if provenance else None)
    return spec, log


def line_of(text, needle) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


def test_comments_and_layout_do_not_change_the_spec(tmp_path):
    spec, log = logged(tmp_path, MARKET)
    edited = "# a new first comment\n" + MARKET.replace(SELL, SELL + "   # pays the bet too") \
        .replace("round_limit: 8", "round_limit:    8    # eight rounds")
    spec.write_text(edited, encoding="utf-8")
    ok, message = replay(str(log), load_game)
    assert ok, message
    assert "only its layout and comments changed" in message
    assert load_game(str(spec)).spec_id == json.loads(log.read_text().split("\n")[0])["spec_id"]


def test_a_changed_rule_is_reported_at_its_line_in_the_new_and_old_spec(tmp_path):
    spec, log = logged(tmp_path, MARKET)
    old_line = line_of(MARKET, SELL)
    edited = MARKET.replace(SELL, SELL + " + 1").replace("# Market Town:", "#\n#\n# Market Town:")
    spec.write_text(edited, encoding="utf-8")
    ok, message = replay(str(log), load_game)
    assert not ok
    first = message.splitlines()[1]
    assert first.startswith("  from decision ") and "coins[P" in first and "gains" in first
    assert f"({spec}:{old_line + 2}, action sell) instead of gains" in first
    assert f"(old :{old_line}, action sell)" in first
    # the gain is one more than logged
    new, old = (int(part.split("gains ")[1].split(" ")[0]) for part in first.split(" instead of "))
    assert new == old + 1


def test_against_plays_the_log_on_another_file_and_exits_1_on_a_difference(tmp_path):
    spec, log = logged(tmp_path, MARKET)
    other = tmp_path / "edited.yaml"
    other.write_text(MARKET.replace("prestige_goal: 10", "prestige_goal: 1"), encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    assert main(["replay", str(log), "--against", str(other)], stdout=out, stderr=err) == 1
    assert f"played on {other}" in err.getvalue()
    assert "the game ends after decision" in err.getvalue() or "prestige goal" in err.getvalue()
    assert main(["replay", str(log)], stdout=io.StringIO(), stderr=io.StringIO()) == 0


@pytest.mark.parametrize("provenance", [True, False])
def test_against_the_same_spec_elsewhere_replays_exactly(tmp_path, monkeypatch, provenance):
    """The log names its spec by path, and every saved state and change holds that
    path: the very same file given as ./game.yaml, or a copy, parted at line 1 (the
    header's path) or at the first digest, though its hash was the log's."""
    spec, log = logged(tmp_path, MARKET, provenance=provenance)
    copy = tmp_path / "copy" / "market.yaml"
    copy.parent.mkdir()
    copy.write_text(MARKET, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    for against in ("./game.yaml", str(spec), str(copy), "copy/../game.yaml"):
        out, err = io.StringIO(), io.StringIO()
        assert main(["replay", str(log), "--against", against], stdout=out, stderr=err) == 0, err.getvalue()
        assert "identical" in out.getvalue()


def test_a_spec_found_beside_the_log_replays_exactly(tmp_path, monkeypatch):
    """The log names its spec as it was given (`game.yaml`, from the folder it was
    played in); replayed from elsewhere, the spec is found beside the log, and the
    game named by that path parted at line 1 though it was the very same game."""
    monkeypatch.chdir(tmp_path)
    spec = tmp_path / "game.yaml"
    spec.write_text(MARKET, encoding="utf-8")
    log = tmp_path / "game.jsonl"
    assert main(["play", "game.yaml", "--players", "3", "--seed", "4", "--log", str(log)],
                stdout=io.StringIO(), stderr=io.StringIO()) == 0
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    out, err = io.StringIO(), io.StringIO()
    assert main(["replay", str(log)], stdout=out, stderr=err) == 0, err.getvalue()
    assert "identical" in out.getvalue()


@pytest.mark.parametrize("beside", [False, True])
def test_a_replay_loads_its_spec_once(tmp_path, monkeypatch, beside):
    """Loading a spec (checking and compiling it) is most of a short replay's time:
    the spec the log names was loaded twice, once to see that it loads at all."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "game.yaml").write_text(MARKET, encoding="utf-8")
    log = tmp_path / "game.jsonl"
    assert main(["play", "game.yaml", "--players", "3", "--seed", "4", "--log", str(log)],
                stdout=io.StringIO(), stderr=io.StringIO()) == 0
    if beside:      # the log names `game.yaml`: from elsewhere, found beside the log
        (tmp_path / "elsewhere").mkdir()
        monkeypatch.chdir(tmp_path / "elsewhere")
    loads = []

    def counted(*args, **kw):
        loads.append(args)
        return load_game(*args, **kw)
    ok, message = replay(str(log), load_game=counted)
    assert ok, message
    assert len(loads) == 1


def test_replay_html_plays_the_log_on_the_spec_against(tmp_path):
    pytest.importorskip("jinja2")
    spec, log = logged(tmp_path, MARKET)
    moved = tmp_path / "moved.yaml"
    spec.rename(moved)      # the log's spec is gone: only --against finds it
    page = tmp_path / "game.html"
    out, err = io.StringIO(), io.StringIO()
    assert main(["replay", str(log), "--against", str(moved), "--html", str(page)],
                stdout=out, stderr=err) == 0, err.getvalue()
    assert "Market Town" in page.read_text(encoding="utf-8")


def test_a_differing_line_names_its_keys_not_a_json_cut_short(tmp_path):
    spec, log = logged(tmp_path, MARKET)
    lines = log.read_text().splitlines()
    head = json.loads(lines[0])
    head["seed"] += 1       # another deal: the first chance line parts, in its details
    log.write_text("\n".join([json.dumps(head)] + lines[1:]) + "\n")
    ok, message = replay(str(log), load_game)
    assert not ok and message.startswith(f"{log}:2: details: the log says [")
    logged_part, given_part = message.split(", the game gives ")
    assert logged_part.endswith("…") and given_part.endswith("…")   # each value cut alone


def test_a_decision_the_new_rules_refuse_is_named(tmp_path):
    spec, log = logged(tmp_path, MARKET)
    walk = 'when: count([g for g in player.sold_this_turn if g == "walked"]) == 0'
    spec.write_text(MARKET.replace(walk, walk + " and player.coins > 99"), encoding="utf-8")
    lines = [json.loads(x) for x in log.read_text().splitlines()]
    first_walk = 1 + [x["decision"]["label"] for x in lines if "decision" in x].index("walk")
    ok, message = replay(str(log), load_game)
    assert not ok
    assert f"at decision {first_walk}, the new rules cannot follow the log: " in message
    assert "choose 'walk', but these rules ask seat" in message \
        or ("'walk' is not a legal option" in message and "player.coins > 99" in message)


def test_a_chance_outcome_the_new_rules_cannot_follow_is_named(tmp_path):
    spec, log = logged(tmp_path, DICE, players=2, seed=3)
    spec.write_text(DICE.replace("player.points += roll(6)",
                                 "shuffle_points = 0\n      player.points += roll(4)"),
                    encoding="utf-8")
    ok, message = replay(str(log), load_game)
    assert not ok and "the log's next chance outcome is a roll of" in message \
        and "(d6), but these rules meet a roll here" in message


def test_a_log_without_provenance_still_shows_where_play_parts(tmp_path):
    spec, log = logged(tmp_path, MARKET, provenance=False)
    spec.write_text(MARKET.replace("round_limit: 8", "round_limit: 7"), encoding="utf-8")
    ok, message = replay(str(log), load_game)
    assert not ok and "round limit" in message


def test_saves_name_the_spec_by_content(tmp_path):
    spec = tmp_path / "game.yaml"
    spec.write_text(MARKET, encoding="utf-8")
    save = load_game(str(spec)).new_state(2, 1).to_json()
    spec.write_text("# reformatted\n" + MARKET.replace("hand_limit: 5", "hand_limit:   5"), encoding="utf-8")
    assert load_game(str(spec)).state_from_json(save).n == 2
    spec.write_text(MARKET.replace("hand_limit: 5", "hand_limit: 6"), encoding="utf-8")
    with pytest.raises(CorruptFile, match="the rules changed since this save"):
        load_game(str(spec)).state_from_json(save)
