"""The web table (`rulespec serve`) and the replay viewer (`rulespec replay --html`).

session.py holds a game and each seat's page; app.py serves it with Starlette
on uvicorn; render.py and templates/ are the Jinja2 pages; svg.py draws boards.
Every page is built from tools/table.py's seat_table: what that seat may see.
Needs the `[web]` extra (starlette, uvicorn, jinja2).

May import: interpreter.engine, interpreter.agents, interpreter.tools, rulespec.
"""
