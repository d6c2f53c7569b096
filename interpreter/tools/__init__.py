"""The designer's tools around the engine.

play.py runs one game with agents; log.py writes and replays JSONL logs;
trace.py prints state changes with their rules; undo.py keeps the history a
human may step back through; scenario.py runs scenario tests; render.py
draws boards as Graphviz DOT.

May import: interpreter.engine, rulespec. Never agents, analysis or adapters.
"""
