"""Pictures of boards: Graphviz DOT for static boards and hex layouts joined in play.

A static board draws itself (`Board.to_dot`); `boards_dot` draws several in one
picture, a cluster each. A layout (see `hex_layout`) lives in
the state, so drawing one needs a state: `board_dot` takes a State, or a Game and
plays its set-up up to the first decision, then draws one seat's layout with each
hex at its place (`dot -Kneato -n2 -Tpng`: the positions are kept, so the hexes tile), filled with its colour and
labelled with what covers it.
"""
from __future__ import annotations

import math

from ..engine.values import display

# Colour words a spec may use, as Graphviz (X11) colours; others draw white.
GRAPHVIZ_COLOURS = {
    "black", "white", "red", "blue", "green", "yellow", "orange", "purple", "brown", "pink",
    "grey", "gray", "beige", "gold", "tan", "cyan", "magenta", "violet", "darkgreen",
    "lightgreen", "lightblue", "darkblue", "darkred", "lightgrey", "lightgray", "darkgrey",
    "darkgray", "olive", "navy", "maroon", "khaki", "ivory", "salmon", "turquoise",
}
HEX_SIZE = 0.6      # inches from a hex's centre to a corner


def board_dot(source, seat: int = 0, *, players: int | None = None, seed: int = 0,
              layout: str | None = None) -> str:
    """DOT for the hex layout of `seat`.

    source: a State, or a Game (a new game with `players` — default the fewest the
    game allows — and `seed`, played with the first legal option at every decision
    until the seat holds a layout: set-up may ask players to arrange their boards).
    layout: the per-player variable holding the layout; by default the first one
    that holds a layout for this seat. Cells named as keys of another per-player
    map of the seat (e.g. which tile covers which hex) are labelled with its values.
    Raises ValueError when there is no such layout.
    """
    state = _state(source, players, seed, seat)
    if not 0 <= seat < state.n:
        raise ValueError(f"there is no seat {seat} in a {state.n}-player game")
    name = layout or _layout_variable(state, seat)
    if name is None or name not in state.pv or not is_layout(state.pv[name][seat]):
        raise ValueError(f"no per-player variable holds a hex layout for "
                         f"{state.game.seat_name(seat)}")
    cells = state.pv[name][seat]
    marks = _marks(state, seat, cells, skip=name)
    title = f"{state.game.name}: {state.game.seat_name(seat)}'s {name}"
    return layout_dot(cells, marks, title)


def boards_dot(title: str, boards: list) -> str:
    """One DOT drawing of several static boards (engine/boards.py Board), each a
    cluster labelled with the board's name, so one `dot -Tpng` draws them all
    (a file of several graphs would render only the first). One board is drawn
    as itself (Board.to_dot). Node ids are `BOARD:NODE`; labels keep NODE."""
    from ..engine.boards import dot_quote
    if len(boards) == 1:
        return boards[0].to_dot()
    lines = [f'digraph "{dot_quote(title)}" {{', f'  graph [label="{dot_quote(title)}", labelloc=t];']
    for i, board in enumerate(boards):
        lines += [f'  subgraph "cluster_{i}" {{', f'    graph [label="{dot_quote(board.name)}"];',
                  *board.dot_statements(f"{board.name}:", indent="    "), "  }"]
    return "\n".join(lines + ["}"]) + "\n"


def layout_dot(cells: dict, marks: dict | None = None, title: str = "layout") -> str:
    """DOT for one layout: cells "q,r" -> {colour, board, q, r}; marks: cell -> text."""
    from ..engine.boards import layout_board
    marks = marks or {}
    lines = [f'graph "{_quote(title)}" {{',
             f'  graph [label="{_quote(title)}", labelloc=t];',
             '  node [shape=hexagon, style=filled, fixedsize=true, '
             f'width={2 * HEX_SIZE:.2f}, height={math.sqrt(3) * HEX_SIZE:.2f}, fontsize=9];']
    for cell, info in cells.items():
        x, y = _centre(info["q"], info["r"])
        label = [cell, str(info.get("board") or "")]
        if cell in marks:
            label.append(marks[cell])
        colour = str(info.get("colour") or "")
        lines.append(f'  "{_quote(cell)}" [label="{_quote(chr(10).join(label))}", '
                     f'fillcolor="{_fill(colour)}", pos="{x:.2f},{y:.2f}!", '
                     f'tooltip="{_quote(colour)}"];')
    board = layout_board(cells)
    for a in board.nodes():
        for b in board.neighbours(a):
            if board.order[a] < board.order[b]:
                same = _zone_of(board, a) == _zone_of(board, b)
                lines.append(f'  "{_quote(a)}" -- "{_quote(b)}"' + (' [penwidth=3];' if same else ' [style=dotted];'))
    lines.append("}")
    return "\n".join(lines) + "\n"


def is_layout(value) -> bool:
    return (isinstance(value, dict) and bool(value)
            and all(isinstance(v, dict) and "q" in v and "r" in v for v in value.values()))


# ------------------------------------------------------------------------ helpers
SET_UP_DECISIONS = 1000    # how far a new game is played looking for the seat's layout


def _state(source, players, seed, seat=None):
    if hasattr(source, "pv"):
        return source
    state = source.new_state(players or source.min_players, seed)
    for _ in range(SET_UP_DECISIONS):
        if state.is_terminal() or (seat is not None and 0 <= seat < state.n
                                   and _layout_variable(state, seat) is not None):
            break
        state.apply(state.legal_actions()[0])
    return state


def _layout_variable(state, seat):
    for name, values in state.pv.items():
        if is_layout(values[seat]):
            return name
    return None


def _marks(state, seat, cells, skip):
    """Labels from every other per-player map of this seat keyed by the layout's cells."""
    marks: dict[str, str] = {}
    for name, values in state.pv.items():
        value = values[seat]
        if name == skip or not isinstance(value, dict) or not value or not set(value) <= set(cells):
            continue
        for cell, what in value.items():
            text = state.game.cards[what]["name"] if what in state.game.cards else display(what)
            marks[cell] = f"{marks[cell]}, {text}" if cell in marks else text
    return marks


def _zone_of(board, cell):
    return board.colour_zone(cell)[:1]


def _centre(q, r):
    """Flat-topped hexes tiled edge to edge: a column per q, half a hex lower for
    each step right. In points (1/72 inch), as `neato -n` reads `pos`: neighbours'
    centres are exactly one hex height (sqrt(3) * HEX_SIZE inches) apart."""
    x = 72 * 1.5 * HEX_SIZE * q
    y = -72 * math.sqrt(3) * HEX_SIZE * (r + q / 2)
    return x, y


def _fill(colour: str) -> str:
    name = colour.replace("_", "").replace(" ", "").lower()
    return name if name in GRAPHVIZ_COLOURS else "white"


def _quote(text: str) -> str:
    return str(text).replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


__all__ = ["board_dot", "boards_dot", "layout_dot", "is_layout"]
