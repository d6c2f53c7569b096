"""The kinds of hostile input a second audit found, each with its examples:
line breaks the loader and YAML counted differently, texts that are not valid
Unicode, seats named by numbers no player sits at, lengths and positions an LSP
client sends, requests the web table could not parse, and command lines that
hung, overwrote their input or read files a log named."""
from __future__ import annotations

import io
import json

import pytest

from interpreter.engine.game import load_game
from rulespec import validate
from rulespec.errors import RuleError, SpecErrors
from tests.hostile.test_messages import MARKET, run
from tests.paths import ROOT

GAME = """game: T
players: {{min: 2, max: 2}}
per_player:
  wins: {{start: 0}}
actions:
  a:
    do: pass
flow: |
  {flow}
  turn players[0]: a
  end game "x"
scoring:
  score: p.wins
"""


def errors(text: str) -> list[str]:
    with pytest.raises(SpecErrors) as e:
        validate("h.yaml", text=text)
    return [x.format() for x in e.value.errors]


# ------------------------------------------------------------- line breaks
def test_lone_carriage_returns_end_lines_as_yaml_reads_them(tmp_path):
    path = tmp_path / "cr.yaml"
    path.write_bytes(b"game: T\rflow: |\r  pass\r")
    code, out, _ = run("validate", path)
    assert code == 1 and "Traceback" not in out
    assert f"{path}:1:1: error: missing required key 'players'" in out
    ok = GAME.format(flow="pass").replace("\n", "\r")
    validate("cr.yaml", text=ok)     # a valid spec with old Mac line ends is valid


def test_an_error_after_a_lone_cr_is_on_its_line():
    text = GAME.format(flow="x = 1 +").replace("\n", "\r")
    assert errors(text)[0].startswith("h.yaml:9:")


@pytest.mark.parametrize("char, name", [("\u2028", "LINE SEPARATOR"), ("\x85", "NEXT LINE"),
                                        ("\u2029", "PARAGRAPH SEPARATOR")])
def test_a_break_editors_do_not_show_is_refused_where_it_is(char, name):
    text = f"# a{char}b\n" + GAME.format(flow="pass")
    found = errors(text)
    assert found[0].startswith("h.yaml:1:4: error: ") and name in found[0]
    assert "YAML reads it as a line break" in found[0]


# ------------------------------------------------------ unpaired surrogates
@pytest.mark.parametrize("text, where", [
    ('game: "\\ud800"\nplayers: {min: 2, max: 2}\nflow: "pass"\nscoring: {score: "0"}\n', "h.yaml:1:7:"),
    (GAME.format(flow="pass") + '"\\ud800": 1\n', "h.yaml:14:1:"),
    (GAME.format(flow='log("\\ud800")'), "h.yaml:9:8:"),
    (GAME.format(flow='end game "\\udfff"'), "h.yaml:9:13:"),
    (GAME.format(flow="pass").replace("do: pass", "for: i in range(2)\n    label: '\"\\ud800\" + text(i)'\n    do: pass"),
     "h.yaml:8:14:"),
])
def test_a_lone_surrogate_is_refused_where_it_is_written(text, where):
    found = errors(text)
    assert found[0].startswith(where), found
    assert "a text holding an unpaired surrogate \\u" in found[0] and "not valid Unicode" in found[0]


def test_a_surrogate_pair_of_escapes_is_one_character(tmp_path):
    path = tmp_path / "pair.yaml"
    path.write_text(GAME.format(flow='log("\\ud83c\\udfb2")'))
    code, out, err = run("play", path, "--players", "2", "--trace")
    assert code == 0, err
    assert "\U0001F3B2" in out


def test_a_scenario_named_by_a_lone_surrogate_is_refused(tmp_path):
    path = tmp_path / "s.scenarios.yaml"
    path.write_text(f'spec: {MARKET}\nplayers: 3\nscenarios:\n  - name: "\\ud800"\n'
                    f'    steps:\n      - expect: "true"\n')
    code, out, err = run("scenario", path)
    assert code == 1 and "Traceback" not in out + err
    assert "s.scenarios.yaml:4:11: error: a text holding an unpaired surrogate" in out + err


# ------------------------------------------------------- seats by number
@pytest.mark.parametrize("flow, number", [
    ("x = choose one of [1,2] by q", 99), ("x = choose one of [1,2] by q", -1),
    ("x = choose one of [1] by q", 5), ("x = choose number from 1 to 3 by q", 2),
    ("x = choose 1 of [1,2] by q", 2), ("turn q: a", 7), ("x = next_player(q)", 9),
    ("q.wins = 3", -1), ("x = q.wins", 5),
    # an auction's bidders and its starter (each was made a seat unchecked: -1 read "P0")
    ("x = auction among [q, players[0]] opening 1 limit 5", -1),
    ("x = auction among [players[0], q] opening 1 limit 5", 7),
    ("x = auction among players opening 1 limit 5 starter q", -1),
])
def test_a_number_no_seat_has_stops_the_game_where_it_is_named(flow, number, tmp_path):
    path = tmp_path / "g.yaml"
    path.write_text(GAME.format(flow=f"q = {number}\n  {flow}"))
    validate(str(path))     # a variable's value is known at play only
    with pytest.raises(RuleError) as e:
        state = load_game(path).new_state(players=2, seed=1)
        while not state.is_terminal():
            state.apply(0)
    assert e.value.message.startswith(f"{number} is not a seat: this game has 2 players")
    assert e.value.line == 10


@pytest.mark.parametrize("flow, where", [
    ("x = choose one of [1,2] by 99", "h.yaml:9:30:"), ("x = choose one of [1,2] by -1", "h.yaml:9:30:"),
    ("turn 2: a", "h.yaml:9:8:"), ("x = choose number from 1 to 2 by 3", "h.yaml:9:"),
])
def test_validate_refuses_a_literal_seat_beyond_the_players(flow, where):
    found = errors(GAME.format(flow=flow))
    assert found[0].startswith(where) and "is not a seat" in found[0], found


def test_play_says_so_for_by_99_and_writes_no_seat_minus_one(tmp_path):
    path = tmp_path / "g.yaml"
    path.write_text(GAME.format(flow="q = 99\n  x = choose one of [1,2] by q"))
    code, out, err = run("play", path, "--players", "2")
    assert code == 1 and "Traceback" not in err
    assert f"{path}:10:3: error: 99 is not a seat: this game has 2 players" in err


# ------------------------------------------------------------- CLI
def test_an_endless_line_on_stdin_stops_the_human_agent(tmp_path):
    code, out, err = run("play", MARKET, "--players", "2", "--agents", "human,random",
                         stdin="\0" * 100_000)
    assert code == 1 and "an answer of more than 4,096 characters" in err


@pytest.mark.parametrize("pause", ["inf", "nan", "-inf", "-1"])
def test_serve_refuses_a_pause_that_is_no_finite_number(pause):
    pytest.importorskip("starlette")
    pytest.importorskip("uvicorn")
    code, _, err = run("serve", MARKET, f"--pause={pause}")
    assert code == 2 and "--pause must be a finite number of seconds >= 0" in err


def test_simulate_refuses_a_negative_cutoff():
    code, _, err = run("simulate", MARKET, "--players", "2", "-n", "1", "--cutoff", "-1")
    assert code == 2 and "--cutoff -1" in err


@pytest.mark.parametrize("argv", [
    ["play", "{spec}", "--players", "2", "--log", "{spec}"],
    ["play", "{spec}", "--players", "2", "--log", "{alias}"],
    ["graph", "{spec}", "--png", "{spec}"],
    ["replay", "{log}", "--html", "{log}"],
    ["compare", "{spec}", "--variant", "v", "--players", "2", "--html", "{spec}"],
])
def test_no_command_writes_over_its_input(argv, tmp_path):
    spec = tmp_path / "ok.yaml"
    spec.write_text(GAME.format(flow="pass"))
    (tmp_path / "sub").mkdir()
    alias = tmp_path / "sub" / ".." / "ok.yaml"
    log = tmp_path / "game.jsonl"
    log.write_text("{}\n")
    before = spec.read_text(), log.read_text()
    code, _, err = run(*[a.format(spec=spec, alias=alias, log=log) for a in argv])
    assert code == 2 and "that is the input file" in err, err
    assert (spec.read_text(), log.read_text()) == before


def test_a_log_that_cannot_be_written_is_named():
    code, _, err = run("play", MARKET, "--players", "2", "--log", "/dev/full")
    # an output the user named that cannot be written: exit 2, as every command (c2288ac)
    assert code == 2 and "rulespec: error: cannot write /dev/full: No space left on device" in err


def _log_naming(tmp_path, spec: str):
    code, out, err = run("play", MARKET, "--players", "3", "--seed", "3", "--log", tmp_path / "a.jsonl")
    assert code == 0, err
    lines = (tmp_path / "a.jsonl").read_text().splitlines()
    head = json.loads(lines[0])
    head["spec"] = spec
    (tmp_path / "b.jsonl").write_text("\n".join([json.dumps(head)] + lines[1:]) + "\n")
    return tmp_path / "b.jsonl"


@pytest.mark.parametrize("named", ["../../../../../../etc/passwd", "/dev/zero", "/etc/hostname"])
def test_replay_reads_no_file_a_log_names_but_a_yaml_one(named, tmp_path):
    code, out, err = run("replay", _log_naming(tmp_path, named))
    assert code == 1 and "is no YAML file (.yaml or .yml): give the spec with --against SPEC" in err
    assert "root:" not in out + err and err.count("\n") == 1


def test_replay_does_not_print_the_errors_of_a_spec_a_log_names(tmp_path):
    secret = tmp_path / "secret.yaml"
    secret.write_text("password: hunter2 [\n")
    code, out, err = run("replay", _log_naming(tmp_path, str(secret)))
    assert code == 1 and "hunter2" not in out + err
    assert f"the spec the log names, {secret}, is no valid spec (" in err
    assert f"rulespec validate {secret}" in err
    code, out, err = run("replay", _log_naming(tmp_path, str(MARKET)))   # the real one still plays
    assert code == 0 and "identical" in out


def test_the_nesting_limit_is_the_one_the_readme_gives():
    readme = (ROOT / "README.md").read_text()
    from rulespec.infer import MAX_DEPTH
    from rulespec.limits import NESTING
    row = next(line for line in readme.splitlines() if line.startswith("| nesting |"))
    assert f"| {MAX_DEPTH}, {NESTING} |" in row and f"about {NESTING // 2} blocks" in row
    # 132 blocks: past the nesting limit, within the rule length limit (20,000 characters)
    found = errors(GAME.format(flow="".join("  " * i + "if true:\n  " for i in range(132)) + "  " * 132 + "pass"))
    assert f"more than {NESTING} levels deep (the nesting limit), about {NESTING // 2} blocks" in found[0]


# ------------------------------------------------------------- LSP
def test_the_lsp_stops_on_a_length_no_buffer_holds():
    from rulespec.lsp.server import BoundedInput
    raw = io.BytesIO(b"Content-Length: 2\r\n\r\n{}Content-Length: 99999999999999999999\r\n\r\n{}")
    bounded = BoundedInput(raw)
    assert bounded.readline() == b"Content-Length: 2\r\n"
    assert bounded.readline() == b"\r\n" and bounded.read(2) == b"{}"
    assert bounded.readline() == b"" and "99999999999999999999 bytes" in bounded.problem
    endless = BoundedInput(io.BytesIO(b"C" * 10**6))
    assert endless.readline() == b"" and "header line longer" in endless.problem


def test_the_lsp_process_ends_with_a_message_not_a_traceback():
    import subprocess
    import sys
    pytest.importorskip("pygls")
    init = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                       "params": {"processId": None, "rootUri": None, "capabilities": {}}}).encode()
    data = b"Content-Length: %d\r\n\r\n" % len(init) + init + b"Content-Length: 99999999999999999999\r\n\r\n{}"
    done = subprocess.run([sys.executable, "-m", "interpreter.cli", "lsp"], input=data, cwd=ROOT,
                          capture_output=True, timeout=120)
    assert done.returncode == 1 and b"Traceback" not in done.stderr
    assert b"over the limit of 64 MB" in done.stderr


@pytest.mark.parametrize("line, char", [(99999, 99999), (-5, 3), (2, -1)])
def test_a_completion_outside_the_document_offers_nothing(line, char):
    pytest.importorskip("pygls")
    from rulespec.lsp import features
    from rulespec.lsp.project import analyze
    text = MARKET.read_text()
    assert features.completion(analyze(str(MARKET), text), line, char, text) == []


def test_lsp_lines_end_where_the_loader_ends_them():
    from rulespec.lsp.project import split_lines
    assert split_lines("a\rb\r\nc\nd") == ["a", "b", "c", "d"]


# ------------------------------------------------------------- web table
BODIES = [b"", b"not json", b"\xff\xfe", b"[" * 100_000 + b"]" * 100_000, b'{"token": "\xc3\xa9"}',
          b'{"token": "\\ud800"}', b'{"token": 5}', b"[1, 2]", b'"x"', b"null",
          b'{"token": "%s", "labels": "x"}', b'{"token": "%s", "labels": [[]]}',
          b'{"token": "%s", "labels": ["no such option"]}', b'{"token": "%s", "undo": true}',
          b'{"token": "%s", "labels": null}', b'{"token": "%s"}', b'{"token": "%s", "labels": [' + b'"a",' * 10_000 + b'"a"]}']
TOKENS = ["%C3%A9", "%FF", "%00", "%ED%A0%80", "", "x" * 5000, "%s", "%s%C3%A9"]
SEATS = ["1", "2", "0", "-1", "99999999999999999999", "x", "%C3%A9", "1_0", "٣"]


def test_no_request_to_the_web_table_is_answered_500():
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from interpreter.web.app import create_app
    from interpreter.web.session import Session
    session = Session(load_game(MARKET), 2, 3, ["human", "human"])
    good = session.tokens[0]
    with TestClient(create_app(session, pause=0.01), raise_server_exceptions=False) as client:
        answers = []
        for seat in SEATS:
            for token in TOKENS:
                token = token.replace("%s", good)
                for url in (f"/seat/{seat}?token={token}", f"/api/seat/{seat}/state?token={token}&since=x"):
                    answers.append((url, client.get(url).status_code))
            for body in BODIES:
                body = body.replace(b"%s", good.encode())
                answers.append((body[:40], client.post(f"/api/seat/{seat}/act", content=body).status_code))
    assert not [a for a in answers if a[1] >= 500], [a for a in answers if a[1] >= 500][:5]
    refused = [code for url, code in answers if isinstance(url, str) and "%C3%A9" in url]
    assert refused and set(refused) == {403}


@pytest.mark.parametrize("argv, said", [
    (["validate", "{fifo}.yaml"], "cannot read {fifo}.yaml: a pipe that gave nothing to read"),
    (["play", "{fifo}.yaml", "--players", "2"], "cannot read {fifo}.yaml: a pipe that gave nothing to read"),
    (["scenario", "{fifo}.yaml"], "cannot read {fifo}.yaml: a pipe that gave nothing to read"),
    (["replay", "{fifo}.jsonl"], "corrupt log: the file is empty"),
], ids=["validate", "play", "scenario", "replay"])
def test_a_named_pipe_no_program_writes_to_is_not_waited_on(argv, said, tmp_path):
    """Opening a FIFO waits for a writer: each command named one as its input hung
    for ever. It is opened without waiting and reads as empty (rulespec/inputs.py);
    run in a child process, so that a hang fails the test instead of stalling it."""
    import os
    import subprocess
    import sys
    fifo = tmp_path / "pipe"
    for suffix in (".yaml", ".jsonl"):
        os.mkfifo(f"{fifo}{suffix}")
    args = [a.format(fifo=fifo) for a in argv]
    done = subprocess.run([sys.executable, "-m", "interpreter.cli", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    said_all = done.stdout + done.stderr    # validate and scenario report on stdout
    assert done.returncode == 1 and said.format(fifo=fifo) in said_all, said_all


def test_validate_reads_a_spec_once_for_its_base_and_variants(tmp_path):
    """A spec given as a pipe (the shell's `<(cat spec.yaml)`) reads once: validate read
    the file again for each variant and found the pipe empty the second time."""
    import os
    import subprocess
    import sys
    fifo = tmp_path / "spec.yaml"
    os.mkfifo(fifo)
    child = subprocess.Popen([sys.executable, "-m", "interpreter.cli", "validate", str(fifo)],
                             cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    with open(fifo, "w", encoding="utf-8") as writer:    # waits for the child to open it
        writer.write((ROOT / "games" / "zena.yaml").read_text(encoding="utf-8"))
    out, err = child.communicate(timeout=120)
    assert child.returncode == 0, out + err
    assert "base and 1 variant" in out + err
