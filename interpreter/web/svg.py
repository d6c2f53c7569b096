"""Boards as SVG, drawn from the spec's boards and one seat's view of the state.

Each board is drawn by its shape in the spec: a `ring` on a circle (nodes off
the ring in a column beside it), a `path` in a row, `hex` cells tiled at their
axial coordinates, bare `nodes` (and the presentation section's `areas`) as
boxes. A hex layout held in a per-player variable (see engine `hex_layout`) is
tiled the same way, each cell filled with its colour and labelled with what a
map of the same player keyed by its cells holds (the tile placed there).

Pieces: a player's variable whose value is a node (or a map whose values are)
puts a token of the player's colour there; a visible card whose per-card
variable names a node is listed in it. The inputs are the seat's table
(tools/table.py), so nothing the seat may not see can be drawn.
"""
from __future__ import annotations

import math
from html import escape

from ..engine.values import decode
from ..tools.render import is_layout

HEX = 26.0              # px from a hex's centre to a corner
ROOT3 = math.sqrt(3)


def boards_svg(state, view: dict, table: dict, pres) -> list[dict]:
    """[{title, svg}] for every board and layout `view` lets the seat see."""
    game = state.game
    pieces = _pieces(state, view, table, pres)
    out = []
    for name, decl in (game.data.get("boards") or {}).items():
        if name in pres.hidden:
            continue
        board = game.boards[name]
        out.append({"title": pres.zone_title(name), "svg": _static(board, decl, pieces, pres)})
    for name, decl in pres.boards.items():
        areas = decl.get("areas") or []
        if isinstance(areas, str):
            areas = (game.data.get("constants") or {}).get(areas) or []
            areas = areas.get("value", areas) if isinstance(areas, dict) else areas
        out.append({"title": str(decl.get("title") or pres.zone_title(name)),
                    "svg": _areas([str(a) for a in areas], {}, pieces, pres)})
    out += _layouts(state, view, pres)
    return out


# ------------------------------------------------------------------ pieces
def _pieces(state, view, table, pres) -> dict:
    """node -> [(text, colour)] from visible player variables and visible cards."""
    at: dict[str, list] = {}
    for name, values in view["players_vars"].items():
        if name in pres.hidden:
            continue
        for seat, raw in enumerate(values):
            value = decode(raw) if raw != "?" else None
            colour, who = pres.seat_colour(seat), state.game.seat_name(seat)
            if isinstance(value, str):
                at.setdefault(value, []).append((who, colour))
            elif isinstance(value, dict) and not is_layout(value) and len(value) <= 6:
                for key, node in value.items():
                    if isinstance(node, str):
                        at.setdefault(node, []).append((f"{who} {pres.text(key)}", colour))
    for card, values in sorted(table["cards_vars"].items()):
        for name, value in values.items():
            if isinstance(value, str) and name not in pres.hidden:
                at.setdefault(value, []).append((pres.card_text(card), pres.card(card)["colour"]))
    return at


def _token(x, y, items, limit=6) -> str:
    parts = []
    for i, (text, colour) in enumerate(items[:limit]):
        parts.append(f"<g class='piece'><circle cx='{x + 8 + (i % 3) * 14:.1f}' cy='{y + 6 + (i // 3) * 14:.1f}' "
                     f"r='6' fill='{colour or '#777'}' stroke='#222'><title>{escape(text)}</title></circle></g>")
    if len(items) > limit:
        parts.append(f"<text x='{x + 4:.1f}' y='{y + 40:.1f}' font-size='9'>+{len(items) - limit}</text>")
    return "".join(parts)


def _svg(width, height, inner) -> str:
    return (f"<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 {width:.0f} {height:.0f}' "
            f"width='100%' style='max-width:{width:.0f}px' font-family='sans-serif' font-size='10'>"
            f"{''.join(inner)}</svg>")


# ------------------------------------------------------------------ shapes
def _static(board, decl, pieces, pres) -> str:
    if decl.get("hex"):
        cells = {n: dict(board.graph.nodes[n]) for n in board.nodes()}
        return _hexes(cells, {}, pieces, pres)
    ring, path = decl.get("ring") or [], decl.get("path") or []
    if ring:
        return _ring([str(n) for n in ring], [n for n in board.nodes() if n not in set(map(str, ring))],
                     board, pieces, pres)
    if path:
        return _path([str(n) for n in path], board, pieces, pres)
    return _areas(board.nodes(), {n: board.graph.nodes[n] for n in board.nodes()}, pieces, pres)


def _node_box(x, y, name, attrs, pieces, pres, w=96, h=44) -> str:
    fill = "#fff"
    for key, value in (attrs or {}).items():
        if value is True and pres.css(key):
            fill = pres.css(key)
        elif key == "colour" and pres.css(value):
            fill = pres.css(value)
    extra = " ".join(f"{k} {v}" for k, v in (attrs or {}).items() if v not in (True, None, {}))
    title = escape(f"{name} {extra}".strip())
    items = pieces.get(name, [])
    return (f"<g class='node' data-node='{escape(name)}'><rect x='{x:.1f}' y='{y:.1f}' width='{w}' height='{h}' rx='6' "
            f"fill='{fill}' stroke='#555'><title>{title}</title></rect>"
            f"<text x='{x + 4:.1f}' y='{y + h - 5:.1f}'>{escape(_short(pres, name))}</text>"
            f"{_token(x, y, items)}</g>")


def _short(pres, name) -> str:
    text = str(name).replace("_", " ")
    return text if len(text) <= 16 else text[:15] + "…"


def _ring(ring, extra, board, pieces, pres) -> str:
    n = len(ring)
    radius = max(120.0, n * 120 / (2 * math.pi))
    cx = cy = radius + 60
    inner = [f"<circle cx='{cx:.1f}' cy='{cy:.1f}' r='{radius:.1f}' fill='none' stroke='#bbb' stroke-dasharray='4 4'/>"]
    for i, node in enumerate(ring):
        a = 2 * math.pi * i / n - math.pi / 2
        x, y = cx + radius * math.cos(a) - 48, cy + radius * math.sin(a) - 22
        inner.append(_node_box(x, y, node, board.graph.nodes[node], pieces, pres))
    for j, node in enumerate(extra):
        inner.append(_node_box(2 * cx + 10, 20 + j * 54, node, board.graph.nodes[node], pieces, pres))
    width = 2 * cx + (120 if extra else 0)
    return _svg(width, max(2 * cy, 40 + 54 * len(extra)), inner)


def _path(path, board, pieces, pres) -> str:
    inner = []
    for i, node in enumerate(path):
        x = 10 + i * 104
        if i:
            inner.append(f"<line x1='{x - 8}' y1='32' x2='{x}' y2='32' stroke='#555'/>")
        inner.append(_node_box(x, 10, node, board.graph.nodes[node], pieces, pres))
    return _svg(20 + 104 * len(path), 64, inner)


def _areas(nodes, attrs, pieces, pres) -> str:
    inner, cols = [], 3
    rows = []
    for i, node in enumerate(nodes):
        items = pieces.get(node, [])
        rows.append((i, node, items))
    heights = [60 + 14 * max(0, len(items) - 3) for _, _, items in rows]
    y = 10
    for r in range(0, len(rows), cols):
        row_h = max(heights[r:r + cols])
        for i, node, items in rows[r:r + cols]:
            x = 10 + (i % cols) * 170
            inner.append(f"<g class='node' data-node='{escape(node)}'><rect x='{x}' y='{y}' width='160' height='{row_h - 6}' rx='6' "
                         f"fill='#fafafa' stroke='#555'/><text x='{x + 6}' y='{y + 14}' font-weight='bold'>"
                         f"{escape(_short(pres, node))}</text>")
            for k, (text, colour) in enumerate(items):
                inner.append(f"<rect x='{x + 6}' y='{y + 20 + k * 14}' width='8' height='10' "
                             f"fill='{colour or '#999'}' stroke='#333'/>"
                             f"<text x='{x + 18}' y='{y + 29 + k * 14}'>{escape(text[:24])}</text>")
            inner.append("</g>")
        y += row_h
    return _svg(20 + 170 * cols, y + 10, inner)


def _hex_points(x, y) -> str:
    return " ".join(f"{x + HEX * math.cos(math.pi / 3 * k):.1f},{y + HEX * math.sin(math.pi / 3 * k):.1f}"
                    for k in range(6))


def _hexes(cells: dict, marks: dict, pieces, pres) -> str:
    """Flat-topped hexes tiled edge to edge: a column per q, half a hex lower per step right."""
    centres = {c: (1.5 * HEX * i["q"], ROOT3 * HEX * (i["r"] + i["q"] / 2)) for c, i in cells.items()}
    xs = [p[0] for p in centres.values()] or [0]
    ys = [p[1] for p in centres.values()] or [0]
    dx, dy = HEX + 4 - min(xs), ROOT3 * HEX / 2 + 4 - min(ys)
    inner = []
    for cell, info in cells.items():
        x, y = centres[cell][0] + dx, centres[cell][1] + dy
        fill = pres.css(info.get("colour")) or "#fff"
        inner.append(f"<g class='hex' data-cell='{escape(cell)}'><polygon points='{_hex_points(x, y)}' fill='{fill}' "
                     f"stroke='#333' stroke-width='1'><title>{escape(cell)} {escape(str(info.get('colour') or ''))}"
                     f"</title></polygon>")
        if cell in marks:
            inner.append(f"<circle cx='{x:.1f}' cy='{y:.1f}' r='{HEX * 0.55:.1f}' fill='#fff' "
                         f"fill-opacity='0.85' stroke='#000'/><text x='{x:.1f}' y='{y + 3:.1f}' "
                         f"text-anchor='middle' font-size='8'>{escape(marks[cell][:10])}</text>")
        inner.append(_token(x - 12, y - 8, pieces.get(cell, []), 3) + "</g>")
    return _svg(max(xs) + dx + HEX + 4, max(ys) + dy + ROOT3 * HEX / 2 + 4, inner)


def _layouts(state, view, pres) -> list[dict]:
    out = []
    pvars = {k: [decode(v) if v != "?" else None for v in vals] for k, vals in view["players_vars"].items()}
    for name, values in pvars.items():
        for seat, cells in enumerate(values):
            if not is_layout(cells):
                continue
            marks = {}
            for other, ovalues in pvars.items():
                value = ovalues[seat]
                if other != name and isinstance(value, dict) and value and set(value) <= set(cells):
                    marks.update({c: pres.text(t) for c, t in value.items()})
            title = f"{state.game.seat_name(seat)}: {pres.var_label(name)}"
            out.append({"title": title, "svg": _hexes(cells, marks, {}, pres)})
    return out
