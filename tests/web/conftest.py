"""A real server (uvicorn in a thread) and a real browser (Debian's chromium via
Playwright) for the web table's tests.

Playwright's own browser download is not reachable here: the tests launch the
system Chromium. Outside CI a machine without it skips these tests; in CI
(`CI` set) a missing browser fails them, as .ci/run installs it.
Playwright itself is the `browser` extra, left out of the README's test
command for its size: without it these tests skip, saying so, and .ci/run
installs it and runs them on their own (tests/extras.py).
"""
from __future__ import annotations

import os
import shutil
import socket
import threading
import time

import pytest

from tests.extras import need

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]


@pytest.fixture(scope="session")
def browser():
    need("browser", "playwright")   # a heavy extra: .ci/run installs it and runs these alone
    if not os.path.exists(CHROMIUM) and not os.environ.get("CI"):
        pytest.skip("no chromium on this machine (apt-get install chromium)")
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Served:
    """A session served on a free port until `stop()`; `url(seat)` is seat's page (0-based)."""

    def __init__(self, session, pause=0.02, poll_ms=60):
        import uvicorn

        from interpreter.web.app import create_app
        self.session, self.port = session, free_port()
        config = uvicorn.Config(create_app(session, pause, poll_ms), host="127.0.0.1",
                                port=self.port, log_level="warning")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.time() + 10
        while not self.server.started and time.time() < deadline:
            time.sleep(0.02)
        assert self.server.started, "the server did not start"

    def url(self, seat: int, token: str | None = None) -> str:
        token = self.session.tokens[seat] if token is None else token
        return f"http://127.0.0.1:{self.port}/seat/{seat + 1}?token={token}"

    def stop(self):
        self.server.should_exit = True
        self.thread.join(timeout=10)


@pytest.fixture
def serve():
    started = []

    def start(session, **kw):
        started.append(Served(session, **kw))
        return started[-1]
    yield start
    for s in started:
        s.stop()
