"""Every code object the engine generates for a spec has a filename of its own that
says where in the spec it comes from (codegen `code_name`): per-file profiles and
tracebacks then name one generated function each."""
import builtins
import collections

import pytest

import interpreter.engine.codegen as codegen
import interpreter.engine.compile as compile_module
import interpreter.engine.game as game_module
from tests.shipped import shipped_specs

_MODULES = (codegen, compile_module, game_module)     # where generated code is compiled

# two actions whose `when` and `label` are written alike: code of the same text,
# making no new generated names, from different places of the spec
SPEC = '''game: Names
players: {min: 2, max: 2}
per_player:
  coins: {start: 1}
actions:
  rest:
    when: player.coins > 0
    label: '"rest"'
    do: |
      player.coins -= 1
  work:
    when: player.coins > 0
    label: '"rest"'
    do: |
      player.coins -= 1
flow: |
  while true:
    for p in players:
      turn p: rest, work
'''


def code_names(path=None, text=None) -> collections.Counter:
    """How many code objects were compiled under each "<rulespec" filename while a
    game is loaded and a 2-player game of it set up."""
    names, real = collections.Counter(), builtins.compile

    def spy(source, filename, *args, **kwargs):
        if str(filename).startswith("<rulespec"):
            names[filename] += 1
        return real(source, filename, *args, **kwargs)
    for module in _MODULES:
        module.compile = spy
    try:
        game_module.load_game(path=path, text=text).new_state(2, 0)
    finally:
        for module in _MODULES:
            del module.compile
    return names


def test_expressions_written_alike_have_names_of_their_own():
    names = code_names("names.yaml", SPEC)
    assert names and max(names.values()) == 1, [n for n, c in names.items() if c > 1]
    # each says where its text is: the spec's line and column
    for line, col in [(7, 11), (8, 13), (12, 11), (13, 13)]:   # the whens and the labels
        assert f"<rulespec expression names.yaml:{line}:{col}>" in names, (line, col)
        assert SPEC.splitlines()[line - 1][col - 1:].startswith(("player.coins", '"rest"'))


@pytest.mark.parametrize("path", shipped_specs(), ids=lambda p: p.stem)
def test_no_two_generated_codes_of_a_shipped_spec_share_a_name(path):
    names = code_names(str(path))
    assert len(names) > 10 and max(names.values()) == 1, [n for n, c in names.items() if c > 1][:5]
