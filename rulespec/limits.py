"""The resource model: every bound a spec, a file or a game can run into.

Hostile or mistaken input must end in a located error naming the limit, and end
fast: each limit is checked *before* the work or memory it bounds is spent
(a `range` before its list is built, a card count before the cards). The
README's "Limits" table lists them; a spec changes the ones marked `spec`
under a top-level `limits:` map (`limits: {steps: 10000, seconds: 2}`).

| name            | default    | bounds                                                   |
| steps           | 100,000    | instructions run per decision without asking anyone      |
| seconds         | 10         | wall-clock seconds per decision                           |
| size            | 1,000,000  | items of any list or map, characters of any text, the    |
|                 |            | length of a range, options offered in one decision       |
| cards           | 100,000    | cards the spec declares (counts summed)                  |
| integer_digits  | 1,000      | decimal digits of any integer (at most 4,000: Python     |
|                 |            | itself refuses to print integers of over 4,300 digits)   |
Fixed, not changed by a spec (they guard the reading of the spec itself):
nesting depth of a rule (NESTING), YAML nodes (YAML_NODES), the length of one rule
(RULE_CHARS) and of all rules (RULE_TEXT), variants (VARIANTS), file sizes.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, fields, replace
from functools import cached_property

from .errors import LimitError

NESTING = 260                  # levels of a rule's parse tree, checked before anything recurses
                               # over it; an expression's own limit is 250 (rulespec/infer.py)
YAML_NODES = 200_000           # nodes of a spec's YAML once aliases are expanded (real specs: < 20,000)
MAX_INTEGER_DIGITS = 4_000     # Python's int <-> text conversion stops at 4,300 digits
RULE_CHARS = 20_000            # characters of one rule, checked before it is parsed (shipped: < 2,000)
RULE_TEXT = 100_000            # characters of all a spec's rules together (shipped: < 23,000):
                               # parsing and checking cost about 30 µs a character
VARIANTS = 20                  # variants of one spec: `validate` checks each as a whole spec,
                               # 0.2 s each for the largest shipped game (shipped: at most 1)
SPEC_BYTES = 16 * 2**20        # a spec or a scenario file
SAVE_BYTES = 64 * 2**20        # a saved state
LOG_BYTES = 1024 * 2**20       # a JSONL game log
LSP_MESSAGE_BYTES = 4 * SPEC_BYTES   # one message to `rulespec lsp` (a spec, JSON-escaped)
LSP_HEADER_BYTES = 1024        # one header line of such a message


@dataclass(frozen=True)
class Limits:
    """The bounds a game runs under (see the module docstring)."""
    # The shipped games and tests/games need at most 620 between two decisions
    # (random games of every variant and player count, counted instruction by
    # instruction as a traced game runs; the sampled run counts fewer): 100,000
    # stops a loop that asks nobody in under a second and ~20 MB, where
    # 1,000,000 took ~7 s and ~180 MB
    steps: int = 100_000
    seconds: float = 10.0
    size: int = 1_000_000
    cards: int = 100_000
    integer_digits: int = 1_000

    @classmethod
    def of(cls, data: dict) -> "Limits":
        """The defaults, with a checked spec's `limits:` map over them."""
        given = (data or {}).get("limits") or {}
        known = {f.name for f in fields(cls)}
        return replace(cls(), **{k: v for k, v in given.items() if k in known})

    @cached_property
    def integer_bound(self) -> int:
        """Integers must stay strictly between -bound and bound (computed once: a
        thousand-digit power is dear, and every checked result reads it)."""
        return 10 ** self.integer_digits


def too_big(what: str, got, limit, name: str) -> LimitError:
    """The error for a value over a limit: what, how big, the limit and its name."""
    return LimitError(f"{what} would be {got:,}, over the limit of {limit:,} "
                     f"(limits: {name})")


def check_number(value, limits: Limits):
    """`value` if it is a number within the limits, else a LimitError naming the limit.
    Called on every arithmetic result that is not a small int (codegen.py)."""
    if type(value) is int:
        if -limits.integer_bound < value < limits.integer_bound:
            return value
        raise LimitError(f"an integer of more than {limits.integer_digits:,} digits "
                        f"(limits: integer_digits)")
    if type(value) is float and not math.isfinite(value):
        raise LimitError("a number too large to hold (infinite or not a number)")
    if isinstance(value, (str, list, dict)) and len(value) > limits.size:
        raise too_big("the length of a " + _kind(value), len(value), limits.size, "size")
    return value


def _kind(value) -> str:
    return {str: "text", list: "list", dict: "map"}.get(type(value), "value")
