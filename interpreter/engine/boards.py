"""Board graphs, built once per game with networkx.

A ring is a directed cycle, a path a directed chain, `edges` adds arcs,
`hex` lays out cells from axial coordinates ("q,r") joined to their six
neighbours, each with a `colour`. Queries answer in a stable order so games
stay deterministic.
"""
from __future__ import annotations

from functools import cached_property

import networkx as nx

HEX_STEPS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


class Board:
    def __init__(self, name: str, decl: dict):
        self.name = name
        self.graph = nx.DiGraph()
        self.order: dict[str, int] = {}
        # A colour zone joins neighbouring cells equal in every one of these attributes.
        self.zone_by = tuple(decl.get("zone_by") or ("colour",))
        self._build(decl)
        self._succ = {n: sorted(self.graph.successors(n), key=self.order.get) for n in self.graph}
        self._pred = {n: sorted(self.graph.predecessors(n), key=self.order.get) for n in self.graph}

    def _add(self, node, **attrs):
        node = str(node)
        self.order.setdefault(node, len(self.order))
        self.graph.add_node(node, **attrs)
        return node

    def _build(self, decl: dict):
        ring = [self._add(n) for n in decl.get("ring") or []]
        for a, b in zip(ring, ring[1:] + ring[:1]):
            self.graph.add_edge(a, b)
        path = [self._add(n) for n in decl.get("path") or []]
        for a, b in zip(path, path[1:]):
            self.graph.add_edge(a, b)
        nodes = decl.get("nodes") or []
        for node in nodes:
            attrs = nodes[node] if isinstance(nodes, dict) else {}
            self._add(node, **(attrs or {}))
        for a, b in decl.get("edges") or []:
            self.graph.add_edge(self._add(a), self._add(b))
        self._build_hex(decl.get("hex") or [])
        if decl.get("undirected"):
            for a, b in list(self.graph.edges):
                self.graph.add_edge(b, a)

    def _build_hex(self, cells):
        coords = {}
        for q, r, colour in cells:
            coords[(q, r)] = self._add(f"{q},{r}", colour=colour, q=q, r=r)
        for (q, r), node in coords.items():
            for dq, dr in HEX_STEPS:
                other = coords.get((q + dq, r + dr))
                if other is not None:
                    self.graph.add_edge(node, other)

    # queries -----------------------------------------------------------------
    def nodes(self) -> list[str]:
        return list(self.order)

    def successors(self, node) -> list[str]:
        return self._succ.get(node, [])

    def predecessors(self, node) -> list[str]:
        return self._pred.get(node, [])

    def neighbours(self, node) -> list[str]:
        both = set(self._succ.get(node, [])) | set(self._pred.get(node, []))
        return sorted(both, key=self.order.get)

    def distance(self, a, b):
        try:
            return nx.shortest_path_length(self.graph, a, b)
        except (nx.NetworkXNoPath, nx.NodeNotFound):
            return None

    def attr(self, node, key, default=None):
        return self.graph.nodes[node].get(key, default) if node in self.graph else default

    @cached_property
    def _zones(self) -> dict[str, list[str]]:
        """Each cell -> its connected same-colour component, cells in board order."""
        groups: dict[tuple, list[str]] = {}
        for node in self.order:
            if self.attr(node, "colour") is not None:
                groups.setdefault(self._zone_key(node), []).append(node)
        zone_of = {}
        for members in groups.values():
            for comp in nx.weakly_connected_components(self.graph.subgraph(members)):
                cells = sorted(comp, key=self.order.get)
                for cell in cells:
                    zone_of[cell] = cells
        return zone_of

    def _zone_key(self, node) -> tuple:
        return tuple(self.attr(node, k) for k in self.zone_by)

    def colour_zone(self, cell) -> list[str]:
        return list(self._zones.get(cell, []))

    def colour_zones(self, colour) -> list[list[str]]:
        seen, out = set(), []
        for node in self.order:
            zone = self._zones.get(node)
            if zone and self.attr(node, "colour") == colour and zone[0] not in seen:
                seen.add(zone[0])
                out.append(list(zone))
        return out

    def connected(self, cells) -> bool:
        """True when the cells form one group joined by the board's edges (either way)."""
        cells = [c for c in cells if c in self.graph]
        return not cells or nx.is_weakly_connected(self.graph.subgraph(cells))

    def to_dot(self) -> str:
        """Graphviz DOT: nodes with their attributes as labels, arcs as drawn."""
        return "\n".join([f'digraph "{dot_quote(self.name)}" {{', *self.dot_statements(), "}"]) + "\n"

    def dot_statements(self, prefix: str = "", indent: str = "  ") -> list[str]:
        """The DOT statements of this board's nodes and arcs, one per line. Each
        node's id starts with `prefix`, so several boards can share one drawing
        (two boards may name a node alike); its label is its own name."""
        q = dot_quote
        lines = []
        for node in self.order:
            attrs = self.graph.nodes[node]
            label = "\n".join([str(node)] + [f"{k}={v}" for k, v in attrs.items() if k not in ("q", "r")])
            lines.append(f'{indent}"{q(prefix)}{q(node)}" [label="{q(label)}"];')
        for a, b in self.graph.edges:
            lines.append(f'{indent}"{q(prefix)}{q(a)}" -> "{q(prefix)}{q(b)}";')
        return lines


def dot_quote(text) -> str:
    """Text for inside a DOT double-quoted string: a quote, backslash or line break in a
    name can end the string early and inject attributes (image="/etc/hostname")."""
    return (str(text).replace("\\", "\\\\").replace('"', '\\"').replace("\r", "\\r")
            .replace("\n", "\\n"))


# ------------------------------------------------------------ layouts built in play
# A layout is a plain map "q,r" -> {colour, board, q, r}: hex boards joined during
# set-up (see `hex_layout`), stored in the state like any other value. Board
# queries accept one in place of a board's name. Its graph is built once per
# layout and shared: looked up first by the object itself (values are never
# changed in place, so the same object always means the same layout), then by
# its contents, since every new game joins the same few boards again.
LAYOUT_ZONE_BY = ("colour", "board")    # a zone never crosses from one placed board to another
_LAYOUT_CACHE_SIZE = 512
_layout_boards: dict[int, tuple[dict, Board]] = {}
_boards_by_content: dict[tuple, Board] = {}


def layout_board(layout: dict) -> Board:
    cached = _layout_boards.get(id(layout))
    if cached is not None and cached[0] is layout:
        return cached[1]
    content = tuple((cell, info.get("colour"), info.get("board"), info["q"], info["r"],
                     info.get("joined"))
                    for cell, info in layout.items())
    board = _boards_by_content.get(content)
    if board is None:
        board = Board("layout", layout_decl(layout))
        if len(_boards_by_content) >= _LAYOUT_CACHE_SIZE:
            _boards_by_content.clear()
        _boards_by_content[content] = board
    if len(_layout_boards) >= _LAYOUT_CACHE_SIZE:
        _layout_boards.clear()
    _layout_boards[id(layout)] = (layout, board)   # holding the layout keeps its id unique
    return board


def layout_decl(layout: dict) -> dict:
    """The board declaration a layout stands for. Cells marked `joined` (laid with
    zones_cross_boards) form colour zones across the boards' edges."""
    joined = any(info.get("joined") for info in layout.values())
    return {"nodes": {cell: {"board": info.get("board")} for cell, info in layout.items()},
            "hex": [[info["q"], info["r"], info.get("colour")] for info in layout.values()],
            "zone_by": ("colour",) if joined else LAYOUT_ZONE_BY}


def turn_hex(q: int, r: int, turns: int) -> tuple[int, int]:
    """Axial (q, r) turned `turns` times 60 degrees clockwise about 0,0: in cube
    coordinates (x, y, z) -> (-z, -x, -y) (Red Blob Games, "Hexagonal Grids", Rotation)."""
    for _ in range(turns % 6):
        q, r = -r, q + r
    return q, r


def join_hex_boards(parts, zones_cross_boards: bool = False) -> dict:
    """parts: (board, board name, dq, dr[, turns]) each; every board's cells turned
    `turns` x 60 degrees clockwise about 0,0, shifted by (dq, dr) and gathered into
    one layout. Two cells on one hex is a ValueError."""
    layout: dict[str, dict] = {}
    for board, name, dq, dr, *turns in parts:
        for node in board.nodes():
            q, r = board.attr(node, "q"), board.attr(node, "r")
            if q is None or r is None:
                raise ValueError(f"board '{name}' has cells that are not hexes")
            q, r = turn_hex(q, r, turns[0] if turns else 0)
            cell = f"{q + dq},{r + dr}"
            if cell in layout:
                raise ValueError(f"boards '{layout[cell]['board']}' and '{name}' would both "
                                 f"cover hex {cell}")
            layout[cell] = {"colour": board.attr(node, "colour"), "board": name,
                            "q": q + dq, "r": r + dr}
            if zones_cross_boards:
                layout[cell]["joined"] = True
    return layout
