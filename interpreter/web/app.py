"""`rulespec serve`: the web table on Starlette, served by uvicorn.

Routes (seats are numbered from 1 in URLs, as players say them):
    GET  /                          who plays where (no tokens: those go to each person)
    GET  /seat/{n}?token=T          seat n's page
    GET  /api/seat/{n}/state?token=T&since=V   {"version"} or {"version", "html"} when newer
    POST /api/seat/{n}/act          {"token", "labels": [...]} or {"token", "undo": true}
A request for seat n with any other token than seat n's is refused (403) before
anything of the game is read. A refused answer is a 200 with the reason on the
page; once a rule's fault has stopped the game (session.py) every answer gets a
500 {"error", "version", "html"}, and `state` carries the same "error". Bots
move in a background task, one decision per `pause` seconds, so people can
follow them.
"""
from __future__ import annotations

import asyncio
import contextlib
import json
import socket

from rulespec.errors import IllegalAction

from .render import full_page
from .session import Session

DEFAULT_PAUSE = 0.8    # seconds a bot waits before its move


def create_app(session: Session, pause: float = DEFAULT_PAUSE, poll_ms: int = 400):
    """The Starlette application for one game session."""
    from starlette.applications import Starlette
    from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse
    from starlette.routing import Route

    def seat_of(request):
        """The 0-based seat a request may act for, or None when it must be refused."""
        try:
            seat = int(request.path_params["n"]) - 1
        except ValueError:
            return None
        token = request.query_params.get("token") or request.state.token
        return seat if session.token_ok(seat, token) else None

    def refused():
        return PlainTextResponse("this page belongs to another seat (wrong or missing token)",
                                 status_code=403)

    async def index(request):
        game = session.game
        rows = "".join(f"<li>{game.seat_name(s)}: {n}</li>" for s, n in enumerate(session.names))
        return HTMLResponse(f"<!DOCTYPE html><meta name='viewport' content='width=device-width'>"
                            f"<h1>{_esc(game.name)}</h1><ul>{rows}</ul>"
                            "<p>Each person opens the link printed for their seat.</p>")

    async def page(request):
        request.state.token = None
        seat = seat_of(request)
        if seat is None:
            return refused()
        config = {"seat": seat + 1, "token": session.tokens[seat], "version": session.version,
                  "poll_ms": poll_ms}
        title = f"{session.game.name}: {session.game.seat_name(seat)}"
        return HTMLResponse(full_page(title, session.page(seat), config))

    async def state(request):
        request.state.token = None
        seat = seat_of(request)
        if seat is None:
            return refused()
        if request.query_params.get("since") == str(session.version):
            return JSONResponse({"version": session.version})
        html = session.page(seat)      # first: drawing it may stop the game
        return JSONResponse(_with_fault({"version": session.version, "html": html}))

    async def act(request):
        try:
            body = json.loads(await request.body())
        except ValueError:      # not JSON, or not UTF-8 (UnicodeDecodeError)
            return JSONResponse({"error": "the request is not JSON"}, status_code=400)
        except RecursionError:  # `[[[[...` nested deeper than the parser goes
            return JSONResponse({"error": "the request is nested too deeply"}, status_code=400)
        request.state.token = body.get("token") if isinstance(body, dict) else None
        seat = seat_of(request)
        if seat is None:
            return refused()
        try:
            if body.get("undo"):
                session.undo(seat)
            else:
                labels = body.get("labels")
                if not isinstance(labels, list) or not all(isinstance(x, str) for x in labels):
                    raise IllegalAction("labels must be a list of option labels")
                session.act(seat, labels)
        except IllegalAction as e:
            session.messages[seat] = e.message if hasattr(e, "message") else str(e)
            session.version += 1
        html = session.page(seat)
        reply = _with_fault({"version": session.version, "html": html})
        return JSONResponse(reply, status_code=500 if session.fault is not None else 200)

    def _with_fault(reply: dict) -> dict:
        return reply if session.fault is None else dict(reply, error=session.fault)

    @contextlib.asynccontextmanager
    async def lifespan(app):
        task = asyncio.create_task(_bots(session, pause))
        yield
        task.cancel()

    return Starlette(routes=[Route("/", index), Route("/seat/{n}", page),
                             Route("/api/seat/{n}/state", state),
                             Route("/api/seat/{n}/act", act, methods=["POST"])],
                     lifespan=lifespan)


async def _bots(session: Session, pause: float) -> None:
    """Bots decide one at a time, each after a pause people can see."""
    while session.running():    # a fault stops it: bot_step reports it, never raises it
        await asyncio.sleep(pause)
        session.bot_step()


def _esc(text) -> str:
    from html import escape
    return escape(str(text))


def listening_socket(host: str, port: int) -> socket.socket:
    """A socket bound to host:port for `serve`, bound here so that a port in use
    is known before any seat's link is printed. Raises OSError (errno
    EADDRINUSE for a port in use; socket.gaierror for an unknown host)."""
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
    # as asyncio's own create_server: a port left in TIME_WAIT by the last run binds
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError:
        sock.close()
        raise
    return sock


def table_server(session: Session, pause: float, poll_ms: int = 400):
    """The uvicorn server of the table; `run(sockets=[...])` serves it."""
    import uvicorn
    return uvicorn.Server(uvicorn.Config(create_app(session, pause, poll_ms), log_level="warning"))


def serve(session: Session, sock: socket.socket, pause: float, out, poll_ms: int = 400) -> None:
    """Print each human seat's URL, then serve on `sock` (from listening_socket)
    until interrupted."""
    host, port = sock.getsockname()[:2]
    where = f"[{host}]" if ":" in host else host
    for seat in session.humans:
        print(f"{session.game.seat_name(seat)}: http://{where}:{port}/seat/{seat + 1}"
              f"?token={session.tokens[seat]}", file=out, flush=True)
    with sock:
        table_server(session, pause, poll_ms).run(sockets=[sock])
