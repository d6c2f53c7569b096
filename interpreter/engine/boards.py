"""Board graphs: plain adjacency for play, networkx for analysis.

A ring is a directed cycle, a path a directed chain, `edges` adds arcs,
`hex` lays out cells from axial coordinates ("q,r") joined to their six
neighbours, each with a `colour`. Queries answer in a stable order so games
stay deterministic.

Play asks the same few questions of a board many thousand times (the cells
next to this one, its colour zone), and hex layouts are joined during set-up,
four per game in some games: so a board is held as sorted adjacency lists,
built once in plain Python, and every query of play reads those. `graph`, the
same board as a networkx DiGraph, is built on first use for what is asked
rarely (distance) and for analysis and drawing. A layout joined in play is
new in nearly every game (thousands of arrangements), so it is built in one
pass from its cells (`Board.from_layout`: no sorting, arcs as added only when
drawn), and a colour zone is walked only when asked for.
"""
from __future__ import annotations

from functools import cached_property

import networkx as nx

HEX_STEPS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
# Board.from_layout numbers cell (q, r) q * _WIDTH + r, one number per cell while
# |r| < _HALF (a neighbour's r is at most one further, so never another cell's).
_WIDTH = 1 << 32
_HALF = _WIDTH // 2
_STEP_KEYS = tuple(dq * _WIDTH + dr for dq, dr in HEX_STEPS)


class Board:
    """One board. Nodes are texts ("q,r" for hex cells); `order` gives each its place
    in the declaration, the order every query answers in."""

    # (cells, answer) of the last node_boundary the rules asked of this board
    # (functions.node_boundary): holding the cells keeps their identity unique
    last_boundary: tuple = (None, None)

    def __init__(self, name: str, decl: dict):
        self.name = name
        self.order: dict[str, int] = {}
        self.attrs: dict[str, dict] = {}        # node -> its attributes (colour, q, r, ...)
        self._out: dict[str, dict] = {}         # node -> its successors, in the order added
        # A colour zone joins neighbouring cells equal in every one of these attributes.
        self.zone_by = tuple(decl.get("zone_by") or ("colour",))
        self._build(decl)
        # hex cells alone are joined both ways: successors, predecessors and
        # neighbours are one list (a layout joined in play is such a board)
        self._symmetric = not any(decl.get(k) for k in ("ring", "path", "edges"))
        self._nodes = list(self.order)

    # Adjacency lists in board order, made when first asked (a layout joined in play
    # may be asked only for some of them).
    @cached_property
    def _succ(self) -> dict[str, list[str]]:
        rank = self.order.__getitem__
        return {n: sorted(out, key=rank) for n, out in self._out.items()}

    @cached_property
    def _pred(self) -> dict[str, list[str]]:
        if self._symmetric:
            return self._succ
        rank, into = self.order.__getitem__, {n: [] for n in self.order}
        for a, out in self._out.items():
            for b in out:
                into[b].append(a)
        return {n: sorted(nodes, key=rank) for n, nodes in into.items()}

    @cached_property
    def _nbrs(self) -> dict[str, list[str]]:
        if self._symmetric:
            return self._succ
        rank, pred = self.order.__getitem__, self._pred
        return {n: sorted(set(succ) | set(pred[n]), key=rank) for n, succ in self._succ.items()}

    @classmethod
    def from_layout(cls, layout: dict):
        """The Board of a layout ("q,r" -> {colour, board, q, r[, joined]}) in one
        pass: what Board("layout", layout_decl(layout)) builds, the same order,
        attributes, arcs and adjacency lists. None for a map of another shape
        (a key that does not name its own q and r), which the general path reads.
        Every game joins its estates anew (thousands of possible ones), so this is
        a builder for play, not only for set-up. Far fewer footprints than estates
        exist (boards of one shape, turned and shifted alike), so a footprint's
        order and adjacency lists are worked out once (_footprint) and shared:
        lists handed out are never changed in place."""
        cells = tuple(layout)
        shape = _footprints.get(cells)
        if shape is None:
            shape = _footprint(layout)
            if shape is None:
                return None
            _bounded_put(_footprints, cells, shape)
        order, places, nbrs = shape
        attrs, joined = {}, False
        for (cell, info), (q, r) in zip(layout.items(), places):
            if info.__class__ is not dict:
                return None
            iq, ir = info.get("q"), info.get("r")
            if iq != q or ir != r or iq.__class__ is not int or ir.__class__ is not int:
                return None
            attrs[cell] = {"board": info.get("board"), "colour": info.get("colour"), "q": q, "r": r}
            if not joined and info.get("joined"):
                joined = True
        board = _LayoutBoard.__new__(_LayoutBoard)
        board.name, board.order, board.attrs = "layout", order, attrs
        board.zone_by = ("colour",) if joined else LAYOUT_ZONE_BY
        board._symmetric, board._nodes, board._succ = True, list(order), nbrs
        return board

    def hex_cells(self, turns: int):
        """This board's cells as (q, r, colour), turned `turns` x 60 degrees
        clockwise about 0,0 (turn_hex), in board order; None when a node is not a
        hex cell. Worked out once per turn (a game joins boards in play)."""
        cells = self._turned.get(turns)
        if cells is None and turns not in self._turned:
            cells = self._turned[turns] = None if any(
                a.get("q") is None or a.get("r") is None for a in self.attrs.values()) else [
                (*turn_hex(a["q"], a["r"], turns), a.get("colour")) for a in self.attrs.values()]
        return cells

    @cached_property
    def _turned(self) -> dict:
        return {}

    def _add(self, node, **attrs):
        node = str(node)
        if node not in self.order:
            self.order[node] = len(self.order)
            self.attrs[node] = {}
            self._out[node] = {}
        self.attrs[node].update(attrs)
        return node

    def _edge(self, a, b):
        self._out[a][b] = None

    def _build(self, decl: dict):
        ring = [self._add(n) for n in decl.get("ring") or []]
        for a, b in zip(ring, ring[1:] + ring[:1]):
            self._edge(a, b)
        path = [self._add(n) for n in decl.get("path") or []]
        for a, b in zip(path, path[1:]):
            self._edge(a, b)
        nodes = decl.get("nodes") or []
        for node in nodes:
            attrs = nodes[node] if isinstance(nodes, dict) else {}
            self._add(node, **(attrs or {}))
        for a, b in decl.get("edges") or []:
            self._edge(self._add(a), self._add(b))
        self._build_hex(decl.get("hex") or [])
        if decl.get("undirected"):
            for a, b in self._arcs():
                self._edge(b, a)

    def _build_hex(self, cells):
        coords = {}
        for q, r, colour in cells:
            coords[(q, r)] = self._add(f"{q},{r}", colour=colour, q=q, r=r)
        for (q, r), node in coords.items():
            for dq, dr in HEX_STEPS:
                other = coords.get((q + dq, r + dr))
                if other is not None:
                    self._edge(node, other)

    def _arcs(self) -> list[tuple[str, str]]:
        """Every arc, in networkx's order: by node as added, then by successor as added."""
        return [(a, b) for a in self.order for b in self._out[a]]

    @cached_property
    def graph(self) -> nx.DiGraph:
        """The board as a networkx DiGraph (node attributes included), for analysis."""
        graph = nx.DiGraph()
        for node in self.order:
            graph.add_node(node, **self.attrs[node])
        graph.add_edges_from(self._arcs())
        return graph

    # queries -----------------------------------------------------------------
    # Lists handed out are shared between calls: rules never change a list in place.
    def nodes(self) -> list[str]:
        return self._nodes

    def successors(self, node) -> list[str]:
        return self._succ.get(node, [])

    def predecessors(self, node) -> list[str]:
        return self._pred.get(node, [])

    def neighbours(self, node) -> list[str]:
        return self._nbrs.get(node, [])

    def distance(self, a, b):
        try:
            return nx.shortest_path_length(self.graph, a, b)
        except (nx.NetworkXNoPath, nx.NodeNotFound):
            return None

    def attr(self, node, key, default=None):
        attrs = self.attrs.get(node)
        return default if attrs is None else attrs.get(key, default)

    def _component(self, start, members) -> set:
        """The cells of `members` reached from `start` through neighbours in `members`."""
        seen, todo = {start}, [start]
        while todo:
            for other in self._nbrs[todo.pop()]:
                if other in members and other not in seen:
                    seen.add(other)
                    todo.append(other)
        return seen

    @cached_property
    def _zone_of(self) -> dict[str, list[str]]:
        """Cell -> its colour zone, filled as zones are asked for (_zone): a game
        joins new layouts and asks for two zones of each, on average."""
        return {}

    @cached_property
    def _keys(self) -> dict[str, tuple]:
        return self._zone_keys()

    def _zone(self, cell):
        """The colour zone of `cell`: the connected component of the cells with a
        colour equal to it in every `zone_by` attribute, cells in board order
        (shared: callers copy it); empty for a cell without a colour or not on
        the board."""
        zone = self._zone_of.get(cell)
        if zone is not None:
            return zone
        key = self._keys
        k = key.get(cell)
        if k is None:
            return ()
        nbrs, seen, todo = self._nbrs, {cell}, [cell]
        while todo:
            for other in nbrs[todo.pop()]:
                if other not in seen and key.get(other) == k:
                    seen.add(other)
                    todo.append(other)
        zone = sorted(seen, key=self.order.__getitem__)
        for member in zone:
            self._zone_of[member] = zone
        return zone

    def _zone_keys(self) -> dict[str, tuple]:
        """Each cell with a colour -> its `zone_by` attributes, in board order."""
        by = self.zone_by
        if len(by) == 1:    # colour alone: a static board's, or a layout's joined zones
            a, = by
            return {n: (x.get(a),) for n, x in self.attrs.items() if x.get("colour") is not None}
        if len(by) == 2:    # a layout's (colour, board)
            a, b = by
            return {n: (x.get(a), x.get(b)) for n, x in self.attrs.items() if x.get("colour") is not None}
        return {n: tuple(x.get(k) for k in by) for n, x in self.attrs.items()
                if x.get("colour") is not None}

    def colour_zone(self, cell) -> list[str]:
        return list(self._zone(cell))

    def colour_zones(self, colour) -> list[list[str]]:
        seen, out = set(), []
        for node, attrs in self.attrs.items():
            if attrs.get("colour") == colour:
                zone = self._zone(node)
                if zone and zone[0] not in seen:
                    seen.add(zone[0])
                    out.append(list(zone))
        return out

    def node_boundary(self, cells, members=None) -> list[str]:
        """The nodes joined to any of `cells` (either direction, as `neighbours`)
        and not among them: networkx's `node_boundary`, in a fixed order. A node
        comes where it is first seen, taking `cells` in their order and each one's
        neighbours in board order; a cell not on the board has none.

        cells: a list of nodes (or a map's keys); members: what "among them"
        asks of (`cells` itself when it is a set or map, else a set made of it).
        Reads the adjacency lists only: the frontier of a growing set of cells is
        asked for at every turn of some games. Raises TypeError for a cell that
        cannot be a node (a list or map)."""
        nbrs = self._nbrs
        if members is None:
            members = set(cells)
        out: dict[str, None] = {}
        for cell in cells:
            for other in nbrs.get(cell, ()):
                if other not in members:
                    out[other] = None
        return list(out)

    def connected(self, cells) -> bool:
        """True when the cells form one group joined by the board's edges (either way)."""
        members = {c for c in cells if c in self.order}
        return not members or len(self._component(next(iter(members)), members)) == len(members)

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
            attrs = self.attrs[node]
            label = "\n".join([str(node)] + [f"{k}={v}" for k, v in attrs.items() if k not in ("q", "r")])
            lines.append(f'{indent}"{q(prefix)}{q(node)}" [label="{q(label)}"];')
        for a, b in self._arcs():
            lines.append(f'{indent}"{q(prefix)}{q(a)}" -> "{q(prefix)}{q(b)}";')
        return lines


class _LayoutBoard(Board):
    """A layout's Board as Board.from_layout builds it: its arcs as added (_out,
    what drawing and networkx read) are worked out when first asked, not for play."""

    @cached_property
    def _out(self) -> dict[str, dict]:
        at = {(a["q"], a["r"]): node for node, a in self.attrs.items()}
        return {node: dict.fromkeys(at[(a["q"] + dq, a["r"] + dr)] for dq, dr in HEX_STEPS
                                    if (a["q"] + dq, a["r"] + dr) in at)
                for node, a in self.attrs.items()}


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
# its contents, as a save loaded or a game replayed joins the same boards again.
# Either cache, when full, forgets its oldest entry (forgetting all at once made a
# long run of games rebuild the estates of the game in play).
LAYOUT_ZONE_BY = ("colour", "board")    # a zone never crosses from one placed board to another
_LAYOUT_CACHE_SIZE = 1024
_layout_boards: dict[int, tuple[dict, Board]] = {}
_boards_by_content: dict[tuple, Board] = {}


def layout_board(layout: dict) -> Board:
    """The Board a layout (a map "q,r" -> cell) stands for, built once and shared."""
    cached = _layout_boards.get(id(layout))
    if cached is not None and cached[0] is layout:
        return cached[1]
    content = tuple((cell, info.get("colour"), info.get("board"), info["q"], info["r"],
                     info.get("joined"))
                    for cell, info in layout.items())
    board = _boards_by_content.get(content)
    if board is None:
        board = Board.from_layout(layout) or Board("layout", layout_decl(layout))
        _bounded_put(_boards_by_content, content, board)
    _bounded_put(_layout_boards, id(layout), (layout, board))  # holding the layout keeps its id unique
    return board


def _bounded_put(cache: dict, key, value) -> None:
    if len(cache) >= _LAYOUT_CACHE_SIZE:
        del cache[next(iter(cache))]
    cache[key] = value


_footprints: dict[tuple, tuple] = {}   # a layout's cells in order -> _footprint's answer


def _footprint(layout: dict):
    """(order, [(q, r)] in order, cell -> its neighbours in board order) of a layout's
    cells, or None when a key does not name its own q and r (Board.from_layout)."""
    order, places, at = {}, [], {}
    for i, (cell, info) in enumerate(layout.items()):
        if cell.__class__ is not str or info.__class__ is not dict:
            return None
        q, r = info.get("q"), info.get("r")
        if q.__class__ is not int or r.__class__ is not int or not -_HALF < r < _HALF \
                or cell != f"{q},{r}":
            return None
        order[cell] = i
        places.append((q, r))
        at[q * _WIDTH + r] = cell       # a number for (q, r): cheaper to make and find
    # each cell's neighbours in board order, as sorting gives: cells taken in order
    nbrs = {cell: [] for cell in order}
    for key, a in at.items():
        for step in _STEP_KEYS:
            b = at.get(key + step)
            if b is not None:
                nbrs[b].append(a)
    return order, places, nbrs


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


_placed: dict[tuple, list] = {}    # (board, turns, dq, dr) -> _placed_cells' answer


def _placed_cells(board: Board, turns: int, dq: int, dr: int):
    """[(cell name, q, r, colour)] of a hex board turned and shifted, in board
    order, or None for a board not of hex cells alone. A game joins a few boards
    in a few places again and again, so each placing is worked out once."""
    key = (board, turns, dq, dr)
    cells = _placed.get(key)
    if cells is None:
        hexes = board.hex_cells(turns)
        if hexes is None:
            return None
        cells = [(f"{q + dq},{r + dr}", q + dq, r + dr, colour) for q, r, colour in hexes]
        _bounded_put(_placed, key, cells)
    return cells


_parts: dict[tuple, tuple] = {}   # (board, name, turns, dq, dr, joined) -> _placed_part's answer


def _placed_part(board: Board, name, turns: int, dq: int, dr: int, joined: bool):
    """({cell name: its layout entry}, {cell name: its Board attributes}) of a hex
    board placed so, in board order, or None for a board not of hex cells alone.
    The entries are the same maps for every layout that places the board so: a
    layout is a value, never changed in place, so a join makes no map per cell."""
    key = (board, name, turns, dq, dr, joined)
    part = _parts.get(key)
    if part is None:
        cells = _placed_cells(board, turns, dq, dr)
        if cells is None:
            return None
        part = ({cell: {"colour": colour, "board": name, "q": q, "r": r, "joined": True} if joined
                 else {"colour": colour, "board": name, "q": q, "r": r} for cell, q, r, colour in cells},
                {cell: {"board": name, "colour": colour, "q": q, "r": r} for cell, q, r, colour in cells})
        _bounded_put(_parts, key, part)
    return part


def join_hex_boards(parts, zones_cross_boards: bool = False) -> dict:
    """parts: (board, board name, dq, dr[, turns]) each; every board's cells turned
    `turns` x 60 degrees clockwise about 0,0, shifted by (dq, dr) and gathered into
    one layout. Two cells on one hex is a ValueError."""
    layout: dict[str, dict] = {}
    attrs: dict[str, dict] | None = {}      # its Board's attributes, while every board is hexes
    for board, name, dq, dr, *turns in parts:
        placed = _placed_part(board, name, turns[0] % 6 if turns else 0, dq, dr,
                              bool(zones_cross_boards))
        if placed is not None:   # the usual case: a board of hex cells alone
            cells, cell_attrs = placed
            if not layout.keys().isdisjoint(cells):
                cell = next(c for c in cells if c in layout)     # the first, in board order
                raise ValueError(f"boards '{layout[cell]['board']}' and '{name}' would both "
                                 f"cover hex {cell}")
            layout.update(cells)
            if attrs is not None:
                attrs.update(cell_attrs)
            continue
        attrs = None
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
    if attrs is not None:
        _board_ready(layout, attrs, bool(zones_cross_boards and layout))
    return layout


def _board_ready(layout: dict, attrs: dict, joined: bool) -> None:
    """Make the Board of a layout just joined, as Board.from_layout would, and note it
    for layout_board: a joined layout is asked about as a board in play, and its
    attributes are at hand here (no second walk of its cells, no content key)."""
    cells = tuple(layout)
    shape = _footprints.get(cells)
    if shape is None:
        shape = _footprint(layout)
        if shape is None:       # not one number per cell: layout_board's general path
            return
        _bounded_put(_footprints, cells, shape)
    board = _LayoutBoard.__new__(_LayoutBoard)
    board.name, board.order, board.attrs = "layout", shape[0], attrs
    board.zone_by = ("colour",) if joined else LAYOUT_ZONE_BY
    board._symmetric, board._nodes, board._succ = True, list(shape[0]), shape[2]
    _bounded_put(_layout_boards, id(layout), (layout, board))
