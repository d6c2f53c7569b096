"""The DSL: the parser (grammar.lark -> rulespec.ast) and expression evaluation."""
from __future__ import annotations


import pytest

from interpreter import load_game
from rulespec import ast
from rulespec.dsl import parse_expression, parse_statements
from rulespec.errors import RuleError, RulespecError
from tests.paths import TESTS

MARKET = TESTS / "games" / "market.yaml"


def shape(node):
    """A compact, position-free rendering of an expression tree."""
    if isinstance(node, (ast.Number, ast.String, ast.Const)):
        return node.value
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, (ast.Arith, ast.Compare)):
        return (node.op, shape(node.left), shape(node.right))
    if isinstance(node, ast.And):
        return ("and",) + tuple(shape(i) for i in node.items)
    if isinstance(node, ast.Or):
        return ("or",) + tuple(shape(i) for i in node.items)
    if isinstance(node, ast.Not):
        return ("not", shape(node.operand))
    if isinstance(node, ast.Neg):
        return ("neg", shape(node.operand))
    if isinstance(node, ast.IfExp):
        return ("if", shape(node.then), shape(node.cond), shape(node.orelse))
    if isinstance(node, ast.Attr):
        return (".", shape(node.obj), node.name)
    if isinstance(node, ast.Index):
        return ("[]", shape(node.obj), shape(node.key))
    if isinstance(node, ast.Call):
        return ("call", node.func, tuple(shape(a) for a in node.args),
                tuple(sorted((k, shape(v)) for k, v in node.kwargs.items())))
    if isinstance(node, ast.ListLit):
        return ("list",) + tuple(shape(i) for i in node.items)
    if isinstance(node, ast.Comprehension):
        return ("comp", shape(node.elt), node.var, shape(node.iter),
                None if node.cond is None else shape(node.cond))
    raise AssertionError(f"no shape for {node!r}")


# ------------------------------------------------------------------ expressions
@pytest.mark.parametrize("text, expected", [
    ("1 + 2 * 3", ("+", 1, ("*", 2, 3))),
    ("(1 + 2) * 3", ("*", ("+", 1, 2), 3)),
    ("10 - 4 - 3", ("-", ("-", 10, 4), 3)),               # left associative
    ("a // b % c", ("%", ("//", "a", "b"), "c")),
    ("-a * b", ("*", ("neg", "a"), "b")),
    ("- - a", ("neg", ("neg", "a"))),
    ("-a.b", ("neg", (".", "a", "b"))),
    ("a + b < c * d", ("<", ("+", "a", "b"), ("*", "c", "d"))),
    ("a == b", ("==", "a", "b")),
    ("a != b", ("!=", "a", "b")),
    ("a <= b", ("<=", "a", "b")),
    ("a >= b", (">=", "a", "b")),
    ("a > b", (">", "a", "b")),
    ("a in b", ("in", "a", "b")),
    ("a not in b", ("not in", "a", "b")),
    ("not a in b", ("not", ("in", "a", "b"))),
    ("not a == b", ("not", ("==", "a", "b"))),
    ("a or b and not c", ("or", "a", ("and", "b", ("not", "c")))),
    ("a and b and c", ("and", "a", "b", "c")),              # flattened
    ("a or b or c", ("or", "a", "b", "c")),
    ("not not a", ("not", ("not", "a"))),
    ("a if c else b", ("if", "a", "c", "b")),
    ("a if c else b if d else e", ("if", "a", "c", ("if", "b", "d", "e"))),
    ("a or b if c and d else e", ("if", ("or", "a", "b"), ("and", "c", "d"), "e")),
    ("p.coins", (".", "p", "coins")),
    ("x[1].y", (".", ("[]", "x", 1), "y")),
    ("price[g].z", (".", ("[]", "price", "g"), "z")),
    ("a.b.c", (".", (".", "a", "b"), "c")),
    ("f()", ("call", "f", (), ())),
    ("f(1, g(2))", ("call", "f", (1, ("call", "g", (2,), ())), ())),
    ("sort(xs, by=it.cost, descending=true)",
     ("call", "sort", ("xs",), (("by", (".", "it", "cost")), ("descending", True)))),
    ("[]", ("list",)),
    ("[1, 2, 3,]", ("list", 1, 2, 3)),
    ("[[1], []]", ("list", ("list", 1), ("list",))),
    ("[p for p in players]", ("comp", "p", "p", "players", None)),
    ("[p.coins for p in players if p.coins > 3]",
     ("comp", (".", "p", "coins"), "p", "players", (">", (".", "p", "coins"), 3))),
    ('"say \\"hi\\""', 'say "hi"'),
    ("'single'", "single"),
    ("true", True), ("false", False), ("none", None),
    ("007", 7),
])
def test_expression_shapes(text, expected):
    assert shape(parse_expression(text)) == expected


@pytest.mark.parametrize("value, expected", [(3, 3), (True, True), (False, False), (None, None)])
def test_yaml_scalars_are_expressions(value, expected):
    assert shape(parse_expression(value)) == expected


def test_folded_expression_spans_lines():
    assert shape(parse_expression("a +\n b")) == ("+", "a", "b")


def test_positions_are_one_based_and_exact():
    tree = parse_expression("a + foo(b)")
    assert (tree.line, tree.col) == (1, 1)
    call = tree.right
    assert (call.line, call.col) == (1, 5)
    assert (call.args[0].line, call.args[0].col) == (1, 9)


@pytest.mark.parametrize("text, line, col, fragment", [
    ("1 + * 2", 1, 5, "unexpected `*`; expected an expression"),
    ("(1 + 2", 1, 1, "this `(` is never closed"),           # at the bracket, not the end
    ("a < b < c", 1, 7, "unexpected `<`"),
    ("a if b else", 1, 12, "syntax error"),
    ("x $ y", 1, 3, "unexpected character `$`"),
    ("f(1,, 2)", 1, 5, "unexpected `,`"),
    ('"open', 1, 1, "unexpected character"),
])
def test_expression_syntax_errors(text, line, col, fragment):
    with pytest.raises(RulespecError) as info:
        parse_expression(text)
    e = info.value
    assert (e.line, e.col) == (line, col)
    assert e.message.startswith("syntax error") and fragment in e.message


def test_expression_trailing_comment():
    assert shape(parse_expression("1 + 2  # three")) == ("+", 1, 2)


def test_expression_ending_early_names_what_was_expected():
    with pytest.raises(RulespecError) as info:
        parse_expression("1 +  # three")
    assert "expected an expression" in info.value.message


# ------------------------------------------------------------------- statements
def stmt(text):
    block = parse_statements(text)
    assert isinstance(block, ast.Block)
    return block.body


def test_assignments():
    a, b, c, d = stmt("x = 1\np.coins += 3\nowner[c] -= 1\nx.y = [1]")
    assert isinstance(a, ast.Assign) and shape(a.target) == "x" and shape(a.value) == 1
    assert isinstance(b, ast.AugAssign) and b.op == "+=" and shape(b.target) == (".", "p", "coins")
    assert isinstance(c, ast.AugAssign) and c.op == "-=" and shape(c.target) == ("[]", "owner", "c")
    assert isinstance(d, ast.Assign) and shape(d.value) == ("list", 1)


def test_call_statement_and_simple_keywords():
    call, ret, ret_none, pas, end, end_plain, phase, sig = stmt(
        'shuffle(deck)\nreturn x + 1\nreturn\npass\nend game "over"\nend game\nphase market\n'
        "signal sold(p, good=wine)")
    assert isinstance(call, ast.CallStmt) and call.call.func == "shuffle"
    assert isinstance(ret, ast.Return) and shape(ret.value) == ("+", "x", 1)
    assert isinstance(ret_none, ast.Return) and ret_none.value is None
    assert isinstance(pas, ast.Pass)
    assert isinstance(end, ast.EndGame) and end.reason == "over"
    assert isinstance(end_plain, ast.EndGame) and end_plain.reason is None
    assert isinstance(phase, ast.RunPhase) and phase.name == "market"
    assert isinstance(sig, ast.Signal) and sig.name == "sold"
    assert [shape(a) for a in sig.args] == ["p"] and shape(sig.kwargs["good"]) == "wine"


def test_signal_without_arguments():
    (sig,) = stmt("signal tied()")
    assert sig.args == [] and sig.kwargs == {}


def test_decisions():
    one, num, upto = stmt("x = choose one of market by p\n"
                          "n = choose number from 1 to max(2, k) by player\n"
                          "xs = choose up to 2 of hand by p")
    assert isinstance(one, ast.ChooseOne) and shape(one.options) == "market" and shape(one.by) == "p"
    assert isinstance(num, ast.ChooseNumber) and shape(num.low) == 1
    assert shape(num.high) == ("call", "max", (2, "k"), ()) and shape(num.by) == "player"
    assert isinstance(upto, ast.ChooseSeveral) and upto.up_to and shape(upto.count) == 2


def test_choose_exactly_several():
    (several,) = stmt("xs = choose 2 of hand by p")
    assert isinstance(several, ast.ChooseSeveral) and not several.up_to
    assert shape(several.count) == 2 and shape(several.options) == "hand"


def test_auction_options_in_any_order():
    (a,) = stmt("r = auction among bidders limit bidder.coins raise 2 opening 3 starter first")
    assert isinstance(a, ast.Auction)
    assert shape(a.among) == "bidders" and shape(a.limit) == (".", "bidder", "coins")
    assert shape(a.raise_) == 2 and shape(a.opening) == 3 and shape(a.starter) == "first"
    (b,) = stmt("r = auction among players limit 5")
    assert b.opening is None and b.raise_ is None and b.starter is None


def test_turn_until_done():
    (t,) = stmt("turn p until done: buy, sell, walk")
    assert isinstance(t, ast.Turn) and t.until_done and t.actions == ["buy", "sell", "walk"]


def test_turn_single_action():
    (t,) = stmt("turn p: buy, sell")
    assert not t.until_done and t.actions == ["buy", "sell"]


def test_if_elif_else_chain():
    node, after = stmt("if a:\n    x = 1\nelif b:\n    x = 2\nelif c:\n    x = 3\nelse:\n    x = 4\ny = 5")
    assert shape(after.value) == 5 and after.line == 9
    assert isinstance(node, ast.If) and shape(node.cond) == "a"
    (elif1,) = node.orelse
    assert isinstance(elif1, ast.If) and shape(elif1.cond) == "b" and elif1.line == 3
    (elif2,) = elif1.orelse
    assert shape(elif2.cond) == "c"
    assert [shape(s.value) for s in elif2.orelse] == [4]


def test_nested_blocks_and_dedent():
    body = stmt("while true:\n    for p in players where p.coins > 0:\n        if p.coins > 3:\n"
                "            p.coins -= 1\n        x = 2\n\n    y = 3\nz = 4")
    assert len(body) == 2
    loop, last = body
    assert isinstance(loop, ast.While) and shape(last.target) == "z"
    inner_for, y = loop.body
    assert isinstance(inner_for, ast.For) and inner_for.var == "p"
    assert shape(inner_for.where) == (">", (".", "p", "coins"), 0)
    assert [type(s).__name__ for s in inner_for.body] == ["If", "Assign"]
    assert (y.line, y.col) == (7, 5)


def test_one_line_suites_and_comments():
    body = stmt("# leading comment\nif a: x = 1  # why\nfor p in players: pass\n")
    assert isinstance(body[0], ast.If) and isinstance(body[0].body[0], ast.Assign)
    assert isinstance(body[1], ast.For) and body[1].where is None


def test_menu_and_secretly():
    menu, sec = stmt('choose by p:\n    "pay" if p.coins > 0:\n        p.coins -= 1\n'
                     '    "refuse":\n        pass\nsecretly for q in players:\n    q.bet = 1')
    assert isinstance(menu, ast.Menu) and [o.label for o in menu.options] == ["pay", "refuse"]
    assert shape(menu.options[0].cond) == (">", (".", "p", "coins"), 0)
    assert menu.options[1].cond is None
    assert isinstance(sec, ast.Secretly) and sec.var == "q" and len(sec.body) == 1


def test_walk_visits_every_node():
    block = parse_statements("if a:\n    x = f(b, c)")
    names = {n.id for n in ast.walk(block) if isinstance(n, ast.Name)}
    assert names == {"a", "x", "b", "c"}


@pytest.mark.parametrize("text, line, col, fragment", [
    ("x = 1\nx = = 2", 2, 5, "unexpected `=`"),
    ("if a\n    x = 1", 1, 5, "expected `:`"),
    ("if a:\nx = 1", 2, 1, "syntax error"),
    ("x = 1\ny = 2 $", 2, 7, "unexpected character `$`"),
    ("3 = x", 1, 1, "cannot assign to this"),
    ("p.coins", 1, 1, "does nothing on its own"),
    ("turn p until done:", 1, 19, "syntax error"),
    ('choose by p:\n    pass', 2, 5, "syntax error"),
])
def test_statement_errors(text, line, col, fragment):
    with pytest.raises(RulespecError) as info:
        parse_statements(text)
    assert (info.value.line, info.value.col) == (line, col), info.value.message
    assert fragment in info.value.message


def test_bad_dedent_position():
    with pytest.raises(RulespecError) as info:
        parse_statements("if a:\n        x = 1\n    y = 2")
    assert (info.value.line, info.value.col) == (3, 5)
    assert "indentation" in info.value.message


# ------------------------------------------------------------------- evaluation
@pytest.fixture(scope="module")
def market():
    return load_game(MARKET)


@pytest.fixture
def state(market):
    return market.new_state(3, seed=5)


def ev(game, st, text):
    return game.snippet(text, "expression")(st, {})


@pytest.mark.parametrize("text, expected", [
    ("2 + 3 * 4 - 1", 13),
    ("(2 + 3) * 4", 20),
    ("7 // 2", 3), ("-7 // 2", -4), ("7 % 3", 1), ("-7 % 3", 2),
    ("-(3 - 5)", 2),
    ("1 < 2 and 2 <= 2 and 3 > 2 and 3 >= 3 and 1 != 2 and 1 == 1", True),
    ("1 > 2 or 2 > 3", False),
    ("not 1 == 1", False),
    ("3 in [1, 2, 3]", True), ("4 not in [1, 2, 3]", True), ("3 not in [1, 2, 3]", False),
    ("10 if 1 > 2 else 20", 20), ("10 if 2 > 1 else 20", 10),
    ('"a" + "b"', "ab"),
    ("[1, 2] + [3]", [1, 2, 3]),
    ("[x * x for x in range(4)]", [0, 1, 4, 9]),
    ("[x for x in range(10) if x % 3 == 0]", [0, 3, 6, 9]),
    ("count([1, 2, 3])", 3), ("sum([1, 2, 3])", 6), ("sum([])", 0),
    ("max([3, 9, 2])", 9), ("min([3, 9, 2])", 2), ("max(3, 9, 2)", 9), ("min(5, 3, 4)", 3),
    ("max([])", None), ("min([none, 4, 2])", 2),
    ('max(["aa", "b", "cccc"], by=count([1]) + 0)', "aa"),
    ("abs(-3)", 3),
    ("all([])", True), ("all([true, false])", False), ("any([false, true])", True), ("any([])", False),
    ("range(3)", [0, 1, 2]), ("range(2, 5)", [2, 3, 4]), ("range(0)", []),
    ("sort([3, 1, 2])", [1, 2, 3]), ("sort([3, 1, 2], descending=true)", [3, 2, 1]),
    ("sort([[2, 1], [1, 5], [1, 2]])", [[1, 2], [1, 5], [2, 1]]),
    ("sort([3, 1, 2], by=-it)", [3, 2, 1]),
    ("sort([[1, 9], [2, 3], [0, 5]], by=it[1])", [[2, 3], [0, 5], [1, 9]]),
    ("sort([[1, 2], [0, 2], [5, 1]], by=[it[1], it[0]])", [[5, 1], [0, 2], [1, 2]]),
    ("sort([2, none, 1], by=it)", [None, 1, 2]),
    ("max([[1, 9], [2, 3]], by=it[1])", [1, 9]),
    ("min([[1, 9], [2, 3]], by=it[1])", [2, 3]),
    ("max([[1, 5], [2, 5]], by=it[1])", [1, 5]),           # first of equals
    ("first([4, 5])", 4), ("last([4, 5])", 5), ("first([])", None), ("last([])", None),
    ("append([1], 2)", [1, 2]), ("remove([1, 2, 1], 1)", [2, 1]), ("remove([1], 9)", [1]),
    ("index_of([4, 5], 5)", 1), ("index_of([4, 5], 6)", None),
    ("reverse([1, 2, 3])", [3, 2, 1]),
    ("rotate([1, 2, 3, 4], 3)", [3, 4, 1, 2]), ("rotate([1, 2, 3], 1)", [1, 2, 3]),
    ("unique([3, 1, 3, 2, 1])", [3, 1, 2]),
    ("occurrences([1, 2, 1], 1)", 2), ("occurrences([], 1)", 0),
    ("keys(sale_value)", ["corn", "wine", "cloth", "spice"]),
    ("get(sale_value, wine)", 3), ("get(sale_value, thief, 0)", 0), ("get(sale_value, thief)", None),
    ("with_key(sale_value, corn, 9).corn", 9), ("sale_value.corn", 2),
    ("sale_value[spice]", 7), ("sale_value[\"cloth\"]", 5),
    ("text(12)", "12"), ("text(none)", "none"), ("text(true)", "true"), ("text([1, 2])", "[1, 2]"),
    ("round_limit + prestige_goal", 18),
    ("nplayers", 3),
    ("wealth(players[0])", 5),
    ("thief", "thief"), ("temple", "temple"),
])
def test_evaluate(market, state, text, expected):
    assert ev(market, state, text) == expected


def test_evaluation_leaves_inputs_alone(market, state):
    before = {k: list(v) for k, v in state.zones.items()}
    f = market.snippet("[append(cards(deck), 4) != cards(deck), count(sort(cards(deck))), "
                       "count(reverse(cards(deck))), count(remove(cards(deck), top(deck)))]", "expression")
    assert f(state, {}) == [True, 14, 14, 13]
    assert state.zones == before


@pytest.mark.parametrize("text, expected", [
    ("players", [0, 1, 2]),
    ("next_player(players[2])", 0), ("next_player(players[0], 2)", 2),
    ("previous_player(players[0])", 2), ("previous_player(players[2], 2)", 0),
    ("others(players[1])", [2, 0]),
    ("clockwise_from(players[2])", [2, 0, 1]),
    ("rotate(players, players[1])", [1, 2, 0]),
    ("max(players, by=it.coins)", 0),
    ("text(players[1])", "P2"),
])
def test_player_functions(market, state, text, expected):
    assert ev(market, state, text) == expected


@pytest.mark.parametrize("text, expected", [
    ("nodes(town)", ["gate", "market", "temple", "harbour", "guild"]),
    ("next_node(town, guild)", "gate"), ("previous_node(town, gate)", "guild"),
    ("successors(town, market)", ["temple"]), ("neighbours(town, market)", ["gate", "temple"]),
    ("distance(town, gate, guild)", 4), ("distance(town, guild, gate)", 1),
    ("node_attr(town, temple, \"holy\")", True), ("node_attr(town, gate, \"holy\", false)", False),
    ("node_attr(town, gate, \"holy\")", None),
])
def test_board_functions(market, state, text, expected):
    assert ev(market, state, text) == expected


def test_zone_functions(market, state):
    zones = state.zones
    deck = list(zones["deck"])
    hand0 = list(zones["hand@0"])
    assert ev(market, state, "count(deck)") == len(deck) == 20 - 6
    assert ev(market, state, "cards(deck)") == deck
    assert ev(market, state, "top(deck)") == deck[0]
    assert ev(market, state, "first(deck)") == deck[0] and ev(market, state, "last(deck)") == deck[-1]
    assert ev(market, state, "top(market)") is None and ev(market, state, "cards(market)") == []
    assert ev(market, state, "cards(players[0].hand)") == hand0
    assert ev(market, state, "count(players[1].hand)") == 2
    assert ev(market, state, "owner(players[1].hand)") == 1
    assert ev(market, state, "owner(deck)") is None
    assert ev(market, state, "named(spice)") == ["spice#1", "spice#2", "spice#3"]
    card = hand0[0]
    name = market.cards[card]["name"]
    # a comprehension binds `c` to the first card of seat 0's hand
    f = market.snippet(
        "[[name(c), kind(c), where(c), c.cost, c.good, c.id, has(players[0].hand, name(c)), "
        "find(players[0].hand, name(c)) in players[0].hand, c in players[0].hand, c not in deck] "
        "for c in [first(players[0].hand)]][0]", "expression")
    env = {}
    assert f(state, env) == [name, "goods", "hand@0", market.cards[card]["cost"],
                             market.cards[card]["good"], card, True, True, True, True]
    assert ev(market, state, "find(market, corn)") is None
    assert ev(market, state, "has(market, corn)") is False
    assert ev(market, state, "[c for c in deck if c.good == spice]") == [
        c for c in deck if market.cards[c]["good"] == "spice"]
    assert ev(market, state, "sort(cards(deck), by=[it.cost, it.id])") == sorted(
        deck, key=lambda c: (market.cards[c]["cost"], c))
    assert ev(market, state, "sum([c.cost for c in deck]) + sum([c.cost for c in cards(players[0].hand)])"
              " + sum([c.cost for c in cards(players[1].hand)]) + sum([c.cost for c in cards(players[2].hand)])"
              ) == 6 * 1 + 5 * 2 + 4 * 3 + 3 * 4


def test_evaluation_errors_are_rule_errors(market, state):
    with pytest.raises(RuleError, match="rotate"):
        ev(market, state, "rotate([1, 2], 9)")
    with pytest.raises(RuleError, match="not a card"):
        ev(market, state, 'name("no such card")')
