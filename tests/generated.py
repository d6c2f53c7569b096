"""The Python source the engine generates for a spec, for tests that read it."""
from __future__ import annotations

import builtins

import interpreter.engine.codegen as codegen
import interpreter.engine.compile as compile_module
import interpreter.engine.game as game_module

_MODULES = (codegen, compile_module, game_module)     # where generated code is compiled


def generated_sources(text: str, path: str, start: bool = False) -> dict:
    """{filename: source} of the code generated for a game of spec `text` (named
    `path` in its messages), compiled at load, and with `start` also where a
    2-player game is set up (functions compiled when first called). A filename
    compiled twice keeps its last source. Constants keep their `_k` names
    (ExpressionSource.by_literals off), as the code generator writes them."""
    sources, real = {}, builtins.compile

    def spy(source, filename, *args, **kwargs):
        sources[filename] = source
        return real(source, filename, *args, **kwargs)
    for module in _MODULES:
        module.compile = spy
    literal, codegen.ExpressionSource.by_literals = codegen.ExpressionSource.by_literals, False
    try:
        game = game_module.load_game(path=path, text=text)
        if start:
            game.new_state(2, 0)
    finally:
        codegen.ExpressionSource.by_literals = literal
        for module in _MODULES:
            del module.compile
    return sources
