"""interpreter: plays any checked spec.

    from interpreter import load_game
    game = load_game("games/zena.yaml", variant="advanced")
    state = game.new_state(players=4, seed=1)
"""
from .game import Game, Option, load_game
from .state import State

__all__ = ["load_game", "Game", "State", "Option"]
