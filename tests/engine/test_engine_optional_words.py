"""Optional words in statements: `turn p: ...` without `until done`, `choose n of` without `up to`.

Both words are optional in the grammar; when absent, the statement must still
keep every one of its parts (a missing placeholder once shifted them).
"""
from rulespec.dsl import parse_statements


def only(text):
    (stmt,) = parse_statements(text).body
    return stmt


def test_turn_without_until_done_keeps_every_action():
    turn = only("turn p: buy, sell\n")
    assert turn.until_done is False
    assert turn.actions == ["buy", "sell"]


def test_turn_with_until_done():
    turn = only("turn p until done: buy, sell\n")
    assert turn.until_done is True
    assert turn.actions == ["buy", "sell"]


def test_choose_exactly_n():
    stmt = only("out = choose 2 of hand by p\n")
    assert stmt.up_to is False
    assert (stmt.count.value, stmt.options.id, stmt.by.id) == (2, "hand", "p")


def test_choose_up_to_n():
    stmt = only("out = choose up to 2 of hand by p\n")
    assert stmt.up_to is True
    assert (stmt.count.value, stmt.options.id, stmt.by.id) == (2, "hand", "p")
