"""Text the engine shows a seat reads only what that seat may see.

Labels, questions and log lines are computed by rules, and every channel
(terminal, trace, web table, training adapters, logs) shows them as they are:
a text that read a hidden value carries it to whoever reads the text. So, as
for secret rounds (secrecy.py: refuse rather than hide), `validate` refuses a
spec whose shown text reads what its reader may not see, at the line, saying
what is hidden from whom. What is shown, and to whom:

    action `label:` (or, without one, its `for:` value)  the deciding seat `player`
    `choose ... of OPTIONS by P`, `choose number`, bids    P; and, unless the round is
                                                          secret, every seat, which reads '?'
                                                          where the options hold P's own
                                                          owner-only values (_private_lines);
                                                          cards may be offered from any zone
                                                          (choosing shows P the cards, the
                                                          others read '?': visibility.decision_text)
    a `choose by P` menu's option conditions               P
    `as "... {x} ..."` (a local in a question)             the deciding seat
    `log(...)`, and the conditions it is under             every seat and spectators

Each value is given the readers it needs (`Shown`): a public value none; an
`owner` per-player value `q.x` the seat `q` (its expression's text, so
`player.x` in an action's label is the decider's own); an `owner` player zone's
cards likewise; a hidden value or zone's cards "nobody". Card identities are
kept apart from other content, since counts of hidden zones are public and a
choice may offer cards. Reads are followed through locals (every assignment of
a rule, in any order), spec functions, procedures and triggers (their
parameters bound to the caller's values). Where it cannot tell (a seat written
two ways, a card's place), it assumes the value hidden: a clear refusal beats a leak.
"""
from __future__ import annotations

import re

from . import ast
from .scope import CARD_FIELDS, PLACEHOLDER, assigned_names, declared_visibility, for_variable

NOBODY = "nobody"
_ITEMS = {"top", "first", "last", "find", "random_of", "max", "min", "get"}
_LISTS = {"cards", "one_of_each", "reverse", "unique", "rotate", "remove", "append", "flatten", "sort"}
_MOVES = {"move", "move_bottom", "move_named"}
_TEXT = {"name", "kind", "text", "has", "index_of", "occurrences", "tally", "where", "sum"}
_PUBLIC = {"count", "roll", "owner", "shuffle", "move", "move_bottom", "move_named", "log",
           "next_player", "previous_player", "others", "clockwise_from"}


class Shown:
    """What a value needs of its reader: {reader key: (why, rule, node)} for its content
    (`seen`), for the cards it holds (their identities), for which items a list holds
    (`among`: a filter's reads; which options exist may read anything, as `when:` may),
    and for the cards of the zone it is (`zone`) or of the zones a list holds (`zones`;
    None: no zone). A reader key is a seat's expression text, or NOBODY."""
    __slots__ = ("seen", "cards", "among", "zone", "zones")

    def __init__(self, seen=None, cards=None, zone=None, zones=None, among=None):
        self.seen, self.cards, self.among = seen or {}, cards or {}, among or {}
        self.zone, self.zones = zone, zones

    def text(self) -> dict:
        """Readers needed once the value is written as text (a card by its name)."""
        return {**self.among, **self.cards, **self.seen}

    def whole(self) -> "Shown":
        """What the value says beyond the cards it holds (how many, which values)."""
        return Shown({**self.among, **self.seen})

    def item(self) -> "Shown":
        """An item of this zone (a card) or list (a card, or a zone of a list of zones)."""
        return Shown({**self.among, **self.seen}, {**(self.zone or {}), **self.cards}, self.zones)

    def option(self) -> "Shown":
        """An item offered as an option: which items there are is the decider's to know."""
        return Shown(self.seen, {**(self.zone or {}), **self.cards}, self.zones)

    def listed(self) -> "Shown":
        """A list holding this value."""
        return Shown(self.seen, self.cards, None, self.zone, self.among)

    def key(self):
        return tuple(None if d is None else frozenset(d)
                     for d in (self.seen, self.cards, self.among, self.zone, self.zones))


PUBLIC = Shown()


def join(*values) -> Shown:
    out = Shown()
    for v in values:
        for field in ("seen", "cards", "among"):
            mine = getattr(out, field)
            mine.update({k: w for k, w in getattr(v, field).items() if k not in mine})
        if v.zone is not None:
            out.zone = {**v.zone, **(out.zone or {})}
        if v.zones is not None:
            out.zones = {**v.zones, **(out.zones or {})}
    return out


def as_text(v: Shown) -> Shown:
    return Shown(v.text())


def seat_key(node, aliases) -> str:
    """The text of a seat expression, parameters replaced by their caller's text; an
    expression it does not render is named by its place, so never equal to a reader."""
    return ast.source_text(node, aliases=aliases, unknown=_placed)


def _placed(node) -> str:
    return f"<expression at {node.line}:{node.col}>"


def check_shown_text(spec, rules, names, error_at, private: set | None = None) -> list:
    """Errors (from `error_at(rule, message, line, col)`) for shown text that reads
    what its reader may not see. private: a set to add the lines of the private
    choices to (_private_lines), found by the same reading: validate keeps them for
    the engine (Checked.private_choices)."""
    checker = _Checker(spec, rules, names, error_at)
    errors = checker.run()
    if private is not None:
        private.update(_private_lines(spec, checker))
    return errors


def _private_lines(spec, checker) -> set:
    """The file lines of the choices (`choose ... of`, `choose number`, auctions) whose
    options hold anything but public values and cards: the decider's own owner-only
    values, which this check lets the options read (the decider sees them). The
    others read such a choice as '?' (visibility.private_choice), since its label is
    made from them: `choose one of [p.gold, 0] by p` showed P2 P1's gold. A card
    offered is not in it: whether a seat sees a card is asked at the card."""
    return {spec.text_position(rule.path, node.line, node.col)[0]
            for rule, node in checker.private.values()}


def private_labels(spec, rules, names) -> dict:
    """{action: "hide" or "remake"} for the actions whose label reads anything not
    public, as the other seats read it (visibility.decision_text): "remake" its label
    from what they see; "hide" it ('?'), where its `for:` value itself (given, not
    made again) holds something not public."""
    checker = _Checker(spec, rules, names, lambda *a: None)
    out = {}
    for name in spec.data.get("actions") or {}:
        frame, label = checker.label(name)
        var = for_variable(spec.data["actions"][name].get("for", ""))
        if var in frame.env and frame.env[var].seen or label and label[0].path[-1] == "for" and label[2].seen:
            out[name] = "hide"
        elif label and label[2].seen:
            out[name] = "remake"
    return out


class _Frame:
    """One rule being read: its locals' values, its seat aliases, what it returns."""

    def __init__(self, rule, env, aliases, secret=False):
        self.rule, self.env, self.aliases, self.secret = rule, env, aliases, secret
        self.returns = PUBLIC


class _Checker:
    def __init__(self, spec, rules, names, error_at):
        self.spec, self.names, self.error_at = spec, names, error_at
        self.by_path = {r.path: r for r in rules}
        self.data = spec.data
        self.errors: list = []
        self.reported: set = set()
        self.memo: dict = {}
        self.active: set = set()
        self.checking = False
        self.private: dict = {}     # id(choice node) -> (rule, node): options not all public

    # ------------------------------------------------------------- the rules
    def run(self) -> list:
        self.checking = True
        for rule in self.by_path.values():
            if rule.kind == "statements" and rule.path[0] in ("flow", "phases", "procedures", "triggers"):
                self.statements(rule, {p: PUBLIC for p in rule.scope}, {})
        for name in self.data.get("actions") or {}:
            self.action(name)
        return self.errors

    def statements(self, rule, env, aliases, secret=False) -> Shown:
        """Read a statement rule in order (a local holds what was last put in it)."""
        frame = _Frame(rule, dict(env), dict(aliases), secret)
        for local in assigned_names(rule.tree, self.names) - set(env):
            frame.env[local] = PUBLIC
        self.block(rule.tree, frame, PUBLIC)
        return frame.returns

    def branches(self, frame, *reads):
        """Run each read from the same locals; after them a local holds any of theirs."""
        start, ends = dict(frame.env), []
        for read in reads:
            frame.env = dict(start)
            read()
            ends.append(frame.env)
        frame.env = {k: join(*(e[k] for e in ends if k in e)) for k in start}

    def loop(self, frame, read):
        """A body run any number of times: its locals to a fixed point first, unchecked.
        Inside another loop's fixed point one pass does (that loop repeats until its
        locals hold), so nested loops cost passes in their sum, not their product."""
        if not self.checking:
            self.branches(frame, lambda: None, read)
            return
        self.checking = False
        for _ in range(32):
            before = {k: v.key() for k, v in frame.env.items()}
            self.branches(frame, lambda: None, read)
            if {k: v.key() for k, v in frame.env.items()} == before:
                break
        self.checking = True
        self.branches(frame, lambda: None, read)

    def action(self, name):
        """An action: its label (or, without one, its `for:` value) is shown to the decider."""
        frame, label = self.label(name)
        if label is not None:
            rule, node, value, what = label
            self.require(rule, node, value, {"player"}, what)
        rule = self.by_path.get(("actions", name, "do"))
        if rule is not None:
            self.statements(rule, frame.env, {})

    def label(self, name):
        """(the action's locals, (rule, node, what its label needs, how it is shown) or None).
        `when:` may read hidden values (tests/games/duel.yaml): a refused action is
        explained on the seat's own copy of the state (visibility.seat_state)."""
        action = self.data["actions"][name]
        frame = _Frame(None, {"player": PUBLIC}, {})
        var = for_variable(action["for"]) if "for" in action else None
        listed, rule = self.by_path.get(("actions", name, "for")), self.by_path.get(("actions", name, "label"))
        if var and listed is not None:
            frame.rule = listed
            items = self.expr(listed.tree.right, frame)
            frame.env[var] = items.option()
            if rule is None:
                return frame, (listed, listed.tree.right, as_text(items.option()),
                               "the option (without a `label:`, the `for:` value is its label) is "
                               "shown to the deciding seat (player)")
        if rule is None:
            return frame, None
        frame.rule = rule
        return frame, (rule, rule.tree, as_text(self.expr(rule.tree, frame)),
                       "this label is shown to the deciding seat (player)")

    # ------------------------------------------------------------ statements
    def block(self, body, frame, pc):
        for node in body if isinstance(body, list) else [body]:
            self.stmt(node, frame, pc)

    def stmt(self, node, frame, pc):
        kind = node.rule
        if kind == "block":
            self.block(node.body, frame, pc)
        elif kind == "assign":
            self.assign(node.target, self.expr(node.value, frame), frame)
        elif kind == "aug_assign":
            self.assign(node.target, join(self.expr(node.target, frame), self.expr(node.value, frame)), frame)
        elif kind == "call_stmt":
            self.expr(node.call, frame, pc)
        elif kind in ("choose_one", "choose_several", "choose_number", "auction"):
            self.choice(node, frame)
        elif kind == "menu":
            self.menu(node, frame, pc)
        elif kind == "turn":
            self.prompt(node, frame, seat_key(node.player, frame.aliases))
            self.block(node.orelse, frame, pc)
        elif kind == "signal":
            self.signal(node, frame)
        elif kind == "return_" and node.value is not None:
            frame.returns = join(frame.returns, self.expr(node.value, frame))
        elif kind == "if_stmt":
            inner = join(pc, as_text(self.expr(node.cond, frame)))
            self.branches(frame, lambda: self.block(node.body, frame, inner),
                          lambda: self.block(node.orelse, frame, inner))
        elif kind == "while_stmt":
            self.loop(frame, lambda: self.block(
                node.body, frame, join(pc, as_text(self.expr(node.cond, frame)))))
        elif kind in ("for_stmt", "secretly"):
            self.loop(frame, lambda: self.each(node, frame, pc))

    def each(self, node, frame, pc):
        """One round of a `for` or `secretly` loop. What a local holds for the loop's
        seat `p` of an earlier round is another seat's now: its reader keys naming
        `p` are renamed (_earlier), so that the next `p` is not taken for their reader
        (a question showing {x}, the previous seat's secret pick, to the next seat)."""
        frame.env = {k: _earlier(v, node.var) for k, v in frame.env.items()}
        items = self.expr(node.iter, frame)
        self.assign(ast.Name(node.line, node.col, node.var), items.item(), frame)
        inner = join(pc, items.whole())
        if getattr(node, "where", None) is not None:
            inner = join(inner, as_text(self.expr(node.where, frame)))
        secret, frame.secret = frame.secret, frame.secret or node.rule == "secretly"
        self.block(node.body, frame, inner)
        frame.secret = secret

    def assign(self, target, value, frame):
        if isinstance(target, ast.Name) and target.id in frame.env:
            frame.env[target.id] = value

    def choice(self, node, frame):
        by = seat_key(node.by if hasattr(node, "by") else node.among, frame.aliases)
        parts = [getattr(node, k) for k in ("options", "count", "low", "high", "opening",
                                             "raise_", "limit") if getattr(node, k, None) is not None]
        offered = join(*(self.expr(p, frame) for p in parts))
        if offered.seen:
            self.private[id(node)] = (frame.rule, node)
        for part in parts:
            self.require(frame.rule, part, self.expr(part, frame).whole(), {by},
                         f"the options of this decision are shown to the deciding seat ({by})")
        chosen = offered.item() if hasattr(node, "options") else as_text(offered)
        if frame.secret:
            chosen = join(chosen, Shown({by: (f"a secret choice of {by}", frame.rule, node)}))
        self.prompt(node, frame, by)    # the question is asked before its answer is stored
        self.assign(node.target, chosen, frame)

    def menu(self, node, frame, pc):
        by = seat_key(node.by, frame.aliases)
        for option in node.options:
            if option.cond is not None:
                self.require(frame.rule, option.cond, as_text(self.expr(option.cond, frame)), {by},
                             f"which options this menu offers is shown to the deciding seat ({by})")
            self.block(option.body, frame, pc)
        self.prompt(node, frame, by)

    def prompt(self, node, frame, by):
        """`as "...{x}..."`: a local named in the question is shown to the deciding seat."""
        for name in PLACEHOLDER.findall(getattr(node, "prompt", None) or ""):
            if name in frame.env:
                self.require(frame.rule, node, as_text(frame.env[name]), {by},
                             f"the question shows {{{name}}} to the deciding seat ({by})")

    def signal(self, node, frame):
        args = [self.expr(a, frame) for a in node.args]
        params = list(self.names.signals.get(node.name, []))
        for name, trig in (self.data.get("triggers") or {}).items():
            rule = self.by_path.get(("triggers", name, "do"))
            if trig.get("on") == node.name and rule is not None:
                env = dict(zip(params, args))
                self.follow(rule, env, self._aliases(params, node.args, frame), frame.secret)

    def follow(self, rule, env, aliases, secret) -> Shown:
        """Read a procedure or trigger with its parameters bound (once per binding)."""
        memo = (rule.path, tuple((k, v.key()) for k, v in env.items()), tuple(aliases.items()), secret,
                self.checking)
        if memo in self.memo:
            return self.memo[memo]
        if rule.path in self.active:    # recursion: its reads are read at the outer call
            return join(*env.values())
        self.active.add(rule.path)
        self.memo[memo] = self.statements(rule, env, aliases, secret)
        self.active.discard(rule.path)
        return self.memo[memo]

    def _aliases(self, params, args, frame) -> dict:
        return {p: seat_key(a, frame.aliases) for p, a in zip(params, args)}

    # ----------------------------------------------------------- expressions
    def expr(self, node, frame, pc=PUBLIC) -> Shown:
        method = getattr(self, "x_" + node.rule, None)
        if method is not None:
            return method(node, frame, pc)
        return join(*(self.expr(c, frame) for c in ast.children(node)))

    def x_number(self, node, frame, pc):
        return PUBLIC
    x_string = x_const = x_number

    def x_name(self, node, frame, pc):
        if node.id in frame.env:
            return frame.env[node.id]
        category = self.names.resolve(node.id, ())[0]
        if category == "global" and declared_visibility(self.names.globals, node.id, "public") != "public":
            return Shown({NOBODY: (f"global {node.id} ({declared_visibility(self.names.globals, node.id)}: "
                                   f"no seat sees it)", frame.rule, node)})
        if category == "zone":
            vis = declared_visibility(self.names.zones, node.id, "hidden")
            return Shown(zone={} if vis == "public" else
                         {NOBODY: (f"the cards of zone {node.id} (hidden: only their count is "
                                   f"public)", frame.rule, node)})
        return PUBLIC

    def x_attr(self, node, frame, pc):
        obj, n, name = self.expr(node.obj, frame), self.names, node.name
        if name in n.per_player:
            return join(obj, self._owned(n.per_player, name, node, frame, "per-player value"))
        if name in n.player_zones:
            vis = declared_visibility(n.player_zones, name, "owner")
            owned = self._owned(n.player_zones, name, node, frame, "zone", default="owner")
            return Shown(obj.whole().seen, zone={} if vis == "public" else owned.seen)
        if name in n.per_card and name not in n.card_attrs and name not in CARD_FIELDS:
            return join(obj.whole(), self._card_value(obj, node, frame))
        return join(as_text(obj), Shown(zone=obj.zone))

    def _owned(self, section, name, node, frame, what, default="public") -> Shown:
        vis = declared_visibility(section, name, default)
        if vis == "public":
            return PUBLIC
        text = f"{seat_key(node.obj, frame.aliases)}.{name}"
        if vis == "owner":
            seat = seat_key(node.obj, frame.aliases)
            contents = "the cards of " if what == "zone" else ""
            return Shown({seat: (f"{contents}{text} (an owner-only {what}: only {seat} sees it)",
                                 frame.rule, node)})
        return Shown({NOBODY: (f"{text} (a hidden {what}: no seat sees it)", frame.rule, node)})

    def _card_value(self, card, node, frame) -> Shown:
        """A per-card value: seen where its card is seen; an `owner` one only by the seat
        whose zone holds the card (known only for a card read from one seat's zone)."""
        vis = declared_visibility(self.names.per_card, node.name, "public")
        if vis == "public":
            return Shown(card.cards)
        seats = set(card.cards)
        if vis == "owner" and len(seats) == 1 and NOBODY not in seats:
            seat = seats.pop()
            return Shown({seat: (f"per-card value .{node.name} (owner-only: only {seat}, "
                                 f"whose zone holds the card, sees it)", frame.rule, node)})
        return Shown({NOBODY: (f"per-card value .{node.name} ({vis}: no seat is known to see "
                               f"it here)", frame.rule, node)})

    def x_index(self, node, frame, pc):
        obj = self.expr(node.obj, frame)
        return join(obj, as_text(self.expr(node.key, frame)))

    def x_comprehension(self, node, frame, pc):
        items = self.expr(node.iter, frame)
        saved = frame.env.get(node.var)
        frame.env[node.var] = items.item()
        try:
            elt = self.expr(node.elt, frame)
            cond = as_text(self.expr(node.cond, frame)) if node.cond is not None else PUBLIC
        finally:
            if saved is None:
                frame.env.pop(node.var, None)
            else:
                frame.env[node.var] = saved
        return join(Shown(items.seen, among={**items.among, **cond.seen}), elt.listed())

    def x_list_(self, node, frame, pc):
        return join(*(self.expr(i, frame).listed() for i in node.items))

    def x_compare(self, node, frame, pc):
        left, right = self.expr(node.left, frame), self.expr(node.right, frame)
        return join(as_text(left), as_text(right), as_text(right.item()))

    def x_if_exp(self, node, frame, pc):
        cond = as_text(self.expr(node.cond, frame))
        return join(Shown(among=cond.seen), self.expr(node.then, frame), self.expr(node.orelse, frame))

    def x_call(self, node, frame, pc):
        func, n = node.func, self.names
        args = [self.expr(a, frame) for a in node.args]
        if func in n.functions:
            return self.function(node, args, frame)
        if func in n.procedures:
            rule = self.by_path.get(("procedures", func, "do"))
            params = n.procedures[func]
            return PUBLIC if rule is None else self.follow(
                rule, dict(zip(params, args)), self._aliases(params, node.args, frame), frame.secret)
        lazy = self._lazy(node, args, frame)
        if func == "log" and args:
            self.require(frame.rule, node.args[0], join(pc, as_text(args[0])), set(),
                         "log() text is shown to every seat and to spectators")
            return PUBLIC
        if func == "count":
            return args[0].whole() if args else PUBLIC
        if func == "draw" and len(args) >= 2:
            return join(args[0].whole(), args[1].whole(), args[1].item())
        if func in _MOVES and len(args) >= 2:
            self._moved(node.args[0], args[0], args[1], frame)
        if func in _PUBLIC:
            return join(*(a.whole() for a in args))
        if func in _TEXT:
            return join(*(as_text(a) for a in args), *(as_text(a.item()) for a in args), lazy)
        if func in _ITEMS or func in _LISTS:
            first = args[0] if args else PUBLIC
            if func in _ITEMS or first.zone is not None:
                first = first.item()
            return join(first, *(as_text(a) for a in args[1:]), lazy)
        return join(*args, lazy)

    def _moved(self, what, card, to, frame):
        """A card held in a local is, after a move, where it went: seen by who sees there."""
        if isinstance(what, ast.Name) and what.id in frame.env and to.zone is not None:
            frame.env[what.id] = Shown(card.whole().seen, to.zone)

    def _lazy(self, node, args, frame) -> Shown:
        """`by=`: read with `it` an item of the first argument."""
        out = PUBLIC
        for key, arg in node.kwargs.items():
            saved = frame.env.get("it")
            frame.env["it"] = args[0].item() if args else PUBLIC
            out = join(out, as_text(self.expr(arg, frame)))
            if saved is None:
                frame.env.pop("it", None)
            else:
                frame.env["it"] = saved
        return out

    def function(self, node, args, frame) -> Shown:
        """A spec function's value, its parameters bound to the arguments' values."""
        rule = self.by_path.get(("functions", node.func, "expr"))
        if rule is None:
            return join(*args)
        params = self.names.functions[node.func]
        aliases = self._aliases(params, node.args, frame)
        # (checked apart: a log() in it is refused only on a checking pass)
        memo = (rule.path, tuple(a.key() for a in args), tuple(aliases.items()), self.checking)
        if memo in self.memo:
            return self.memo[memo]
        if rule.path in self.active:    # recursion: its own reads are read at the outer call
            return join(*args)
        self.active.add(rule.path)
        inner = _Frame(rule, dict(zip(params, args)), aliases, frame.secret)
        self.memo[memo] = self.expr(rule.tree, inner)
        self.active.discard(rule.path)
        return self.memo[memo]

    # --------------------------------------------------------------- refusing
    def require(self, rule, node, value: Shown, readers: set, shown: str):
        """Refuse `value` unless every reader it needs is among `readers`."""
        if not self.checking:
            return
        for key, (why, at_rule, at) in value.seen.items():
            if key in readers:
                continue
            inside = at_rule is rule and any(n is at for n in ast.walk(node))
            self.refuse(rule, at if inside else node,
                        f"{shown}, but it reads {why}{'' if inside else self._where(at_rule, at)}. "
                        + _how(key, readers))
            return

    def _where(self, rule, node) -> str:
        if rule is None:
            return ""
        line = self.spec.text_position(rule.path, node.line, node.col)[0]
        return f" (read at line {line}, {_path(rule)})"

    def refuse(self, rule, node, message):
        mark = (rule.path if rule else None, node.line, node.col)
        if mark not in self.reported and rule is not None:
            self.reported.add(mark)
            self.errors.append(self.error_at(rule, message, node.line, node.col))


def _earlier(value: Shown, var: str) -> Shown:
    """`value` with each reader key that names `var` (the loop's seat) renamed to that
    seat of an earlier round: a reader no seat expression matches."""
    word = re.compile(rf"\b{re.escape(var)}\b")

    def renamed(keys):
        if not keys or not any(word.search(k) for k in keys):
            return keys
        return {(f"{k} of an earlier round of the loop" if word.search(k) else k):
                (_of_earlier(v, var) if word.search(k) else v) for k, v in keys.items()}
    if not any(word.search(k) for d in (value.seen, value.cards, value.among, value.zone or {},
                                        value.zones or {}) for k in d):
        return value
    return Shown(renamed(value.seen), renamed(value.cards), renamed(value.zone),
                 renamed(value.zones), renamed(value.among))


def _of_earlier(why, var):
    """(why, rule, node) said of the loop's seat in an earlier round."""
    if isinstance(why, tuple) and why and isinstance(why[0], str):
        return (f"{why[0]} (the {var} of an earlier round of the loop)",) + why[1:]
    return why


def _how(key, readers) -> str:
    if key == NOBODY:
        return "Show only public values here, or make the value public (`visibility: public`)"
    if readers:
        reader = next(iter(readers))
        return (f"Show only what {reader} may see here (public values, its own owner-only "
                f"values and cards), or make the value public")
    return (f"Show only public values here: make the value public, or reveal it first into a "
            f"public variable (`visibility: owner` shows it to {key} only)")


def _path(rule) -> str:
    return ".".join(str(p) for p in rule.path)
