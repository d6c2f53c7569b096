"""interpreter: plays any checked spec.

    from interpreter import load_game
    game = load_game("tests/games/market.yaml", variant="long")
    state = game.new_state(players=4, seed=1)

Names are imported on first use, so `rulespec --help` does not pay for
networkx and the compiler.
"""
__all__ = ["load_game", "Game", "State", "Option", "Options"]


def __getattr__(name):
    if name in ("load_game", "Game", "Option", "Options"):
        from .engine import game
        return getattr(game, name)
    if name == "State":
        from .engine.state import State
        return State
    raise AttributeError(f"module 'interpreter' has no attribute {name!r}")
