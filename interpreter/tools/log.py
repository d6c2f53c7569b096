"""JSONL game logs: write one while playing, replay one to prove it still holds.

Line 1 is a header (spec, its hash, variant, players, seed, agents); then one
line per event in the order it happened: decisions, chance outcomes, notes,
a state digest after each decision, and the result.
"""
from __future__ import annotations

import io
import json
import os

from rulespec.errors import CorruptFile, IllegalAction, RulespecError
from .play import header, play


def write_log(game, players, seed, agent_names, agents, stream, on_step=None, trace=None):
    """`trace` (a sink, trace.quiet for none) adds every state change and its rule to the log."""
    head = header(game, players, seed, agent_names)
    if trace is not None:
        head["trace"] = True   # so replay traces too, and compares the changes
    stream.write(json.dumps(head) + "\n")
    return play(game, players, seed, agents, log=stream, on_step=on_step, trace=trace)


def read_log(path) -> list[dict]:
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except (OSError, UnicodeDecodeError) as e:
        raise CorruptFile(f"cannot read log {path}: {e}") from None
    lines = []
    for number, line in enumerate(text.splitlines(), 1):
        try:
            lines.append(json.loads(line))
        except json.JSONDecodeError:
            raise CorruptFile(f"corrupt log: line {number} is not JSON", file=str(path),
                              line=number, col=1) from None
    if not lines or not isinstance(lines[0], dict) or "rulespec_log" not in lines[0]:
        raise CorruptFile("corrupt log: the first line is not a rulespec log header",
                          file=str(path), line=1, col=1)
    return lines


class _Script:
    """Plays back the decisions written in a log, by label; an undo in the log
    (a person took a decision back) is an int: the decision count to return to."""

    def __init__(self, labels):
        self.labels = iter(labels)
        self.saved = {}

    def choose(self, state):
        self.saved.setdefault(state.decisions, state.clone())
        label = next(self.labels, None)
        while isinstance(label, int) and label in self.saved:
            from .undo import restore
            restore(state, self.saved[label])
            self.saved = {k: v for k, v in self.saved.items() if k <= label}
            label = next(self.labels, None)
        if label is None or isinstance(label, int):
            raise IllegalAction("the log has no more decisions but the game goes on")
        return label


def replay(path, load_game) -> tuple[bool, str]:
    """Re-run a log; (True, summary) when every line matches, else (False, first divergence)."""
    lines = read_log(path)
    head = lines[0]
    spec = _find_spec(head.get("spec"), path)
    game = load_game(spec, variant=head.get("variant"))
    if game.spec_hash != head.get("spec_hash"):
        return False, (f"{path}: the log was made with a different version of {spec} "
                       f"(spec hash {head.get('spec_hash')}, now {game.spec_hash})")
    labels = [line["decision"]["label"] if "decision" in line else int(line["undo"]["to"])
              for line in lines if isinstance(line, dict) and ("decision" in line or "undo" in line)]
    agents = [_Script(labels)] * int(head["players"])
    out = io.StringIO()
    again = header(game, head["players"], head["seed"], head["agents"])
    trace = None
    if head.get("trace"):
        from .trace import quiet
        again["trace"], trace = True, quiet
    out.write(json.dumps(again) + "\n")
    try:
        play(game, int(head["players"]), int(head["seed"]), agents, log=out, trace=trace)
    except RulespecError as e:
        got = out.getvalue().splitlines()
        return False, f"{path}:{len(got) + 1}: the game stops following the log: {e.message}"
    return _compare(path, lines, [json.loads(x) for x in out.getvalue().splitlines()])


def _compare(path, logged, replayed) -> tuple[bool, str]:
    for number, (a, b) in enumerate(zip(logged, replayed), 1):
        if a != b:
            return False, (f"{path}:{number}: the log says {json.dumps(a)[:200]}, "
                           f"the game gives {json.dumps(b)[:200]}")
    if len(logged) != len(replayed):
        number = min(len(logged), len(replayed)) + 1
        which = "the log has lines the game does not" if len(logged) > len(replayed) else "the log ends early"
        return False, f"{path}:{number}: {which}"
    result = replayed[-1].get("result", {})
    return True, f"{path}: identical ({len(logged)} lines, ended by {result.get('ended_by')})"


def _find_spec(spec, log_path) -> str:
    if spec is None:
        raise CorruptFile("corrupt log: the header names no spec")
    if os.path.exists(spec):
        return spec
    beside = os.path.join(os.path.dirname(os.path.abspath(log_path)), spec)
    return beside if os.path.exists(beside) else spec
