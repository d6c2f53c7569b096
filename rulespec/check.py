"""Semantic checks: every name resolves, arities fit, references exist.

`Names` is the symbol table of a spec; the interpreter's compiler resolves
names with the same `Names.resolve`, so what `validate` accepts is exactly
what the interpreter can run.
"""
from __future__ import annotations

import re

from dataclasses import dataclass, field

from . import ast
from .builtins import KEYWORDS, SIGNATURES
from .cycles import check_cycles
from .purity import check_read_only
from .definite import check_definite_assignment
from .scope import CARD_FIELDS, LAYOUT_FIELDS, RESULT_KEYS, assigned_names, for_variable  # noqa: F401
from .dsl import KEYWORDS as RESERVED, parse_expression, parse_statements
from .errors import RulespecError, SpecErrors
from .limits import RULE_CHARS, RULE_TEXT, Limits
from .loader import did_you_mean
from .secrecy import check_secret_rounds
from .shown import check_shown_text

# Names every rule may use, and the ones a context adds.
IMPLICIT = {"players", "nplayers", "variant", "current_phase"}


@dataclass
class Names:
    constants: dict = field(default_factory=dict)
    symbols: set = field(default_factory=set)
    globals: dict = field(default_factory=dict)
    per_player: dict = field(default_factory=dict)
    per_card: dict = field(default_factory=dict)
    zones: dict = field(default_factory=dict)
    player_zones: dict = field(default_factory=dict)
    boards: dict = field(default_factory=dict)
    card_names: set = field(default_factory=set)
    card_ids: dict = field(default_factory=dict)    # a card's name -> the ids of its cards
    card_kinds: set = field(default_factory=set)
    card_attrs: set = field(default_factory=set)
    functions: dict = field(default_factory=dict)
    procedures: dict = field(default_factory=dict)
    phases: set = field(default_factory=set)
    actions: set = field(default_factory=set)
    signals: dict = field(default_factory=dict)

    @classmethod
    def of(cls, data: dict) -> "Names":
        n = cls()
        n.constants = dict(data.get("constants") or {})
        n.symbols = set(data.get("symbols") or [])
        for section in ("globals", "per_player", "per_card"):
            decls = data.get(section) or {}
            setattr(n, section, dict(decls))
            for decl in decls.values():
                if isinstance(decl, dict):
                    n.symbols.update(str(v) for v in decl.get("one_of") or [] if isinstance(v, str))
        n.zones = dict(data.get("zones") or {})
        n.player_zones = dict(data.get("player_zones") or {})
        n.boards = dict(data.get("boards") or {})
        n.symbols.update(_board_nodes(n.boards))
        most = Limits.of(data).cards    # ids past the card limit are not made (it is reported)
        most = most if isinstance(most, int) else Limits().cards
        for kind, decl in (data.get("cards") or {}).items():
            n.card_kinds.add(kind)
            n.card_attrs.update((decl.get("attrs") or {}).keys())
            for entry in decl.get("list") or []:
                if isinstance(entry, dict):
                    n.card_names.add(str(entry.get("name")))
                    n.card_ids.setdefault(str(entry.get("name")), []).extend(_ids(entry, most))
                    n.card_attrs.update(k for k in entry if k not in ("name", "count"))
        n.functions = {k: v.get("params") or [] for k, v in (data.get("functions") or {}).items()}
        n.procedures = {k: v.get("params") or [] for k, v in (data.get("procedures") or {}).items()}
        n.phases = set(data.get("phases") or {})
        n.actions = set(data.get("actions") or {})
        n.signals = {k: list(v or []) for k, v in (data.get("signals") or {}).items()}
        return n

    def resolve(self, name: str, scope) -> tuple[str, object]:
        """(category, payload) of a bare name; category 'unknown' when it names nothing."""
        if name in scope:
            return "local", name
        if name in self.globals:
            return "global", name
        if name in self.constants:
            return "constant", self.constants[name]
        if name in IMPLICIT:
            return name, None
        if name in self.zones:
            return "zone", name
        if name in self.boards:
            return "board", name
        if name in self.symbols or name in self.card_names or name in self.card_kinds:
            return "symbol", name
        return "unknown", None

    def every_name(self, scope) -> list[str]:
        return sorted(set(scope) | set(self.globals) | set(self.constants) | IMPLICIT
                      | set(self.zones) | set(self.boards) | self.symbols | self.card_names)

    def attributes(self) -> set[str]:
        maps = set()
        for value in self.constants.values():
            if isinstance(value, dict):
                maps.update(str(k) for k in value)
        return (set(self.per_player) | set(self.player_zones) | set(self.per_card)
                | self.card_attrs | CARD_FIELDS | RESULT_KEYS | LAYOUT_FIELDS | maps)


def _ids(entry: dict, most: int) -> list[str]:
    """The ids of the cards of one `cards:` list entry, as the engine makes them
    (Game._build_cards): its name for one card, `name#1`..`name#n` for n (none past
    `most`, the card limit, which the checks report: a count of 10**30 made no list)."""
    count, name = entry.get("count", 1), str(entry.get("name"))
    if not isinstance(count, int) or isinstance(count, bool) or count > most:
        return [name]     # the schema reports it; meanwhile nothing is refused by id
    return [name] if count == 1 else [f"{name}#{i}" for i in range(1, count + 1)]


def _board_nodes(boards: dict) -> set[str]:
    nodes = set()
    for board in boards.values():
        if not isinstance(board, dict):
            continue
        for key in ("ring", "path"):
            nodes.update(str(x) for x in board.get(key) or [])
        extra = board.get("nodes") or []
        nodes.update(str(x) for x in extra)
        for edge in board.get("edges") or []:
            nodes.update(str(x) for x in edge)
    return nodes


# ------------------------------------------------------------- where DSL lives
@dataclass
class Rule:
    """One DSL string of the spec: where it is, what it is, what it names."""
    path: tuple
    kind: str               # "statements" or "expression"
    scope: tuple = ()       # names the context binds (player, p, trigger params...)
    tree: object = None


def dsl_fields(data: dict, names: Names) -> list[Rule]:
    rules = [Rule(("flow",), "statements")]
    for name in data.get("phases") or {}:
        rules.append(Rule(("phases", name, "do"), "statements"))
    for name, proc in (data.get("procedures") or {}).items():
        rules.append(Rule(("procedures", name, "do"), "statements", tuple(proc.get("params") or [])))
    for name, fn in (data.get("functions") or {}).items():
        rules.append(Rule(("functions", name, "expr"), "expression", tuple(fn.get("params") or [])))
    for name, action in (data.get("actions") or {}).items():
        rules.extend(_action_rules(name, action))
    for name, trig in (data.get("triggers") or {}).items():
        params = tuple(names.signals.get(trig.get("on"), []))
        if "when" in trig:
            rules.append(Rule(("triggers", name, "when"), "expression", params))
        rules.append(Rule(("triggers", name, "do"), "statements", params))
    for name in data.get("end") or {}:
        rules.append(Rule(("end", name, "when"), "expression"))
    for name in data.get("invariants") or {}:
        rules.append(Rule(("invariants", name), "expression"))
    scoring = data.get("scoring") or {}
    for key in ("score", "eligible"):
        if key in scoring:
            rules.append(Rule(("scoring", key), "expression", ("p",)))
    for i, _ in enumerate(scoring.get("tiebreaks") or []):
        rules.append(Rule(("scoring", "tiebreaks", i), "expression", ("p",)))
    if "heuristic" in data:
        rules.append(Rule(("heuristic",), "expression", ("p",)))
    return rules


def _action_rules(name: str, action: dict) -> list[Rule]:
    scope = ("player",)
    rules = []
    if "for" in action:
        rules.append(Rule(("actions", name, "for"), "expression", scope))
        var = for_variable(action["for"])
        scope = scope + ((var,) if var else ())
    for key in ("when", "label"):
        if key in action:
            rules.append(Rule(("actions", name, key), "expression", scope))
    rules.append(Rule(("actions", name, "do"), "statements", scope))
    return rules


def get_path(data, path):
    for key in path:
        data = data[key]
    return data


def parse_text(kind: str, text):
    """A rule's text -> its tree; kind is "statements" or "expression". Raises RulespecError."""
    return parse_statements(str(text)) if kind == "statements" else parse_expression(text)


def parse_rules(spec, names: Names, rules: list[Rule] | None = None,
                parse=parse_text) -> tuple[list[Rule], list[RulespecError]]:
    """Parse `rules` (default: every DSL string of the spec, by dsl_fields).

    Returns (the rules that parsed, each with its tree; the errors, in file
    positions). `parse(kind, text)` may be swapped for a caching one (the
    language server re-parses only the strings an edit changed).
    """
    todo = dsl_fields(spec.data, names) if rules is None else rules
    _check_rule_text(spec, todo)
    rules, errors = [], []
    for rule in todo:
        text = get_path(spec.data, rule.path)
        if len(str(text)) > RULE_CHARS:   # parsing costs time by the character
            errors.append(_too_long(spec, rule, text))
            continue
        try:
            rule.tree = parse(rule.kind, text)
        except RulespecError as e:
            e = e.moved(lambda line, col: spec.text_position(rule.path, line, col))
            error = spec.error(e.message, rule.path)
            error.line, error.col = e.line, e.col
            error.broken_rule = (rule.path, str(text))   # check() reads its words
            errors.append(error)
            continue
        if rule.path[-1] == "for" and not _is_binding(rule.tree):
            errors.append(spec.error("`for:` reads `NAME in LIST`, e.g. `c in player.hand`",
                                     rule.path))
            continue
        rules.append(rule)
    return rules, errors


def _check_rule_text(spec, rules: list[Rule]) -> None:
    """Raise SpecErrors at the rule by which the spec's rules to parse pass
    limits.RULE_TEXT characters in all, before any is parsed: parsing and checking cost time by the
    character, and the file-size limit allows hours of them."""
    total = 0
    for rule in rules:
        length = len(str(get_path(spec.data, rule.path)))
        total += length if length <= RULE_CHARS else 0   # that one is refused unparsed
        if total > RULE_TEXT:
            raise SpecErrors([spec.error(
                f"the spec's rules pass {RULE_TEXT:,} characters in all at this one, over the "
                f"limit (limits: rule text): shorten them, or split the game in two", rule.path)])


def _too_long(spec, rule: Rule, text) -> RulespecError:
    error = spec.error(f"this rule is {len(str(text)):,} characters long, over the limit of "
                       f"{RULE_CHARS:,} for one rule (limits: rule length): split it into "
                       f"functions or procedures", rule.path)
    error.broken_rule = (rule.path, str(text))   # what it names counts as reached, unparsed
    return error


def _is_binding(tree) -> bool:
    return isinstance(tree, ast.Compare) and tree.op == "in" and isinstance(tree.left, ast.Name)


def _at(spec, rule: Rule, message: str, line: int, col: int) -> RulespecError:
    err = spec.error(message, rule.path)
    err.line, err.col = spec.text_position(rule.path, line, col)
    return err


# ----------------------------------------------------------------- the checker
def check(spec, rules: list[Rule], names: Names, broken=(), private: set | None = None,
          functions: dict | None = None) -> list[RulespecError]:
    """Every semantic error of the parsed rules. broken: (path, text) of the rules
    that did not parse; a name written in one counts as reached, so a syntax
    error is not followed by the unreachable phases and actions it causes.
    private: a set given the lines of the private choices (shown.private_choices),
    which the shown-text check finds on its way. functions: {name: tree} of spec
    functions outside `rules` (a scenario file's spec), followed for effects."""
    errors: list[RulespecError] = []
    for rule in rules:
        _RuleChecker(spec, rule, names, errors).run()
    errors.extend(_check_references(spec, names))
    errors.extend(_check_reachability(spec, rules, names, broken))
    def error_at(rule, message, line, col):
        return _at(spec, rule, message, line, col)
    errors.extend(check_secret_rounds(spec, rules, names, error_at))
    errors.extend(check_shown_text(spec, rules, names, error_at, private))
    errors.extend(check_cycles(spec, rules, names, error_at))
    errors.extend(check_read_only(spec, rules, names, error_at, functions))
    errors.extend(check_definite_assignment(spec, rules, names, error_at))
    return errors


class _RuleChecker:
    """Walks one rule's tree with its scope and reports what does not resolve."""

    def __init__(self, spec, rule, names, errors):
        self.spec, self.rule, self.names, self.errors = spec, rule, names, errors
        self.attrs = names.attributes()

    def run(self):
        tree = self.rule.tree
        scope = set(self.rule.scope) | assigned_names(tree, self.names)
        if self.rule.path[-1] == "for":
            scope.add(tree.left.id)
            tree = tree.right
        self.visit(tree, scope)

    def error(self, node, message):
        self.error_at(node.line, node.col, message)

    def error_at(self, line, col, message):
        self.errors.append(_at(self.spec, self.rule, message, line, col))

    def visit(self, node, scope):
        if getattr(node, "prompt", None):
            self._check_prompt(node, scope)
        method = getattr(self, "visit_" + node.rule, None)
        if method is not None and method(node, scope) is False:
            return
        for child in _direct_children(node):
            self.visit(child, scope)

    def _check_prompt(self, node, scope):
        """`as "..."`: each {...} in a decision's question is {name}, a value the rule
        can read. Nothing else is filled in (interpreter/tools/present.py fills
        names by text substitution, never evaluating), so anything else would be
        shown as written: refused, saying what is allowed."""
        for inside in re.findall(r"\{([^{}]*)\}", node.prompt):
            if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", inside):
                self.error(node, f"the question has {{{inside}}}, which would be shown as "
                                 f"written: a question shows only {{name}}, a plain name of a "
                                 f"value the rule can read (a local, a global, a constant, "
                                 f"{{player}}); set a local to anything else first, e.g. "
                                 f"`shown = players[0].pts`, then write {{shown}}")
            elif inside != "player" and self.names.resolve(inside, scope)[0] == "unknown":
                self.error(node, f"the question names {{{inside}}}, which is not a value here"
                                 f"{did_you_mean(inside, self.names.every_name(scope))}")

    def visit_name(self, node, scope):
        if node.id in RESERVED:
            self.error(node, f"'{node.id}' is a keyword and cannot be used as a name")
        elif self.names.resolve(node.id, scope)[0] == "unknown":
            hint = did_you_mean(node.id, self.names.every_name(scope))
            self.error(node, f"unknown name '{node.id}'{hint}")

    def visit_attr(self, node, scope):
        if node.name not in self.attrs:
            self.error(node, f"unknown attribute '.{node.name}'{did_you_mean(node.name, self.attrs)}")

    def visit_comprehension(self, node, scope):
        self.visit(node.iter, scope)
        inner = scope | {node.var}
        self.visit(node.elt, inner)
        if node.cond is not None:
            self.visit(node.cond, inner)
        return False

    def visit_call(self, node, scope):
        self._check_call(node, node.func, len(node.args), node.kwargs, statement=False)
        for arg in node.args:
            self.visit(arg, scope)
        for key, arg in node.kwargs.items():
            self.visit(arg, _keyword_scope(node.func, key, scope))
        return False

    def visit_call_stmt(self, node, scope):
        call = node.call
        self._check_call(call, call.func, len(call.args), call.kwargs, statement=True)
        for arg in call.args:
            self.visit(arg, scope)
        for key, arg in call.kwargs.items():
            self.visit(arg, _keyword_scope(call.func, key, scope))
        return False

    def visit_assign(self, node, scope):
        value = node.value
        if isinstance(value, ast.Call) and value.func in self.names.procedures:
            self._check_call(value, value.func, len(value.args), value.kwargs, statement=True)
            for arg in value.args:
                self.visit(arg, scope)
            self.visit(node.target, scope)
            return False

    def _check_call(self, node, func, nargs, kwargs, statement):
        n = self.names
        if func in n.procedures:
            if not statement:
                self.error(node, f"procedure '{func}' may ask players to decide, so it can only "
                                 f"be called as a statement (or as `x = {func}(...)`)")
            self._arity(node, func, nargs, len(n.procedures[func]), len(n.procedures[func]))
        elif func in n.functions:
            self._arity(node, func, nargs, len(n.functions[func]), len(n.functions[func]))
        elif func in SIGNATURES:
            low, high, _ = SIGNATURES[func]
            self._arity(node, func, nargs, low, high)
            for key in kwargs:
                allowed = KEYWORDS.get(func, ())
                if key not in allowed:
                    if allowed:
                        words = ", ".join(sorted(allowed))
                        self.error(node, f"{func}() takes no keyword '{key}'; it takes {words}"
                                         f"{did_you_mean(key, allowed)}")
                    else:
                        self.error(node, f"{func}() takes no keyword '{key}'")
        else:
            known = set(SIGNATURES) | set(n.functions) | set(n.procedures)
            self.error(node, f"unknown function '{func}'{did_you_mean(func, known)}")

    def _arity(self, node, func, nargs, low, high):
        if not low <= nargs <= high:
            want = str(low) if low == high else f"{low} to {high}"
            self.error(node, f"{func}() takes {want} argument{'s' if high != 1 else ''}, got {nargs}")

    def visit_for_stmt(self, node, scope):
        return None

    def visit_turn(self, node, scope):
        seen = set()
        for action, (line, col) in zip(node.actions, node.action_at):
            if action not in self.names.actions:
                self.error_at(line, col, f"unknown action '{action}'"
                                         f"{did_you_mean(action, self.names.actions)}")
            elif action in seen:
                # each option would be offered twice ("take one", "take one (2)"): a random
                # seat would pick the action twice as often, and a person see it twice
                self.error_at(line, col, f"action '{action}' is listed twice in this turn: "
                                         f"list each action once")
            seen.add(action)

    def visit_run_phase(self, node, scope):
        if node.name not in self.names.phases:
            self.error(node, f"unknown phase '{node.name}'{did_you_mean(node.name, self.names.phases)}")

    def visit_signal(self, node, scope):
        params = self.names.signals.get(node.name)
        if params is None:
            hint = did_you_mean(node.name, self.names.signals) or " (declare it under `signals:`)"
            self.error(node, f"unknown signal '{node.name}'{hint}")
        elif len(node.args) + len(node.kwargs) != len(params):
            self.error(node, f"signal '{node.name}' takes {len(params)} values "
                             f"({', '.join(params)}), got {len(node.args) + len(node.kwargs)}")

    def visit_auction(self, node, scope):
        if node.limit is None:
            self.error(node, "an auction needs `limit` (the most a bidder can bid, e.g. bidder.coins)")
        self.visit(node.target, scope)
        self.visit(node.among, scope)
        inner = scope | {"bidder"}
        for part in (node.opening, node.raise_, node.limit, node.starter):
            if part is not None:
                self.visit(part, inner)
        return False


def _direct_children(node):
    for slot in node.__slots__:
        value = getattr(node, slot)
        yield from ast._children(value)


def _check_references(spec, names: Names) -> list[RulespecError]:
    errors = []
    data = spec.data
    all_zones = set(names.zones)
    for kind, decl in (data.get("cards") or {}).items():
        zone = decl.get("in")
        if zone not in all_zones:
            errors.append(spec.error(f"cards start in unknown zone '{zone}'"
                                     f"{did_you_mean(str(zone), all_zones)}", ("cards", kind, "in")))
    for zname, decl in names.zones.items():
        source = (decl or {}).get("reshuffle_from")
        if source is not None and source not in all_zones:
            errors.append(spec.error(f"unknown zone '{source}'{did_you_mean(str(source), all_zones)}",
                                     ("zones", zname, "reshuffle_from")))
    for trig_name, trig in (data.get("triggers") or {}).items():
        on = trig.get("on")
        if on not in names.signals:
            errors.append(spec.error(f"trigger listens for unknown signal '{on}'"
                                     f"{did_you_mean(str(on), names.signals)}",
                                     ("triggers", trig_name, "on")))
    errors.extend(_check_cards(spec, data))
    errors.extend(_check_players(spec, data))
    errors.extend(_check_starts(spec, data))
    errors.extend(_check_presentation(spec, data, names))
    errors.extend(_check_global_visibility(spec, data))
    errors.extend(_check_keyword_names(spec, data))
    errors.extend(_check_hex_cells(spec, data))
    for name in set(data.get("phases") or {}) & set(names.procedures):
        errors.append(spec.error(f"'{name}' is both a phase and a procedure", ("procedures", name)))
    return errors


def _check_global_visibility(spec, data) -> list[RulespecError]:
    """A global belongs to no seat, so `owner` visibility would hide it from every seat
    without saying so (docs/spec-format.md, Visibility: "—"; the schema refuses it for
    a shared zone)."""
    return [spec.error(f"{what} '{name}' belongs to no seat, so `visibility: owner` would hide it "
                       f"from everyone: write `hidden` for that, or make it {instead}",
                       (section, name, "visibility"))
            for section, what, instead in (("globals", "global", "a per_player variable"),)
            for name, decl in (data.get(section) or {}).items()
            if isinstance(decl, dict) and decl.get("visibility") == "owner"]


# sections whose names a rule writes bare (a per-player name follows a dot, where a keyword may stand)
_BARE_SECTIONS = ("constants", "globals", "zones", "boards", "functions", "procedures", "signals")


def _check_keyword_names(spec, data) -> list[RulespecError]:
    """A name declared for rules to write bare that is a keyword of the rules language
    (`limit`, `number`, `to`...): no rule could name it, and the error came only at a
    use, saying the keyword cannot be a name."""
    places = [((section, name), name) for section in _BARE_SECTIONS
              for name in (data.get(section) or {}) if isinstance(data.get(section), dict)]
    # (a card's name need never be written bare: labels and name(c) give it as text)
    places += [(("symbols", i), w) for i, w in enumerate(data.get("symbols") or [])]
    return [spec.error(f"'{name}' is a keyword of the rules language, so no rule could name it: "
                       f"choose another name", path)
            for path, name in places if isinstance(name, str) and name in RESERVED]


def _check_hex_cells(spec, data) -> list[RulespecError]:
    """Two cells of one hex board at the same q, r: the second silently replaced the first."""
    errors = []
    for board, decl in (data.get("boards") or {}).items():
        seen: dict = {}
        for i, cell in enumerate((decl or {}).get("hex") or [] if isinstance(decl, dict) else []):
            place = tuple(cell[:2]) if isinstance(cell, list) else None
            if place in seen:
                errors.append(spec.error(f"two cells of board '{board}' at {place[0]},{place[1]} "
                                         f"(entries {seen[place] + 1} and {i + 1})", ("boards", board, "hex", i)))
            seen.setdefault(place, i)
    return errors


def _check_presentation(spec, data, names: Names) -> list[RulespecError]:
    """presentation: hides and styles only things the spec declares."""
    section = data.get("presentation") or {}
    known = set(names.zones) | set(data.get("boards") or {})
    for kind in ("globals", "per_player", "per_card"):
        known |= set(data.get(kind) or {})
    errors = []
    for i, name in enumerate(section.get("hidden") or []):
        if name not in known:
            errors.append(spec.error(f"presentation hides unknown '{name}'{did_you_mean(str(name), known)}",
                                     ("presentation", "hidden", i)))
    kinds = set(data.get("cards") or {})
    for name in section.get("cards") or {}:
        if name not in kinds:
            errors.append(spec.error(f"unknown card kind '{name}'{did_you_mean(str(name), kinds)}",
                                     ("presentation", "cards", name)))
    return errors


def _check_cards(spec, data) -> list[RulespecError]:
    """Each physical card needs its own id, made as the engine makes it: the name,
    or `name#1`, `name#2`... for copies; two cards with one id would be one card."""
    errors, seen, per_zone = [], {}, {}
    total = sum(entry.get("count", 1) for decl in (data.get("cards") or {}).values()
                for entry in decl.get("list") or [] if isinstance(entry, dict))
    limit = Limits.of(data).cards
    if total > limit:       # counted before a single id is made (count: 100000000)
        return [spec.error(f"the spec declares {total:,} cards, over the limit of {limit:,} "
                           f"(limits: cards)", ("cards",))]
    for kind, decl in (data.get("cards") or {}).items():
        for i, entry in enumerate(decl.get("list") or []):
            name = entry.get("name") if isinstance(entry, dict) else None
            count = entry.get("count", 1) if isinstance(entry, dict) else 1
            ids = [str(name)] if count == 1 else [f"{name}#{n}" for n in range(1, count + 1)]
            for cid in ids:
                if cid in seen:
                    first_kind, first_name = seen[cid]
                    if cid == str(name) == first_name:
                        message = (f"two cards are called '{name}' (first in cards.{first_kind}); "
                                   f"use `count:` for copies")
                    else:
                        message = (f"two cards would have the id '{cid}' ('{first_name}' in "
                                   f"cards.{first_kind}, and '{name}' here): copies of a card are "
                                   f"numbered name#1, name#2..., so rename one")
                    errors.append(spec.error(message, ("cards", kind, "list", i, "name")))
                    break
                seen[cid] = (kind, str(name))
            zone = decl.get("in")
            per_zone[zone] = per_zone.get(zone, 0) + len(ids)
    for zone, held in per_zone.items():
        limit = ((data.get("zones") or {}).get(zone) or {}).get("limit")
        if isinstance(limit, int) and held > limit:
            errors.append(spec.error(f"{held} cards start in zone '{zone}', over its limit of {limit}",
                                     ("zones", zone, "limit")))
    return errors


def _check_players(spec, data) -> list[RulespecError]:
    players = data.get("players")
    if not isinstance(players, dict):   # a scenario file's `players: 3`; a spec's shape is the schema's
        return []
    low, high = players.get("min"), players.get("max")
    if isinstance(low, int) and isinstance(high, int) and low > high:
        return [spec.error(f"players: min {low} is more than max {high}, so no game can be played",
                           ("players", "max"))]
    return []


def _check_starts(spec, data) -> list[RulespecError]:
    """A start value must respect the variable's own bounds."""
    errors = []
    for section in ("globals", "per_player", "per_card"):
        for name, decl in (data.get(section) or {}).items():
            if not isinstance(decl, dict) or "start" not in decl:
                continue
            start, low, high, one_of = (decl.get(k) for k in ("start", "min", "max", "one_of"))
            problem = None
            if isinstance(low, int) and isinstance(high, int) and low > high:
                errors.append(spec.error(f"{name}: min {low} is more than max {high}",
                                         (section, name, "max")))
            if isinstance(start, bool):
                pass
            elif isinstance(start, int) and low is not None and start < low:
                problem = f"starts at {start}, below its minimum {low}"
            elif isinstance(start, int) and high is not None and start > high:
                problem = f"starts at {start}, above its maximum {high}"
            elif one_of is not None and start not in one_of:
                problem = f"starts at {start!r}, which is not one of {one_of}"
            if problem:
                errors.append(spec.error(f"{name} {problem}", (section, name, "start")))
    return errors


def _check_reachability(spec, rules: list[Rule], names: Names, broken=()) -> list[RulespecError]:
    """Phases and actions that no path from the flow can run are mistakes."""
    refs: dict[tuple, set] = {}
    for path, text in broken:   # what a rule that does not parse may name, it may run
        words = set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", text))
        owner = path[:2] if path[0] != "flow" else ("flow",)
        refs.setdefault(owner, set()).update(
            (section, name) for section in ("phases", "actions", "procedures", "triggers")
            for name in spec.data.get(section) or {} if name in words
            or (section == "triggers" and (spec.data["triggers"][name] or {}).get("on") in words))
    for rule in rules:
        owner = rule.path[:2] if rule.path[0] != "flow" else ("flow",)
        found = refs.setdefault(owner, set())
        for node in ast.walk(rule.tree):
            if isinstance(node, ast.RunPhase):
                found.add(("phases", node.name))
            elif isinstance(node, ast.Turn):
                found.update(("actions", a) for a in node.actions)
            elif isinstance(node, ast.Signal):
                found.update(("triggers", t) for t, d in (spec.data.get("triggers") or {}).items()
                             if d.get("on") == node.name)
            elif isinstance(node, (ast.Call, ast.CallStmt)):
                call = node.call if isinstance(node, ast.CallStmt) else node
                if call.func in names.procedures:
                    found.add(("procedures", call.func))
    seen, todo = {("flow",)}, [("flow",)]
    while todo:
        for ref in refs.get(todo.pop(), ()):
            if ref not in seen:
                seen.add(ref)
                todo.append(ref)
    errors = []
    for section in ("phases", "actions"):
        for name in spec.data.get(section) or {}:
            if (section, name) not in seen:
                what = "phase" if section == "phases" else "action"
                how = "`phase NAME` statement" if section == "phases" else "`turn` statement"
                errors.append(spec.error(f"unreachable {what} '{name}': no {how} reachable "
                                         f"from the flow runs it", (section, name)))
    return errors


_SECTION_WORDS = {"constants": "constant", "globals": "global variable",
                  "per_player": "per-player variable", "per_card": "per-card variable"}


def unread_additions(spec, rules) -> list:
    """A name a variant adds (a constant, a variable) that the base lacks and nothing
    reads: most likely a typo (`gaol: 15` for `goal`), which would otherwise play
    the base game without a word."""
    if not spec.added:
        return []
    read = set()
    for rule in rules:
        if rule.tree is not None:
            for node in ast.walk(rule.tree):
                if isinstance(node, ast.Name):
                    read.add(node.id)
                elif isinstance(node, ast.Attr):
                    read.add(node.name)
    _strings(spec.data, read)
    errors = []
    for (section, name), src in spec.added:
        if name in read:
            continue
        others = [k for k in (spec.data.get(section) or {}) if k != name]
        errors.append(spec.error(
            f"variant {spec.variant!r} adds the {_SECTION_WORDS[section]} {name!r}, which the "
            f"base spec does not have and no rule reads{did_you_mean(name, others)}", src))
    return errors


def _strings(data, into: set) -> None:
    """Every text value in the spec's data (start values may name a constant)."""
    if isinstance(data, str):
        into.add(data)
    elif isinstance(data, dict):
        for value in data.values():
            _strings(value, into)
    elif isinstance(data, list):
        for value in data:
            _strings(value, into)


def _keyword_scope(func, key, scope):
    """The names a keyword argument's value may read: `it` (the item) too for a lazy
    one, `by=`, and for a keyword the function does not take, whose error says so
    (a misspelt `bye=it` is one mistake, not also an unknown `it`)."""
    if key == "by" or key not in KEYWORDS.get(func, ()):
        return scope | {"it"}
    return scope
