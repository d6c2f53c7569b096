"""A size limit's error is a sentence, and names what the designer wrote: a decision's
options as that decision, not as a range they never wrote."""
from __future__ import annotations

import pytest

from interpreter import load_game
from rulespec.errors import RuleError


def test_choose_number_over_the_size_limit_names_the_decision_not_a_range():
    text = ("game: X\nplayers: {min: 2, max: 2}\nglobals:\n  n: {start: 0}\nflow: |\n"
            "  n = choose number from 1 to 1000000000 by players[0]\n  end game \"x\"\n")
    with pytest.raises(RuleError) as info:
        load_game("x5.yaml", text=text).new_state(2, 0)
    assert info.value.message.startswith(
        "choose number from 1 to 1000000000 offers 1,000,000,000 options, over the limit of "
        "1,000,000 (limits: size)")


def test_a_range_over_the_size_limit_reads_as_a_sentence():
    text = ("game: X\nplayers: {min: 2, max: 2}\nglobals:\n  n: {start: 0}\nflow: |\n"
            "  n = count(range(100000000))\n  end game \"x\"\n")
    with pytest.raises(RuleError, match=r"error: the length of a range would be 100,000,000, over the "
                                        r"limit of 1,000,000 \(limits: size\)"):
        load_game("x6.yaml", text=text).new_state(2, 0)
