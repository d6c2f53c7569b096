"""Secret rounds write only what the other seats cannot see.

`secretly for p in players: ...` is a round of simultaneous secret choices: the
seats decide one after another, and none may learn another's choice before
the round is over. The engine keeps no second, time-dependent visibility for
public state, so a secret round that wrote public state would show the first
seat's choice to the seats deciding after it. `validate` refuses such a round
instead, at the line that writes: the author keeps the choice in an
`owner` (or `hidden`) variable or zone and reveals it after the round, where a
reader of the spec sees the reveal as a rule line of its own.

Why refuse rather than hide: hiding public values for part of a round would
need every channel (views, traces, logs, search agents' guesses, saves) to
carry a rule of its own for "public, but not yet"; an owner-only variable says
the same thing with the visibility rule every channel already follows.

What is followed: assignments (`p.pick = ...`, `total += ...`), zone builtins
(`move`, `move_bottom`, `move_named`, `draw`, `shuffle`) wherever they are
written, as a statement or inside any expression (`if count(draw(deck, p.hand,
n)) > 0:` moves cards as `draw(deck, p.hand, n)` does), and what the round
starts: procedures and spec functions it calls, phases, actions of turns and
triggers of signals it runs. A zone builtin writes the zones it moves cards to
and from: those it names, and those the locals and parameters it reads hold
(`z = table` then `draw(deck, z)`; `put(table)` where `put` draws to its
parameter); a zone the check cannot name (`where(c)`, `piles[i]`) counts as
public. A card of unknown origin (a trigger's parameter) is not followed to
its zone; the number of cards in owner or hidden zones is public, so moving
cards between such zones shows how many moved.

So a move in a round must not let the counts tell the choice either: one whose
zone or number of cards depends on a value chosen in the round, or that runs
only under a condition on one (`if kind(c) == goal: move_bottom(c, goal_deck)
else: move_bottom(c, action_deck)`; in an expression, an `... if ... else ...`'s
condition and the items before it in an `and` or `or` are conditions too),
showed the later seats which kind of card an earlier seat discarded. Values
chosen are the round's `choose` and auction results and what is computed from
them (locals, loop and comprehension variables, procedure, spec function and
trigger parameters they are passed to, owner or hidden variables they are
kept in and read back, results of procedures and functions that read those),
and what is assigned under a condition on one; a `menu` option's body, and the
actions of a `turn`, run only as chosen. The number of cards a move takes is
chosen when the list it moves has a length a choice decides (`choose up to k`,
a filter or a condition on a choice, what is computed from them; `choose 2 of`
and `choose excess of` with `excess` not chosen have a fixed length), and so is
the number of times a loop runs (`for i in range(n):`, a loop over such a list,
a `while` on a choice). What runs after a `return` under a condition on a choice
(in a procedure, phase, action or trigger the round runs) runs only as chosen,
and in a loop so does every pass. (A `return` of the rule holding the round, and
`end game`, end the round: no seat decides after them in it.) A card's back
shows its kind (each zone's count of each kind is public, visibility.view), so
in a game of more than one kind of card a move may not take a chosen card
either; in a game of one kind it may (its face is not shown), as long as how
many it takes is not chosen.
"""
from __future__ import annotations

from . import ast
from .scope import assigned_names, declared_visibility

# the arguments of each zone builtin that are zones it moves cards to or from, and
# move's and move_bottom's cards, taken out of whatever zone holds them
_ZONES = {"move": (1,), "move_bottom": (1,), "move_named": (0, 2), "draw": (0, 1), "shuffle": (0,)}
_CARDS = {"move": 0, "move_bottom": 0}
UNKNOWN = "?"       # a zone the check cannot name: it may be public
# the arguments of each zone builtin that decide a zone or how many cards move;
# move's and move_bottom's first is the cards (see _Choices.move)
_DECIDING = {"move": (1,), "move_bottom": (1,), "shuffle": (0,), "draw": (0, 1, 2),
             "move_named": (0, 1, 2, 3)}
_CHOICES = (ast.ChooseOne, ast.ChooseNumber, ast.ChooseSeveral, ast.Auction)
# builtins that give a list as long as their first argument (or one longer)
_SAME_LENGTH = {"sort", "reverse", "rotate", "append"}
# statements with parts that run only under a condition, more than once, or in
# another rule, and expressions with parts that run only under a condition:
# _Choices checks each by a method of its grammar rule's name
_COMPOUND = {"if_stmt", "while_stmt", "for_stmt", "menu", "secretly", "turn", "run_phase", "signal"}
_BRANCHING = {"if_exp", "and_", "or_", "comprehension"}


def check_secret_rounds(spec, rules, names, error_at) -> list:
    """Errors (from `error_at(rule, message, line, col)`) for public writes in secret rounds."""
    by_path = {r.path: r for r in rules}
    data = spec.data
    errors: list = []
    for rule in rules:
        if rule.kind != "statements":
            continue
        for node in ast.walk(rule.tree):
            if isinstance(node, ast.Secretly):
                where = spec.text_position(rule.path, node.line, node.col)[0]
                _Round(spec, data, names, by_path, where, error_at, errors).run(rule, node)
    return errors


class _Round:
    """One secret round: what its choices decide, wherever it runs, and each public
    write or move a choice decides in it, reported once."""

    def __init__(self, spec, data, names, by_path, line, error_at, errors):
        self.spec, self.data, self.names, self.by_path = spec, data, names, by_path
        self.line, self.error_at, self.errors = line, error_at, errors
        self.seen: set = set()
        self.said: set = set()      # (rule path, line, col) refused: once each
        self.chosen: set = set()    # variables a choice decides: ("globals" | "attr", name)
        self.lengths: set = set()   # variables holding a list whose length a choice decides
        self.reporting = False
        self.scopes: dict = {}
        self.giving = (None, set())

    def run(self, rule, node):
        """Learn what the choices decide, to a fixed point over every rule the round runs
        (a procedure may keep a choice in a variable the round reads back), then check."""
        while True:
            learnt = len(self.chosen), len(self.lengths)
            self.seen.clear()
            self.visit(rule, node, top=True)
            if learnt == (len(self.chosen), len(self.lengths)):
                break
        self.reporting = True
        self.seen.clear()
        self.visit(rule, node, top=True)

    def visit(self, rule, tree, facts=frozenset(), dependent=False, top=False):
        scope = self.scope(rule)
        if self.reporting:
            for node in ast.walk(tree):
                target = getattr(node, "target", None)   # assignments, choices, auctions
                if isinstance(target, ast.Node):
                    self._target(rule, target, scope)
        _Choices(self, rule, scope, facts, top).check(_statements(tree), dependent)

    def follow(self, path, facts=frozenset(), dependent=False):
        """Visit a rule the round runs, given what its parameters get and whether it runs
        only as chosen."""
        rule = self.by_path.get(path)
        if rule is None or rule.tree is None:       # none such, or it did not parse
            return
        if (path, facts, dependent) not in self.seen:
            self.seen.add((path, facts, dependent))
            self.visit(rule, rule.tree, facts, dependent)

    def scope(self, rule) -> set:
        if rule.path not in self.scopes:
            self.scopes[rule.path] = set(rule.scope) | assigned_names(rule.tree, self.names)
        return self.scopes[rule.path]

    def gives_chosen(self, call) -> bool:
        """Whether a procedure or spec function called may give back a variable a choice decided."""
        called = _called(self.names, call)
        return called is not None and called[0] in self._giving()

    def _giving(self) -> set:
        """The procedures and spec functions that read a variable a choice decided, or
        call one that does (to a fixed point), for the variables learnt so far."""
        if self.giving[0] == len(self.chosen) or not self.chosen:
            return self.giving[1]
        calls, found = {}, set()
        for path, rule in self.by_path.items():
            if path[0] in ("procedures", "functions") and rule.tree is not None:
                nodes, scope = list(ast.walk(rule.tree)), self.scope(rule)
                called = (_called(self.names, n) for n in nodes if isinstance(n, ast.Call))
                calls[path] = {c[0] for c in called if c is not None}
                if any(_key(n, scope) in self.chosen for n in nodes):
                    found.add(path)
        while True:
            more = {path for path, callees in calls.items() if callees & found} - found
            if not more:
                break
            found |= more
        self.giving = (len(self.chosen), found)
        return found

    def _target(self, rule, target, scope):
        while isinstance(target, ast.Index):
            target = target.obj
        n = self.names
        if isinstance(target, ast.Name) and n.resolve(target.id, scope)[0] == "global":
            if declared_visibility(n.globals, target.id, "public") == "public":
                self.refuse(rule, target, f"global {target.id} is public")
        elif isinstance(target, ast.Attr):
            for section, kind in ((n.per_player, "per-player"), (n.per_card, "per-card")):
                if target.name in section and declared_visibility(section, target.name, "public") == "public":
                    self.refuse(rule, target, f"{kind} value {target.name} is public")

    def refuse(self, rule, node, what):
        self._say(rule, node, f"{what}, and the secret round at line {self.line} writes it: the "
                              f"seats deciding later in the round would see it. Keep it in an "
                              f"owner-only (or hidden) variable or zone and reveal it after the round")

    def refuse_move(self, rule, call, why):
        self._say(rule, call, f"{call.func}() {why} in the secret round at line {self.line}: each "
                              f"zone's number of cards of each kind is public, so the seats deciding "
                              f"later in the round would learn the choice from it. Keep the choice "
                              f"in a local of the rule (or an owner-only variable) and make the move "
                              f"after the round")

    def _say(self, rule, node, message):
        """One error at `node`, however many ways the round reaches its rule (and none
        while the round is still learning what its choices decide)."""
        if self.reporting and (rule.path, node.line, node.col) not in self.said:
            self.said.add((rule.path, node.line, node.col))
            self.errors.append(self.error_at(rule, message, node.line, node.col))


def _called(names, call):
    """(rule path, parameters) of what a call runs (a procedure's `do`, a spec
    function's `expr`; either may move cards), or None."""
    if call.func in names.procedures:
        return ("procedures", call.func, "do"), names.procedures[call.func]
    if call.func in names.functions:
        return ("functions", call.func, "expr"), names.functions[call.func]
    return None


def _statements(tree) -> list:
    """A rule's statements; a secret round is one (a loop over its seats)."""
    return tree.body if isinstance(tree, ast.Block) else [tree]


def _key(node, scope):
    """What a name or an attribute reads: a local's name, a variable's
    ("globals" | "attr", name), or None."""
    if isinstance(node, ast.Name):
        return node.id if node.id in scope else ("globals", node.id)
    if isinstance(node, ast.Attr):
        return "attr", node.name
    return None


def _zone(names, node, scope):
    """("zones" | "player_zones", name) of the zone a node names, or None."""
    if isinstance(node, ast.Name) and names.resolve(node.id, scope)[0] == "zone":
        return "zones", node.id
    if isinstance(node, ast.Attr) and node.name in names.player_zones:
        return "player_zones", node.name
    return None


class _Choices:
    """Which values of one rule in a secret round a choice made in it decides (their
    value, or a list's length), and the zone moves that depend on one (their zone,
    their count, or whether they run)."""

    def __init__(self, round_, rule, scope, facts, top):
        self.round, self.rule, self.scope, self.top = round_, rule, scope, top
        self.chosen = {name for name, fact in facts if fact == "chosen"}
        self.lengths = {name for name, fact in facts if fact == "counted"}
        self.exiting: set = set()   # loops a choice may leave early: each pass runs as chosen
        self.zones = _Zones(round_.names, rule, scope, facts)
        self.quiet = True           # learning: no moves checked, no rule followed

    def check(self, body, dependent):
        """Learn what the choices decide, to a fixed point (a line may read a local a later
        line sets, a loop's pass what the one before set), then check each move."""
        while True:
            learnt = self._learnt()
            self.block(body, dependent)
            if self._learnt() == learnt:
                break
        self.quiet = False
        self.block(body, dependent)

    def _learnt(self):
        return (len(self.chosen), len(self.lengths), len(self.exiting),
                len(self.round.chosen), len(self.round.lengths))

    # ------------------------------------------------------ what a choice decides
    def reads(self, node) -> bool:
        """Whether an expression reads a value a choice in the round decides: a local,
        parameter or variable it set, or what a procedure or function gives back from one."""
        return node is not None and any(
            self._holds(n, self.chosen, self.round.chosen)
            or isinstance(n, ast.Call) and self.round.gives_chosen(n) for n in ast.walk(node))

    def counted(self, node) -> bool:
        """Whether a choice in the round decides how long a list is (so how many cards a
        move of it takes, or how many times a loop over it runs): one a filter or a
        condition on a choice gives, `range` to a chosen number, `choose up to`, and
        what is computed from them. A fixed-size choice (`choose 2 of`) is not."""
        if node is None:
            return False
        if isinstance(node, ast.Name):
            return self._holds(node, self.lengths, self.round.lengths)
        if isinstance(node, ast.Attr):      # a variable, or a chosen seat's zone or value
            return self._holds(node, self.lengths, self.round.lengths) or self.reads(node.obj)
        if isinstance(node, ast.Comprehension):
            return self.reads(node.cond) or self.counted(node.iter)
        if isinstance(node, ast.IfExp):
            return self.reads(node.cond) or self.counted(node.then) or self.counted(node.orelse)
        if isinstance(node, ast.Index):
            return self.reads(node.key) or self.counted(node.obj)
        if isinstance(node, ast.Call) and node.func in _SAME_LENGTH and node.args:
            return self.counted(node.args[0])
        if isinstance(node, ast.Call):
            args = [*node.args, *node.kwargs.values()]
            return self.round.gives_chosen(node) or any(self.reads(a) or self.counted(a) for a in args)
        return any(self.counted(child) for child in ast.children(node))

    def _holds(self, node, local, stored) -> bool:
        key = _key(node, self.scope)
        return key is not None and key in (local if isinstance(key, str) else stored)

    def learn(self, node, dependent) -> None:
        """Note what an assignment or a choice sets, when a choice decides its value or its
        length (one it runs under decides both): a local, or a variable for the round."""
        target, by_key = node.target, False
        while isinstance(target, ast.Index):    # `m[k] = v`: a chosen k adds a chosen key
            by_key, target = by_key or self.reads(target.key), target.obj
        value = getattr(node, "value", None)
        chosen = dependent or by_key or isinstance(node, _CHOICES) or self.reads(value)
        counted = dependent or by_key or self.counted(value) or isinstance(node, ast.ChooseSeveral) \
            and (node.up_to or self.reads(node.count) or self.counted(node.options))
        key = _key(target, self.scope)
        local = isinstance(key, str)
        if key is not None and chosen:
            (self.chosen if local else self.round.chosen).add(key)
        if key is not None and counted:
            (self.lengths if local else self.round.lengths).add(key)

    def bind(self, var, items, dependent) -> None:
        """A loop's or comprehension's variable: chosen when its items are."""
        if dependent or self.reads(items):
            self.chosen.add(var)

    # ------------------------------------------------------------- statements
    def block(self, body, dependent) -> bool:
        """Check a block's statements. True when it may leave its rule early as chosen
        (a `return` under a condition on a choice): what runs after it runs as chosen."""
        leaves = False
        for statement in body:
            leaves = self.statement(statement, dependent or leaves) or leaves
        return leaves

    def statement(self, node, dependent) -> bool:
        """Check the moves of one statement: a compound one by its grammar rule's method
        below, any other (or a spec function's expression) by its expressions. A `return`
        of the round's own rule, and `end game`, end the round: nobody decides after."""
        if node.rule in _COMPOUND:
            return getattr(self, node.rule)(node, dependent)
        if isinstance(getattr(node, "target", None), ast.Node):
            self.learn(node, dependent)
        self.expression(node, dependent)
        return isinstance(node, ast.Return) and dependent and not self.top

    def if_stmt(self, node, dependent):
        self.expression(node.cond, dependent)
        inner = dependent or self.reads(node.cond)
        leaves = self.block(node.body, inner)
        return self.block(node.orelse, inner) or leaves

    def while_stmt(self, node, dependent):
        inner = dependent or self.reads(node.cond) or node in self.exiting
        self.expression(node.cond, inner)     # the condition runs again each pass
        return self.loop(node, inner)

    def for_stmt(self, node, dependent):
        self.expression(node.iter, dependent)
        self.expression(node.where, dependent)
        self.bind(node.var, node.iter, dependent)
        return self.loop(node, dependent or node in self.exiting or self.reads(node.where)
                         or self.counted(node.iter))

    def secretly(self, node, dependent):
        self.expression(node.iter, dependent)
        self.bind(node.var, node.iter, dependent)
        return self.loop(node, dependent or node in self.exiting or self.counted(node.iter))

    def loop(self, node, inner) -> bool:
        """A loop's body, run as often as the loop says (chosen: `inner`). One that may
        leave as chosen makes every pass run as chosen (the passes after it might not run)."""
        leaves = self.block(node.body, inner)
        if leaves:
            self.exiting.add(node)
        return leaves

    def menu(self, node, dependent):
        self.expression(node.by, dependent)
        leaves = False
        for option in node.options:
            self.expression(option.cond, dependent)
            leaves = self.block(option.body, True) or leaves   # runs only as chosen
        return leaves

    def turn(self, node, dependent):
        self.expression(node.player, dependent)
        for name in node.actions if not self.quiet else ():     # each runs only as chosen
            self.round.follow(("actions", name, "do"), frozenset(), True)
        return self.block(node.orelse, dependent)

    def run_phase(self, node, dependent):
        if not self.quiet:
            self.round.follow(("phases", node.name, "do"), frozenset(), dependent)
        return False

    def signal(self, node, dependent):
        """Run the triggers listening, their parameters given what the signal passes; a
        trigger whose `when:` reads a choice runs only as chosen."""
        for arg in [*node.args, *node.kwargs.values()]:
            self.expression(arg, dependent)
        if self.quiet:
            return False
        facts = self.facts(self.round.names.signals.get(node.name) or [], node.args, node.kwargs)
        for name, trigger in (self.round.data.get("triggers") or {}).items():
            if isinstance(trigger, dict) and trigger.get("on") == node.name:
                when = self.round.by_path.get(("triggers", name, "when"))
                decided = when is not None and when.tree is not None and \
                    _Choices(self.round, when, self.round.scope(when), facts, False).reads(when.tree)
                self.round.follow(("triggers", name, "do"), facts, dependent or decided)
        return False

    # ------------------------------------------------------------ expressions
    def expression(self, node, dependent):
        """Check the moves of an expression, or of a simple statement's expressions: a
        builtin with an effect may sit anywhere in one (`if count(draw(deck, p.hand)) > 0:`),
        and runs only under an `... if ... else ...`'s condition, the items before it in an
        `and` or `or`, a comprehension's filter (methods by grammar rule, below)."""
        if node is None:        # an optional part left out (a `for` without `where`)
            return
        if node.rule in _BRANCHING:
            getattr(self, node.rule)(node, dependent)
            return
        if isinstance(node, ast.Call):
            self.call(node, dependent)
        for child in ast.children(node):
            self.expression(child, dependent)

    def if_exp(self, node, dependent):
        self.expression(node.cond, dependent)
        self.expression(node.then, dependent or self.reads(node.cond))
        self.expression(node.orelse, dependent or self.reads(node.cond))

    def and_(self, node, dependent):
        for i, item in enumerate(node.items):
            self.expression(item, dependent or any(map(self.reads, node.items[:i])))

    or_ = and_

    def comprehension(self, node, dependent):
        self.expression(node.iter, dependent)
        self.bind(node.var, node.iter, dependent)
        each = dependent or self.counted(node.iter)     # the filter and the item, once per item
        self.expression(node.cond, each)
        self.expression(node.elt, each or self.reads(node.cond))

    def call(self, call, dependent):
        """Check a zone builtin's move; follow a procedure or spec function, its parameters
        given what the call passes."""
        called = _called(self.round.names, call)
        if call.func in _DECIDING:
            self.move(call, dependent)
        elif called is not None and not self.quiet:
            path, params = called
            self.round.follow(path, self.facts(params, call.args, call.kwargs), dependent)

    def facts(self, params, args, kwargs) -> frozenset:
        """What a call gives each parameter: whether a choice decides its value or its
        length, and the zones it may be, may hold as items, and takes cards from."""
        pairs = [*zip(params, args), *((k, v) for k, v in kwargs.items() if k in params)]
        facts = set()
        for param, arg in pairs:
            facts |= {(param, fact) for fact, on in (("chosen", self.reads(arg)),
                                                     ("counted", self.counted(arg))) if on}
            facts |= {(param, (what, zone)) for what in _Zones.FACTS
                      for zone in getattr(self.zones, what)(arg)}
        return frozenset(facts)

    def move(self, call, dependent):
        """Refuse a zone builtin's call that writes a public zone, or that what was chosen
        decides."""
        if self.quiet:
            return
        self.writes(call)
        deciding = [call.args[i] for i in _DECIDING[call.func] if i < len(call.args)]
        cards = call.args[0] if call.func in _CARDS and call.args else None
        if dependent:
            self.round.refuse_move(self.rule, call, "runs only under a condition on what was chosen")
        elif any(self.reads(arg) for arg in deciding):
            self.round.refuse_move(self.rule, call, "moves to a zone, or a number of cards, "
                                                    "decided by what was chosen")
        elif self.counted(cards):
            self.round.refuse_move(self.rule, call, "moves a number of cards decided by "
                                                    "what was chosen")
        elif self.reads(cards) and len(self.round.data.get("cards") or {}) > 1:
            # a card's back shows its kind (visibility.view gives each zone's count
            # of each kind): with two kinds of card, moving the chosen one shows which
            self.round.refuse_move(self.rule, call, "moves a card that was chosen, whose "
                                                    "kind its back shows,")

    def writes(self, call):
        """Refuse a zone builtin's call that moves cards to or from a public zone: one it
        names, one a local or parameter holds, or one the check cannot name."""
        for i, arg in enumerate(call.args):
            if i in _ZONES[call.func]:
                zones = self.zones.of(arg) or {UNKNOWN}
            elif i == _CARDS.get(call.func):
                zones = self.zones.named(arg)
            else:
                continue
            for zone in sorted(zones, key=str):
                if zone == UNKNOWN:
                    self.round.refuse(self.rule, arg, f"zone {ast.source_text(arg)} may be public "
                                                      f"(the check cannot tell which zone it is)")
                elif declared_visibility(getattr(self.round.names, zone[0]), zone[1]) == "public":
                    self.round.refuse(self.rule, arg, f"zone {zone[1]} is public")


class _Zones:
    """The zones of one rule's zone-valued expressions, followed through its locals and
    parameters: which zone one may be (`of`), which zones a list of them may hold
    (`items`), and which zones an expression of cards takes them from (`named`)."""

    FACTS = ("of", "items", "named")

    def __init__(self, names, rule, scope, facts):
        self.names, self.scope = names, scope
        self.sources = _sources(rule.tree, scope)
        self.known = {what: {} for what in self.FACTS}   # what -> {local or parameter: zones}
        for name, fact in facts:
            if isinstance(fact, tuple):
                self.known[fact[0]].setdefault(name, set()).add(fact[1])
        self._settle()

    def _settle(self):
        """Each local's zones from the values it is given, to a fixed point."""
        for what in self.FACTS:
            for name in self.sources:
                self.known[what].setdefault(name, set())
        while True:
            before = sum(len(zones) for known in self.known.values() for zones in known.values())
            for name, values in self.sources.items():
                for item, value in values:
                    self.known["of"][name] |= self.items(value) if item else self.of(value)
                    self.known["items"][name] |= {UNKNOWN} if item else self.items(value)
                    self.known["named"][name] |= self.named(value)
            if before == sum(len(zones) for known in self.known.values() for zones in known.values()):
                return

    def of(self, node) -> set:
        """The zones a zone-valued expression may be (UNKNOWN: one the check cannot name)."""
        if isinstance(node, ast.IfExp):
            return self.of(node.then) | self.of(node.orelse)
        zone = _zone(self.names, node, self.scope)
        return {zone} if zone is not None else self._local(node, "of")

    def items(self, node) -> set:
        """The zones a list of zones may hold."""
        if isinstance(node, ast.ListLit):
            return set().union(*map(self.of, node.items))
        if isinstance(node, ast.IfExp):
            return self.items(node.then) | self.items(node.orelse)
        if isinstance(node, ast.Comprehension):
            return self.of(node.elt)
        return self._local(node, "items")

    def named(self, node) -> set:
        """The zones an expression may take cards from: those it names, and those its
        locals and parameters are given."""
        zones = set()
        for n in ast.walk(node):
            zone = _zone(self.names, n, self.scope)
            if zone is not None:
                zones.add(zone)
            elif isinstance(n, ast.Name) and n.id in self.scope:
                zones |= self.known["named"].get(n.id, set())
        return zones

    def _local(self, node, what) -> set:
        if isinstance(node, ast.Name) and node.id in self.known[what]:
            return set(self.known[what][node.id])
        return {UNKNOWN}


def _sources(tree, scope) -> dict:
    """{local: [(an item of it?, value)]}: what each assignment, choice and loop of a rule
    gives its locals (an indexed assignment or a number chosen: the statement itself,
    which names no zone the check can be sure of)."""
    sources: dict = {}
    for node in ast.walk(tree):
        target = getattr(node, "target", None)
        if isinstance(node, (ast.For, ast.Secretly, ast.Comprehension)):
            sources.setdefault(node.var, []).append((True, node.iter))
        elif isinstance(target, ast.Name) and target.id in scope:
            choice = isinstance(node, (ast.ChooseOne, ast.ChooseSeveral))
            value = node.options if choice else getattr(node, "value", node)
            sources.setdefault(target.id, []).append((isinstance(node, ast.ChooseOne), value))
        elif isinstance(target, ast.Index):
            while isinstance(target, ast.Index):
                target = target.obj
            if isinstance(target, ast.Name) and target.id in scope:
                sources.setdefault(target.id, []).append((False, node))
    return sources
