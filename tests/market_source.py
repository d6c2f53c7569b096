"""Where things are written in the test game, for tests that check FILE:LINE."""
from pathlib import Path

MARKET = "tests/games/market.yaml"
LINES = Path(MARKET).read_text(encoding="utf-8").splitlines()


def line_of(text: str) -> int:
    """1-based line of the only line of market.yaml that holds `text`."""
    found = [i for i, line in enumerate(LINES, 1) if text in line]
    assert len(found) == 1, (text, found)
    return found[0]
