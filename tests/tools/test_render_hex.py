"""graph --png tiles hexes: each cell sits where its neighbours' edges touch it."""
from __future__ import annotations

import math
import re
import shutil

import pytest

from interpreter.cli import main
from interpreter.tools.render import HEX_SIZE, layout_dot
from tests.paths import ROOT

CELLS = {f"{q},{r}": {"colour": "red", "board": "a", "q": q, "r": r} for q in range(3) for r in range(3)}


def positions(dot: str) -> dict[str, tuple[float, float]]:
    return {cell: (float(x), float(y)) for cell, x, y in
            re.findall(r'"([-\d]+,[-\d]+)" \[[^\]]*pos="([-\d.]+),([-\d.]+)!"', dot)}


def test_neighbouring_hexes_are_one_hex_height_apart_in_points():
    pos = positions(layout_dot(CELLS))
    height = 72 * math.sqrt(3) * HEX_SIZE       # points: the node's height, in inches * 72
    for a, b in (("0,0", "0,1"), ("0,0", "1,0"), ("1,0", "0,1"), ("2,1", "1,2")):
        (x1, y1), (x2, y2) = pos[a], pos[b]
        assert math.hypot(x2 - x1, y2 - y1) == pytest.approx(height, abs=0.02), (a, b)


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz is not installed")
def test_graph_png_keeps_the_places(tmp_path):
    out = tmp_path / "estate.png"
    code = main(["graph", str(ROOT / "games" / "castles.yaml"), "--seat", "1", "--players", "2",
                 "--png", str(out)], stdout=open(tmp_path / "dot", "w"))
    assert code == 0 and out.read_bytes()[:4] == b"\x89PNG"
