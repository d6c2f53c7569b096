"""A rule's fault at the web table stops the game for every seat, with the located
error `play` prints; an engine bug says only "internal error"; a port in use is
said before any link is printed."""
from __future__ import annotations

import errno
import io
import threading
import time
import urllib.request

import pytest

from interpreter import load_game
from interpreter.cli import main
from interpreter.web.session import INTERNAL_ERROR, Session
from rulespec.errors import LimitError

pytest.importorskip("starlette")

# seat `chooser` picks 0, 1 or 2, then the flow divides by it: 0 is a rule's fault
DIVIDE = """\
game: Divide
players: {{min: 2, max: 2}}
globals:
  g: {{start: 0}}
flow: |
  x = choose number from 0 to 2 by players[{chooser}]
  g = 10 // x
  end game "done"
"""


@pytest.fixture
def divide(tmp_path):
    """The Divide spec's path, with seat `chooser` (0-based) choosing."""
    def write(chooser: int) -> str:
        path = tmp_path / f"divide{chooser}.yaml"
        path.write_text(DIVIDE.format(chooser=chooser))
        return str(path)
    return write


def client(session):
    from starlette.testclient import TestClient

    from interpreter.web.app import create_app
    return TestClient(create_app(session, pause=0.01))


def act(client, session, seat: int, **body):
    return client.post(f"/api/seat/{seat + 1}/act", json={"token": session.tokens[seat], **body})


def wait_for(condition, seconds: float = 5.0) -> bool:
    deadline = time.monotonic() + seconds
    while not condition() and time.monotonic() < deadline:
        time.sleep(0.01)
    return condition()


def test_a_persons_answer_that_breaks_a_rule_stops_the_game_for_every_seat(divide):
    spec, console = divide(0), io.StringIO()
    session = Session(load_game(spec), 2, 0, ["human", "human"], console=console)
    with client(session) as c:
        assert 'id="question"' in c.get(f"/seat/1?token={session.tokens[0]}").text
        refused = act(c, session, 0, labels=["7"])
        assert refused.status_code == 200 and "error" not in refused.json()
        reply = act(c, session, 0, labels=["0"])
        assert reply.status_code == 500
        error = reply.json()["error"]
        assert error == f"{spec}:7:7: error: cannot divide 10 (a number) by zero (in the flow)"
        assert "The game stopped" in reply.json()["html"] and "Traceback" not in reply.text
        other = c.get(f"/api/seat/2/state?token={session.tokens[1]}").json()
        assert other["error"] == error and error in other["html"]
        assert 'id="question"' not in c.get(f"/seat/1?token={session.tokens[0]}").text
        again = act(c, session, 0, labels=["1"])      # the game stays stopped
        assert again.status_code == 500 and session.state.decisions == 1
    assert console.getvalue() == error + "\n"       # once, and no traceback


def test_a_bots_fault_is_shown_and_told_once_and_its_task_ends(divide, capsys):
    spec = divide(1)
    session = Session(load_game(spec), 2, 0, ["human", "first"])   # `first` picks 0
    with client(session) as c:
        assert wait_for(lambda: session.fault is not None), "the bot's fault never reached the table"
        page = c.get(f"/api/seat/1/state?token={session.tokens[0]}").json()
        assert page["error"].startswith(f"{spec}:7:7: error: cannot divide")
        assert page["error"] in page["html"] and "stopped" in page["html"]
        assert not session.running() and session.bot_step() is False
    assert capsys.readouterr().err == page["error"] + "\n"


def test_the_fault_reads_as_play_prints_it_and_no_more(divide):
    # play's words are the bar for hidden information: a seat learns what a
    # person at `rulespec play` would
    spec, err = divide(1), io.StringIO()
    assert main(["play", spec, "--players", "2", "--agents", "first,first"], io.StringIO(), err) == 1
    session = Session(load_game(spec), 2, 0, ["human", "first"], console=io.StringIO())
    session.bot_step()
    assert session.fault == err.getvalue().strip()


def test_an_engine_bug_says_internal_error_and_keeps_the_traceback_on_the_console(divide):
    console = io.StringIO()
    session = Session(load_game(divide(1)), 2, 0, ["human", "first"], console=console)

    def broken(state):
        raise KeyError("secret-card-name")
    session.bots[1].choose = broken
    with client(session) as c:
        assert wait_for(lambda: session.fault is not None)
        reply = act(c, session, 0, labels=["1"])
    assert reply.status_code == 500 and reply.json()["error"] == INTERNAL_ERROR
    assert "secret-card-name" not in reply.text and "Traceback" not in reply.text
    assert "Traceback" in console.getvalue() and "secret-card-name" in console.getvalue()


def test_an_undo_and_a_page_go_through_the_same_guard(divide, monkeypatch):
    session = Session(load_game(divide(0)), 2, 0, ["human", "human"], console=io.StringIO())

    def over_the_limit(state, seat):
        raise LimitError("too many steps", "x.yaml", 3, 4)
    monkeypatch.setattr(session.histories[0], "undo", over_the_limit)
    session.undo(0)
    assert session.fault == "x.yaml:3:4: error: too many steps"

    drawn = Session(load_game(divide(0)), 2, 0, ["human", "human"], console=io.StringIO())
    monkeypatch.setattr("interpreter.web.session.page_fragment",
                        lambda *a: (_ for _ in ()).throw(LimitError("no room", "y.yaml", 5, 6)))
    html = drawn.page(1)
    assert drawn.fault == "y.yaml:5:6: error: no room" and drawn.fault in html


def test_a_port_in_use_is_said_before_any_link_and_exits_2(divide):
    import socket
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        out, err = io.StringIO(), io.StringIO()
        assert main(["serve", divide(0), "--port", str(port)], out, err) == 2
    assert out.getvalue() == ""
    assert err.getvalue().startswith(f"rulespec serve: error: port {port} is in use (")


def test_the_table_is_served_on_the_socket_bound_for_it(divide):
    from interpreter.web.app import listening_socket, table_server
    session = Session(load_game(divide(0)), 2, 0, ["human", "human"])
    sock = listening_socket("127.0.0.1", 0)     # the system picks a free port
    port = sock.getsockname()[1]
    server = table_server(session, pause=0.01)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        assert wait_for(lambda: server.started), "the server did not start"
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as page:
            assert "Divide" in page.read().decode()
        with pytest.raises(OSError) as taken:    # what serve's check sees while a table runs
            listening_socket("127.0.0.1", port)
        assert taken.value.errno == errno.EADDRINUSE
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()
