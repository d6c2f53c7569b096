"""A refused answer at the web table leaves no trace: no decision, no log line,
no undo point, in any seat's view (Session._act and _apply)."""
from __future__ import annotations

import pytest

from interpreter import load_game
from interpreter.web.session import Session
from rulespec.errors import IllegalAction
from tests.paths import ROOT
from tests.shipped import shipped

PICK_TWO = ROOT / "tests" / "specs" / "valid" / "choose_exactly.yaml"


def texts(session, seat):
    return [entry["text"] for entry in session.logs[seat]]


def zena_table():
    return Session(shipped(str(ROOT / "games" / "zena.yaml"), variant="advanced"), 3, 1, ["human"] * 3)


def test_a_refused_secret_answer_leaves_the_next_decision_logged_as_it_was_taken():
    # the researcher's case: P1's secret placement, first a stale label, then a real one;
    # every seat's log must read as at a table where the stale label never came
    session, untroubled = zena_table(), zena_table()
    seat = session.state.current_player()
    assert session.state.pending.secret
    logs = {s: texts(session, s) for s in range(3)}
    with pytest.raises(IllegalAction):
        session.act(seat, ["no such card"])
    assert {s: texts(session, s) for s in range(3)} == logs and session._said == []
    chosen = session.state.legal_actions()[1].label
    session.act(seat, [chosen])
    untroubled.act(seat, [chosen])
    assert session.logs == untroubled.logs
    assert texts(session, seat)[-1] == "P1: audience (palace, temporary)"    # audience#1
    for other in set(range(3)) - {seat}:
        assert texts(session, other)[-1] == "P1 decided (secretly)"


def test_a_several_answer_with_a_refused_label_is_refused_whole():
    session = Session(load_game(str(PICK_TWO)), 2, 0, ["human", "human"])
    state = session.state

    def seen():
        return state.to_json(), state.decisions, {s: list(log) for s, log in session.logs.items()}

    before = seen()
    with pytest.raises(IllegalAction):
        session.act(0, ["red", "purple"])       # red is legal, purple is not
    assert seen() == before
    assert session._said == [] and state.events == []
    assert session.histories[0].saved == []    # no undo point for what did not happen
    session.act(0, ["green", "blue"])
    assert texts(session, 1)[-3:-1] == ["P1: green", "P1: blue"]
    assert len(session.histories[0].saved) == 1
