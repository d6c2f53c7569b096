"""Generated code holds expressions of any depth the checker accepts (rulespec.infer.
MAX_DEPTH levels; Python's parser alone refuses 200 nested brackets): a deep tree is cut
into parts, each a generated function of codegen.SPLIT_DEPTH levels."""
from __future__ import annotations

from interpreter import load_game
from interpreter.engine.codegen import SPLIT_DEPTH
from interpreter.engine.compile import Compiler
from rulespec import ast
from rulespec.infer import MAX_DEPTH
from tests.paths import ROOT

MARKET = ROOT / "tests" / "games" / "market.yaml"


def compiled(tree, scope=frozenset()):
    game = load_game(MARKET)
    return game, Compiler(game, game.names).expr(tree, set(scope))


def test_a_flat_sum_as_deep_as_the_checker_allows():
    tree = ast.Number(1, 1, 1)
    for i in range(MAX_DEPTH - 1):
        tree = ast.Arith(1, 1, tree, "+", ast.Number(1, 1, i))
    game, f = compiled(tree)
    assert f(game.new_state(2, seed=1), {}) == 1 + sum(range(MAX_DEPTH - 1))


def test_nested_nots_and_negations_over_a_local():
    tree, pairs = ast.Name(1, 1, "x"), MAX_DEPTH // 2
    for _ in range(pairs):
        tree = ast.Not(1, 1, ast.Neg(1, 1, tree))
    game, f = compiled(tree, {"x"})
    st = game.new_state(2, seed=1)
    # not -x is true for x = 0 (or false), false for 3 (or true): the pairs alternate
    assert f(st, {"x": 0}) is (pairs % 2 == 1)
    assert f(st, {"x": 3}) is (pairs % 2 == 0)


def test_deep_comprehension_variables_reach_every_part():
    # [ -(-(...c...)) for c in [1, 2] ]: c is a Python local of the generated code
    inner = ast.Name(1, 1, "c")
    for _ in range(3 * SPLIT_DEPTH):
        inner = ast.Neg(1, 1, inner)
    tree = ast.Comprehension(1, 1, inner, "c", ast.ListLit(1, 1, [ast.Number(1, 1, 1), ast.Number(1, 1, 2)]), None)
    game, f = compiled(tree)
    assert f(game.new_state(2, seed=1), {}) == [1, 2]


def test_a_deep_spec_function_with_python_parameters():
    body = ast.Name(1, 1, "a")
    for _ in range(MAX_DEPTH - 1):
        body = ast.Arith(1, 1, body, "+", ast.Name(1, 1, "a"))
    game = load_game(MARKET)
    compiler = Compiler(game, game.names)
    game.names.functions["deep"] = ["a"]
    try:
        fn = compiler.spec_function("deep", body, {"a"})
        assert fn(game.new_state(2, seed=1), 2) == 2 * MAX_DEPTH
    finally:
        del game.names.functions["deep"]
