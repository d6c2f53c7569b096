"""values._expanded, the measure a value is refused by before it is written (a save,
a log, a label): it must count what writing out would write, each shared part as
often as it appears, while visiting each distinct part once."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from interpreter.engine.values import SHOWN, _expanded


def _written(value) -> int:
    """Items written out, the slow way: every occurrence walked."""
    parts = list(value.values()) if isinstance(value, dict) else value
    return len(value) + sum(_written(p) for p in parts if isinstance(p, (list, tuple, dict)))


@st.composite
def shared_values(draw):
    """Nested lists, tuples and maps, some holding the same part more than once."""
    made = [draw(st.lists(st.integers(), max_size=3))]
    for _ in range(draw(st.integers(0, 8))):
        parts = draw(st.lists(st.sampled_from(made) | st.integers() | st.text(max_size=2), max_size=4))
        kind = draw(st.sampled_from(["list", "tuple", "dict"]))
        made.append(tuple(parts) if kind == "tuple" else
                    {str(i): p for i, p in enumerate(parts)} if kind == "dict" else parts)
    return made[-1]


@settings(max_examples=300, deadline=None)
@given(shared_values())
def test_expanded_counts_every_occurrence(value):
    assert _expanded(value) == _written(value)


def test_a_doubling_list_is_measured_without_writing_it_out():
    value = []
    for _ in range(40):                 # 2**40 items written out, 40 distinct lists
        value = [value, value]
    assert _expanded(value) > SHOWN
