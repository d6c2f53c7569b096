"""The engine primitives a spec may call: name -> (min args, max args, summary).

The language owns the signatures (so `validate` can check arity without the
interpreter); interpreter/engine/functions.py owns what each one does. Keyword
arguments are listed in KEYWORDS; LAZY ones are evaluated once per item with
the item bound to `it`.
"""

MANY = 99

SIGNATURES = {
    # numbers and lists
    "count": (1, 1, "number of cards in a zone, or of items in a list"),
    "sum": (1, 1, "sum of a list of numbers"),
    "max": (1, MANY, "largest of a list, or of the arguments (none for an empty list)"),
    "min": (1, MANY, "smallest of a list, or of the arguments (none for an empty list)"),
    "abs": (1, 1, "absolute value"),
    "all": (1, 1, "true when every item of the list is true"),
    "any": (1, 1, "true when some item of the list is true"),
    "range": (1, 2, "range(n) is 0..n-1, range(a, b) is a..b-1"),
    "sort": (1, 1, "the list sorted, by=it.key (a list for ties), descending=true"),
    "first": (1, 1, "first item of a list or zone (none when empty)"),
    "last": (1, 1, "last item of a list or zone (none when empty)"),
    "append": (2, 2, "the list with an item added at the end"),
    "remove": (2, 2, "the list without the first occurrence of an item"),
    "index_of": (2, 2, "position of an item in a list (none when absent)"),
    "reverse": (1, 1, "the list reversed"),
    "rotate": (2, 2, "the list turned so that it starts at the given item"),
    "unique": (1, 1, "the list without repeats, first occurrences kept"),
    "occurrences": (2, 2, "how many times an item occurs in a list"),
    "tally": (1, 1, "a map from each item of a list to how many times it occurs, "
                    "keys in the order first seen"),
    "keys": (1, 1, "the keys of a map, in order"),
    "get": (2, 3, "value of a key in a map, or a default"),
    "with_key": (3, 3, "the map with key set to value"),
    "text": (1, 1, "a value as text"),
    # players
    "next_player": (1, 2, "the seat after p clockwise (or n seats after)"),
    "previous_player": (1, 2, "the seat before p (to the right)"),
    "others": (1, 1, "every seat except p, clockwise from the one after p"),
    "clockwise_from": (1, 1, "every seat, clockwise from p"),
    # cards and zones
    "cards": (1, 1, "the cards of a zone, top first"),
    "top": (1, 1, "the top card of a zone (none when empty)"),
    "name": (1, 1, "a card's name"),
    "kind": (1, 1, "a card's kind"),
    "has": (2, 2, "true when the zone holds a card with that name"),
    "find": (2, 2, "the first card in the zone with that name (none when absent)"),
    "one_of_each": (1, 1, "the first card of each name in a zone (top first) or a list of cards, "
                          "in the order first seen"),
    "named": (1, 1, "every card with that name, wherever it is"),
    "where": (1, 1, "the zone a card is in"),
    "owner": (1, 1, "the seat a player zone belongs to (none for a shared zone)"),
    "shuffle": (1, 1, "shuffle a zone (a chance outcome)"),
    "draw": (2, 3, "move the top n cards (default 1) of a zone to another; returns them"),
    "move": (2, 2, "move a card, or a list of cards, onto the top (front) of a zone"),
    "move_bottom": (2, 2, "move a card, or a list of cards, to the bottom (end) of a zone"),
    "move_named": (3, 4, "move the first n cards (default 1) with that name in a zone, one by one, "
                         "onto the top of another: the last one moved on top, as n "
                         "move(find(from, name), to) leave them"),
    # chance
    "roll": (1, 1, "a random number from 1 to n (a chance outcome)"),
    "random_of": (1, 1, "a random item of a list (a chance outcome)"),
    # boards
    "nodes": (1, 1, "every node of a board"),
    "next_node": (2, 2, "the node after this one on a ring or path (first successor)"),
    "previous_node": (2, 2, "the node before this one (first predecessor)"),
    "successors": (2, 2, "nodes reachable in one step"),
    "neighbours": (2, 2, "nodes joined to this one, either direction"),
    "distance": (3, 3, "fewest steps from a to b (none when unreachable)"),
    "node_attr": (3, 4, "an attribute of a node (or a default)"),
    "colour_zone": (2, 2, "the cells of the same colour joined to this hex cell"),
    "colour_zones": (2, 2, "every same-colour zone of a colour on a hex board"),
    "connected": (2, 2, "true when the given nodes form one group joined by the board's edges"),
    "node_boundary": (2, 2, "the nodes joined to any of the given nodes and not among them, "
                            "first seen first (the given nodes in order, each one's neighbours "
                            "in board order)"),
    # messages
    "log": (1, 1, "write a line to the game log"),
    # boards joined during play
    "hex_layout": (1, 1, "join hex boards into one layout: a list of [board, dq, dr] or "
                         "[board, dq, dr, turns], each board's cells turned turns x 60 degrees "
                         "clockwise, then shifted by dq, dr; zones_cross_boards=true joins colour "
                         "zones across board edges; board queries accept the layout"),
    "flatten": (1, 1, "a list of lists joined into one list"),
}

KEYWORDS = {"sort": {"by", "descending"}, "max": {"by"}, "min": {"by"},
            "hex_layout": {"zones_cross_boards"},
            # out_of=ZONE: the cards must be there (a scenario step must say so to
            # take a card out of a player's hidden zone)
            "move": {"out_of"}, "move_bottom": {"out_of"}}
LAZY = {"by"}

# Calls that change the state; legal as statements and inside expressions.
EFFECTS = {"shuffle", "draw", "move", "move_bottom", "move_named", "roll", "random_of", "log"}
