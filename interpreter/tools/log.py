"""JSONL game logs: write one while playing, replay one to prove it still holds.

Line 1 is a header (spec, its hash, variant, players, seed, agents); then one
line per event in the order it happened: decisions, chance outcomes, notes,
a state digest after each decision, and the result.
"""
from __future__ import annotations

import json
import os
from collections import deque
from pathlib import Path

from rulespec.errors import CorruptFile, IllegalAction, RulespecError
from rulespec.inputs import open_input
from rulespec.limits import LOG_BYTES
from ..engine.rig import Rig
from ..engine.values import decode, display
from ..engine import rng
from ..engine.shapes import loads, schema_problem
from .play import header, play


def write_log(game, players, seed, agent_names, agents, stream, on_step=None, trace=None):
    """`trace` (a sink, trace.quiet for none) adds every state change and its rule to the log."""
    head = header(game, players, seed, agent_names)
    if trace is not None:
        head["trace"] = True   # so replay traces too, and compares the changes
    stream.write(json.dumps(head) + "\n")
    return play(game, players, seed, agents, log=stream, on_step=on_step, trace=trace)


LOG_SCHEMA = str(Path(__file__).with_name("log.schema.json"))


def read_log(path) -> list[dict]:
    """A log's lines as data, each checked against log.schema.json (LogReader)."""
    with LogReader(path) as log:
        return [log.head, *log]


class LogReader:
    """A log read one line at a time, each line checked against log.schema.json as
    it is read, so that a replay which parts from the log at line 2 reads no further:
    what a hostile log costs is bounded by what is replayed, not by its length.

    `head` is line 1 (the header); iterating gives the event lines after it; `read`
    is the number of lines read so far. Raises CorruptFile ("corrupt log: line 7:
    `seed`: expected an integer, got str '7'") at the first line rulespec cannot
    replay; a log larger than rulespec.limits.LOG_BYTES is refused unread."""

    def __init__(self, path):
        self.path, self.read = path, 0
        self._file = _open_log(path)
        self._lines = _text_lines(self._file, path)
        try:
            self.head = _header(self.next_line(), path)
        except BaseException:
            self.close()
            raise

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self) -> None:
        self._file.close()

    def __iter__(self):
        return iter(self.next_line, None)

    def next_line(self) -> dict | None:
        """The next line as data, checked; None at the end of the log."""
        line = next(self._lines, None)
        if line is None:
            return None
        self.read += 1
        return _checked(line, self.read, self.path)


def _header(head: dict | None, path) -> dict:
    if head is None:
        raise CorruptFile("corrupt log: the file is empty", file=str(path), line=1, col=1)
    if len(head["agents"]) != head["players"]:
        raise CorruptFile(f"corrupt log: line 1: {len(head['agents'])} agents for "
                          f"{head['players']} players", file=str(path), line=1, col=1)
    return head


def _open_log(path):
    """The log open for reading in bytes; CorruptFile when it cannot be, or is over
    LOG_BYTES (known before reading when it is a plain file)."""
    try:
        f = open_input(path)    # a pipe with no writer reads as empty, not waited on
        size = os.fstat(f.fileno()).st_size
    except OSError as e:
        raise CorruptFile(f"cannot read log {path}: {e.strerror or e}", file=str(path)) from None
    if size > LOG_BYTES:
        f.close()
        raise _too_large(path)
    return f


def _too_large(path) -> CorruptFile:
    return CorruptFile(f"corrupt log: larger than {LOG_BYTES // 2**20:,} MB", file=str(path))


def _text_lines(f, path):
    """The file's lines of text, as str.splitlines() of the whole text would give them,
    read at most LOG_BYTES in all (a file that never ends, /dev/zero, is refused)."""
    done = 0
    while raw := f.readline(LOG_BYTES + 1 - done):
        done += len(raw)
        if done > LOG_BYTES:
            raise _too_large(path)
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as e:   # a UTF-8 character never holds the byte of a newline
            raise CorruptFile(f"corrupt log: not UTF-8 text (byte {done - len(raw) + e.start})",
                              file=str(path)) from None
        yield from text.splitlines()


def _checked(line: str, number: int, path) -> dict:
    try:
        data = loads(line)
    except ValueError as e:
        raise CorruptFile(f"corrupt log: line {number} is not JSON ({_short(e)})",
                          file=str(path), line=number, col=1) from None
    problem = schema_problem(LOG_SCHEMA, data, "header" if number == 1 else "event")
    if problem:
        if number == 1 and not (isinstance(data, dict) and "rulespec_log" in data):
            problem = "the first line is not a rulespec log header"
        raise CorruptFile(f"corrupt log: line {number}: {problem}", file=str(path),
                          line=number, col=1)
    return data


def _short(e) -> str:
    text = str(e)
    return text if len(text) <= 120 else text[:120] + "..."


class _Script:
    """Plays back the decisions written in a log, by label; an undo in the log
    (a person took a decision back) is an int: the decision count to return to.
    `answer(state)` gives the next label or int, None when the log has no more."""

    def __init__(self, answer):
        self.answer = answer
        self.saved = {}

    @classmethod
    def of(cls, labels: list) -> "_Script":
        labels = iter(labels)
        return cls(lambda state: next(labels, None))

    def choose(self, state):
        self.saved.setdefault(state.decisions, state.clone())
        label = self.answer(state)
        while isinstance(label, int) and label in self.saved:
            from .undo import restore
            restore(state, self.saved[label])
            self.saved = {k: v for k, v in self.saved.items() if k <= label}
            label = self.answer(state)
        if label is None or isinstance(label, int):
            raise IllegalAction("the log has no more decisions but the game goes on")
        return label


def replay(path, load_game, against=None) -> tuple[bool, str]:
    """Re-run a log; (True, summary) when the game is the same, else (False, what differs).

    against: the spec to play it on (default: the one its header names). When
    that spec says what the log's did (its content id matches: comments and
    layout do not count), the log is replayed exactly, seed and all, and it stops
    at the first line that differs, reading no further (LogReader). When the
    rules changed, the log's decisions and chance outcomes are played on the new
    rules (follow()), and the report names the first state change that differs and
    the first decision or chance outcome the new rules cannot follow.
    Raises CorruptFile for a log rulespec cannot read, up to where it is replayed.
    """
    with LogReader(path) as log:
        head = log.head
        problem = rng.version_problem(head.get("rng"))
        if problem:   # every chance outcome would differ: say so, not "diverges at line N"
            return False, f"{path}:1: cannot replay this log: it was {problem}"
        game = game_against(head, against, load_game) if against else logged_game(head, path, load_game)
        if not game.min_players <= head["players"] <= game.max_players:
            raise CorruptFile(f"corrupt log: line 1: {head['players']} players, but {game.name} is "
                              f"for {game.min_players} to {game.max_players}", file=str(path), line=1, col=1)
        if head.get("spec_hash") != game.spec_hash:
            # even an edit of comments changes the saved state's digests: follow the
            # log's events instead, which tells a comment from a rule
            return follow(path, [head, *log], game)
        return _replay_exactly(path, log, game)


def game_against(head: dict, against, load_game):
    """The game of the spec file `against` for a log. When its text is the very source
    the log was made with (spec_hash), the game is named by the log's path for it:
    the same spec elsewhere, or the same path written another way (./games/x.yaml),
    replays exactly, where its path in every saved state and change would differ."""
    from rulespec.loader import _read
    from ..engine.game import spec_hash
    variant, named = head.get("variant"), head.get("spec")
    text = _read(str(against))      # bounded, and a file it cannot read said in the loader's words
    if isinstance(named, str) and spec_hash(text) == head.get("spec_hash"):
        return load_game(named, variant=variant, text=text)
    return load_game(against, variant=variant, text=text)


def _replay_exactly(path, log: LogReader, game) -> tuple[bool, str]:
    head = log.head
    again = header(game, head["players"], head["seed"], head["agents"])
    trace = None
    if head.get("trace"):
        from .trace import quiet
        again["trace"], trace = True, quiet
    same = _SameAsLog(path, log)
    try:
        same.header(again)
        agents = [_Script(same.answer)] * int(head["players"])
        play(game, int(head["players"]), int(head["seed"]), agents, log=same, trace=trace)
        same.ended()
    except _Parted as e:
        return False, str(e)
    except CorruptFile:
        raise
    except RulespecError as e:    # the lines written so far are the log's
        return False, f"{path}:{same.compared + 1}: the game stops following the log: {e.message}"
    return True, f"{path}: identical ({same.compared} lines, ended by {same.last.get('result', {}).get('ended_by')})"


class _Parted(Exception):
    """The replayed game and its log part here; the message says where and how."""


class _SameAsLog:
    """The stream play() writes the replayed game's log to. Each line is compared, as
    it is written, with the log's line at the same place, and the first that differs
    stops the game (_Parted); the answers to its decisions are read from the log at
    the same place. So a replay reads the log no further than the game follows it."""

    def __init__(self, path, log: LogReader):
        self.path, self.log = path, log
        self.compared = 1         # lines found the same; the header is compared by header()
        self.ahead = deque()      # lines read (for an answer) but not yet compared
        self.answered = 1         # the line number of the last answer read
        self.last = log.head

    def header(self, again: dict) -> None:
        # header keys added since the log was written are not compared, nor the
        # content id: the source is the same (replay() checked its hash, and named
        # the game by the log's path: game_against)
        logged = {k: v for k, v in self.log.head.items() if k != "spec_id"}
        given = {k: v for k, v in again.items() if k in logged}
        if logged != given:
            raise _Parted(self._differs(1, logged, given))

    def write(self, text: str) -> None:
        for line in text.splitlines():
            self._compare(json.loads(line))

    def ended(self) -> None:
        """The game is over: so must the log be."""
        if self._line(0) is not None:
            raise _Parted(f"{self.path}:{self.compared + 1}: the log has lines the game does not")

    def answer(self, state):
        """The next decision's label, or an undo's decision count, at the log's place."""
        number = max(self.answered, self.compared) + 1
        line = self._line(number - self.compared - 1)
        self.answered = number
        if line is None:
            return None
        if "decision" in line:
            return line["decision"]["label"]
        if "undo" in line:
            return int(line["undo"]["to"])
        raise _Parted(f"{self.path}:{number}: the log says {json.dumps(line)[:200]}, the game "
                      f"asks seat {state.current_player()} to decide")

    def _line(self, i: int) -> dict | None:
        """The i-th line after those compared (0: the next), or None past the log's end."""
        while len(self.ahead) <= i:
            line = self.log.next_line()
            if line is None:
                return None
            self.ahead.append(line)
        return self.ahead[i]

    def _compare(self, given: dict) -> None:
        logged = self._line(0)
        if logged is None:
            raise _Parted(f"{self.path}:{self.compared + 1}: the log ends early")
        if logged != given:
            raise _Parted(self._differs(self.compared + 1, logged, given))
        self.last = self.ahead.popleft()
        self.compared += 1

    def _differs(self, number: int, logged, given) -> str:
        """Where the line parts, naming the keys that differ when both are objects
        (each value cut short alone, so no JSON is cut in the middle)."""
        if isinstance(logged, dict) and isinstance(given, dict) and logged.keys() == given.keys():
            parts = [f"{key}: the log says {_cut_json(logged[key])}, the game gives {_cut_json(given[key])}"
                     for key in logged if logged[key] != given[key]]
            return f"{self.path}:{number}: " + "; ".join(parts)
        return f"{self.path}:{number}: the log says {_cut_json(logged)}, the game gives {_cut_json(given)}"


def _cut_json(value, size: int = 200) -> str:
    text = json.dumps(value)
    return text if len(text) <= size else text[:size] + "…"


def _labels(lines) -> list:
    return [line["decision"]["label"] if "decision" in line else int(line["undo"]["to"])
            for line in lines if isinstance(line, dict) and ("decision" in line or "undo" in line)]


# ------------------------------------------------------------ across an edit
_COMPARED = ("decision", "chance", "change", "end")


def follow(path, lines, game) -> tuple[bool, str]:
    """Play a log's decisions and chance outcomes on edited rules; say where they part.

    Chance is not re-drawn: the log's outcomes are imposed in order (a strict
    rig, engine/rig.py), so a difference is the rules', never the dice's.
    """
    from .trace import quiet
    head = lines[0]
    logged = [line for line in lines[1:] if isinstance(line, dict) and next(iter(line), None) in _COMPARED]
    outcomes = [(line["chance"], decode(line["details"])) for line in logged if "chance" in line]
    state, stuck = None, None
    try:
        state = game.new_state(int(head["players"]), int(head["seed"]), record=True,
                               trace=quiet if head.get("trace") else None,
                               rig=Rig(outcomes, strict=True) if outcomes else None)
        _follow_decisions(state, lines)
    except RulespecError as e:
        stuck = e
    events = [e for e in (state.events if state is not None else [])
              if next(iter(e), None) in _COMPARED]
    report = _first_difference(events, logged, game, head)
    result = next((line["result"] for line in lines if isinstance(line, dict) and "result" in line), None)
    if not report and stuck is None and result is not None and state is not None \
            and _result(state) != _result_of(result):
        report.append(f"the game ends the same way but scores differently: the log has "
                      f"{result.get('scores')} (winner {result.get('winner')}), the new rules give "
                      f"{state.scores()} (winner {state.winner()})")
    if stuck is not None:
        at = state.decisions + 1 if state is not None else 0
        where = f"decision {at}" if at else "the set-up"
        report.append(f"at {where}, the new rules cannot follow the log: {stuck.message}")
    if not report:
        what = "only its layout and comments changed" if head.get("spec_id") == game.spec_id \
            else "the rules changed, but not this game"
        return True, (f"{path}: same game on {game.file} ({what}): every decision, chance "
                      f"outcome and change is as logged")
    return False, f"{path}: played on {game.file}:\n  " + "\n  ".join(report)


def _follow_decisions(state, lines) -> None:
    """Answer each logged decision; raise IllegalAction where the new rules ask
    someone else, refuse the answer, or go on past the log's end."""
    if any(isinstance(line, dict) and "undo" in line for line in lines):
        script = _Script.of(_labels(lines))   # a person took decisions back: follow by label
        while not state.is_terminal():
            state.apply(script.choose(state))
        return
    for line in lines:
        decision = line.get("decision") if isinstance(line, dict) else None
        if decision is None:
            continue
        if state.is_terminal():
            raise IllegalAction(f"the game is over ({state.ended_by}) where the log goes on")
        seat = state.current_player()
        if seat != decision.get("player"):
            raise IllegalAction(f"the log has seat {decision.get('player')} choose "
                                f"{decision.get('label')!r}, but these rules ask seat {seat} "
                                f"(options: {', '.join(state.pending.labels)})")
        state.apply(decision["label"])
    if not state.is_terminal():
        raise IllegalAction("the log has no more decisions but the game goes on")


def _first_difference(new, old, game, head) -> list[str]:
    """The first logged event the new rules change, in words, as a list of lines."""
    decisions = 0
    for a, b in zip(old, new):
        if "decision" in a:
            decisions += 1
        if _plain(a) == _plain(b):
            continue
        when = f"from decision {decisions}" if decisions else "in the set-up"
        if "change" in a and "change" in b:
            new_what, new_text = _said(b["change"], game.file)
            old_what, old_text = _said(a["change"], "old ")
            instead = old_text if old_what == new_what else f"{old_what} {old_text}"
            return [f"{when}, {new_what} {new_text} instead of {instead}"]
        return [f"{when}, the log has {_event(a)}, the new rules give {_event(b)}"]
    if len(new) < len(old) and new and "end" in new[-1]:
        return [f"the game ends after decision {sum('decision' in e for e in new)} "
                f"({new[-1]['end'].get('reason')}), where the log played on"]
    return []


def _result(state) -> tuple:
    return state.scores(), state.winner(), state.ended_by


def _result_of(logged: dict) -> tuple:
    return logged.get("scores"), logged.get("winner"), logged.get("ended_by")


def _plain(event):
    """An event without where it was written, which an edit may move."""
    if "change" in event:
        return {k: v for k, v in event["change"].items() if k not in ("file", "line", "rule")}
    return event


def _said(change: dict, file) -> tuple[str, str]:
    """(what, 'gains 5 (3 → 8) (FILE:LINE, rule)') of a change record."""
    what, old, new = change.get("what"), change.get("from"), change.get("to")
    if change.get("kind") == "var" and _number(old) and _number(new):
        delta = new - old
        text = (f"gains {delta}" if delta >= 0 else f"loses {-delta}") + f" ({old} → {new})"
    elif change.get("kind") == "move":
        text = f"moves from {old} to {new}"
    else:
        text = f"{display(decode(old))} → {display(decode(new))}"
    rule = f", {change['rule']}" if change.get("rule") else ""
    return what, f"{text} ({file}:{change.get('line')}{rule})"


def _number(x) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def _event(event) -> str:
    kind = next(iter(event))
    body = event[kind]
    if kind == "decision":
        return f"the decision {body.get('label')!r} by seat {body.get('player')}"
    if kind == "chance":
        return f"a {body} outcome" if isinstance(body, str) else f"chance {body}"
    if kind == "change":
        return " ".join(_said(body, "new "))
    return f"{kind} {json.dumps(body)[:80]}"


def logged_game(head: dict, log_path, load_game):
    """The game of the spec a log's header names (see _find_spec). The header is
    the word of whoever wrote the log: a spec it names that does not load is
    said to be so, its errors (lines of that file) not printed: the user can
    validate it, or name one with --against. A variant the log names that the
    spec has not, or that does not load, is said as loading it says (SpecErrors).
    The spec is loaded once, and again only on an error, to tell which it is.
    Raises CorruptFile."""
    from rulespec.errors import SpecErrors
    spec = _find_spec(head.get("spec"), log_path)
    try:
        if spec != head["spec"]:    # found beside the log: named as the log names it
            return game_against(head, spec, load_game)
        return load_game(spec, variant=head.get("variant"))
    except SpecErrors:
        try:    # the spec itself, or only the log's variant of it?
            load_game(spec)
        except SpecErrors as e:
            raise CorruptFile(f"cannot replay: the spec the log names, {spec}, is no valid spec "
                              f"({len(e.errors)} error{'s' * (len(e.errors) != 1)}): check it with "
                              f"`rulespec validate {spec}`, or give the spec with --against SPEC",
                              file=str(log_path), line=1, col=1) from None
        raise


def _find_spec(spec, log_path) -> str:
    """The file a log's header names as its spec: as named (from here), else beside
    the log. Only a YAML file (.yaml, .yml), so a log from elsewhere cannot make
    replay read /dev/zero or /etc/passwd. Raises CorruptFile."""
    if spec is None:
        raise CorruptFile("corrupt log: the header names no spec", file=str(log_path), line=1, col=1)
    if not isinstance(spec, str) or not spec.lower().endswith((".yaml", ".yml")) or "\0" in spec:
        raise CorruptFile(f"cannot replay: the log names {str(spec)[:200]!r} as its spec, which is "
                          f"no YAML file (.yaml or .yml): give the spec with --against SPEC",
                          file=str(log_path), line=1, col=1)
    beside = os.path.join(os.path.dirname(os.path.abspath(log_path)), spec)
    for candidate in (spec, beside):
        if os.path.isfile(candidate):
            return candidate
    raise CorruptFile(f"cannot replay: the spec the log names, {spec}, is found neither here "
                      f"nor beside the log", file=str(log_path))
