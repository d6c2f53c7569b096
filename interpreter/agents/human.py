"""A person at the terminal: numbered options, `undo`, and why a refused option is refused."""
from __future__ import annotations

from rulespec.errors import RulespecError


class HumanAgent:
    """A person at a terminal: numbered options, their own view, asks again on bad input
    (saying why an option is not legal), and `undo` goes back to their previous decision."""
    name = "human"

    def __init__(self, seed: int = 0, stdin=None, stdout=None):
        import sys

        from ..tools.undo import History
        self.stdin = stdin or sys.stdin
        self.stdout = stdout or sys.stdout
        self.history = History()

    def choose(self, state):
        self.history.remember(state)
        options = self._show(state)
        while True:
            print("> ", end="", file=self.stdout, flush=True)
            line = self.stdin.readline()
            if not line:
                raise RulespecError("input ended before the game did")
            answer = line.strip()
            for option in options:   # an exact label first: options may themselves be numbers
                if option.label == answer:
                    return option
            if answer.isdigit() and 1 <= int(answer) <= len(options):
                return options[int(answer) - 1]
            if answer == "undo":
                problem = self.history.undo(state, state.current_player())
                if problem is None:
                    options = self._show(state)
                else:
                    print(problem, file=self.stdout)
                continue
            self._refuse(state, answer, options)

    def _show(self, state):
        seat = state.current_player()
        options = state.legal_actions()
        print(state.describe(seat), file=self.stdout)
        print(f"\n{state.game.seat_name(seat)}, choose (or type undo):", file=self.stdout)
        for i, option in enumerate(options, 1):
            print(f"  {i}. {option.label}", file=self.stdout)
        return options

    def _refuse(self, state, answer, options):
        """Say why `answer` is not legal: the refusing rule and its line, when there is one."""
        from ..engine.explain import refusal
        if not answer or answer.isdigit():
            print(f"'{answer}' is not an option: type a number from 1 to {len(options)} "
                  f"or an option's exact text.", file=self.stdout)
            return
        print(refusal(state, answer).format(), file=self.stdout)
