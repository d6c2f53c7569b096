"""The web table's HTTP side, without a browser: tokens, refusals, answers."""
from __future__ import annotations

import pytest

from interpreter.web.session import Session
from tests.paths import ROOT
from tests.shipped import shipped

pytest.importorskip("starlette")


@pytest.fixture
def client_and_session():
    from starlette.testclient import TestClient

    from interpreter.web.app import create_app
    session = Session(shipped(str(ROOT / "games" / "zena.yaml")), 2, 3, ["human", "human"])
    with TestClient(create_app(session, pause=0.01)) as client:
        yield client, session


def test_each_seat_is_refused_anothers_page_and_api(client_and_session):
    client, session = client_and_session
    one, two = session.tokens[0], session.tokens[1]
    assert one != two and len(one) >= 20
    assert client.get(f"/seat/1?token={one}").status_code == 200
    for url in (f"/seat/2?token={one}", f"/api/seat/2/state?token={one}", "/seat/2", "/seat/1?token=",
                f"/seat/3?token={one}", f"/seat/x?token={one}"):
        reply = client.get(url)
        assert reply.status_code in (403, 404), url
        assert "Zena" not in reply.text
    reply = client.post("/api/seat/2/act", json={"token": one, "labels": ["x"]})
    assert reply.status_code == 403


def test_an_answer_moves_the_game_and_a_wrong_one_is_explained(client_and_session):
    client, session = client_and_session
    seat = session.state.current_player()
    token = session.tokens[seat]
    label = session.state.legal_actions()[0].label
    before = session.state.decisions
    reply = client.post(f"/api/seat/{seat + 1}/act", json={"token": token, "labels": [label]}).json()
    assert session.state.decisions > before and "html" in reply
    other = 1 - session.state.current_player() if session.state.current_player() is not None else seat
    reply = client.post(f"/api/seat/{other + 1}/act",
                        json={"token": session.tokens[other], "labels": ["no such option"]}).json()
    assert "not your decision" in reply["html"] or "not" in reply["html"]


def test_the_state_endpoint_sends_html_only_when_something_changed(client_and_session):
    client, session = client_and_session
    token = session.tokens[0]
    first = client.get(f"/api/seat/1/state?token={token}").json()
    assert "html" in first
    again = client.get(f"/api/seat/1/state?token={token}&since={first['version']}").json()
    assert again == {"version": first["version"]}


def test_undo_takes_a_decision_back_where_the_rules_allow_and_says_why_not_elsewhere():
    from starlette.testclient import TestClient

    from interpreter.web.app import create_app
    session = Session(shipped(str(ROOT / "tests" / "games" / "market.yaml")), 2, 1, ["human", "human"])
    with TestClient(create_app(session, pause=0.01)) as client:
        def act(body):
            seat = session.state.current_player()
            return client.post(f"/api/seat/{seat + 1}/act",
                               json={"token": session.tokens[seat], **body}).json()
        first = session.state.legal_actions()[0].label
        act({"labels": [first]})
        assert session.state.decisions == 1
        reply = client.post("/api/seat/1/act", json={"token": session.tokens[0], "undo": True}).json()
        assert session.state.decisions == 0 and "taken back" in reply["html"]
        act({"labels": [first]})
        act({"labels": [session.state.legal_actions()[0].label]})     # P2 draws from the deck
        reply = client.post("/api/seat/2/act", json={"token": session.tokens[1], "undo": True}).json()
        assert "cannot undo" in reply["html"] and session.state.decisions == 2
