"""`rulespec replay LOG --html OUT.html`: a whole game in one self-contained page.

The log's decisions are played again (as `rulespec replay` does) and, before
the first decision and after each one, every view is drawn: everything (the
designer's) and each seat's own, each built by tools/table.py's seat_table
from what that view may see. The page steps forward and back, jumps with a
slider and switches views; its log lists every decision, chance outcome and
change with its rule and spec line, up to the step shown.

Drawn pages repeat most of their parts from one step to the next, so each
distinct part (a board, the players, the zones) is stored once and a step is
a list of part numbers: a 2-player game of the test specs' size is 1 to 3 MB.
"""
from __future__ import annotations

import json
import re

from rulespec.errors import CorruptFile

from ..tools.log import game_against, logged_game, read_log
from ..tools.present import Presentation
from ..tools.table import EVERYTHING, seat_table, visible_event
from ..tools.undo import restore
from .render import environment, page_fragment

PART = re.compile(r"(?=<section )")


def replay_page(path, load_game, against=None) -> str:
    """The viewer page for the log at `path`, played on its spec or on the spec file
    `against`. Raises CorruptFile for a log that is not one, or that another
    version of its spec no longer plays."""
    lines = read_log(path)
    head = lines[0]
    game = game_against(head, against, load_game) if against else logged_game(head, path, load_game)
    if game.spec_hash != head.get("spec_hash"):
        raise CorruptFile(f"{path}: the log was made with a different version of {game.file}")
    pres = Presentation(game)
    players = int(head["players"])
    views = [EVERYTHING] + list(range(players))
    answers = [x["decision"]["label"] if "decision" in x else int(x["undo"]["to"])
               for x in lines if isinstance(x, dict) and ("decision" in x or "undo" in x)]
    data = _frames(game, pres, players, int(head["seed"]), answers, views)
    data["title"] = f"{game.name}: seed {head['seed']}, {players} players" + (
        f", {game.variant}" if game.variant else "")
    data["views"] = ["everything"] + [game.seat_name(s) for s in range(players)]
    payload = json.dumps(data, separators=(",", ":")).replace("</", "<\\/")
    return environment().get_template("replay.html").render(title=data["title"], data=payload)


def _frames(game, pres, players, seed, answers, views) -> dict:
    state = game.new_state(players, seed, record=True, trace=lambda record: None)
    pool, index = [], {}
    frames, logs, moves, saved = [], {str(v): [] for v in views}, [], {}

    def part(text):
        if text not in index:
            index[text] = len(pool)
            pool.append(text)
        return index[text]

    def capture():
        step = len(frames)
        for event in state.events:
            for v in views:
                shown = visible_event(state, event, v, pres)
                if shown:
                    logs[str(v)].append([step, shown["kind"], shown["text"], shown["where"]])
        state.events.clear()
        frame = []
        for v in views:
            table = seat_table(state, v, pres)
            table["log"], table["bots"], table["can_undo"], table["message"] = [], [], False, None
            html = page_fragment(state, table, pres)
            frame.append([part(p) for p in PART.split(html) if p.strip()])
        frames.append(frame)

    capture()
    for answer in answers:
        if state.is_terminal():
            raise CorruptFile("corrupt log: it has decisions after the game ended")
        saved.setdefault(state.decisions, state.clone())
        if isinstance(answer, int):
            restore(state, saved[answer])
            moves.append("(undo)")
        else:
            who = game.seat_name(state.current_player())
            state.apply(answer)
            moves.append(f"{who}: {pres.text(answer)}")
        capture()
    return {"pool": pool, "frames": frames, "log": logs, "moves": moves}
