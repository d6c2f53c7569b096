"""Any spec as another framework's environment.

pettingzoo_env.py is a PettingZoo AEC environment (extra `[pettingzoo]`);
openspiel_game.py loads any spec as an OpenSpiel game (extra `[openspiel]`).

May import: interpreter.engine, interpreter.agents, rulespec. Nothing imports
an adapter but its users and its tests.
"""
