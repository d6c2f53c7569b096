"""Why an option is refused: the condition that said no, its values, and where it is written.

Only the refusal path comes here (`State.apply` with something that is not a
legal option), so nothing in this module costs anything while a game is
played. It finds the instruction that is asking (the pending decision's
frame), reads the syntax node the compiler left on it, and re-evaluates the
parts of the refusing condition one by one.

The explanation goes to the seat deciding, so it is worked out on that seat's
copy of the state (visibility.seat_state): a value the seat cannot see reads
`?`, and a part whose truth depends on one is said to be false only when the
seat could tell so itself (it is the only part left that can refuse). Two
states the seat cannot tell apart give the same explanation, byte for byte.
"""
from __future__ import annotations

from rulespec import ast
from rulespec.scope import assigned_names
from rulespec.dsl import parse_expression

from rulespec.errors import IllegalAction
from . import visibility
from .values import Seat, display


def refusal(st, action) -> IllegalAction:
    """The IllegalAction for `action` in `st`, saying as precisely as possible why."""
    decision = st.pending
    st = visibility.seat_state(st, decision.player)   # explain with what the seat may know
    label = getattr(action, "label", action)
    head = f"{label!r} is not a legal option for {st.game.seat_name(decision.player)} now"
    try:
        reason, where = _reason(st, decision, label)
    except Exception:   # an explanation is best effort: never worse than the bare refusal
        reason, where = None, None
    legal = ", ".join(decision.labels)   # never cut: the option that matters may be the last
    message = f"{head}: {reason}; legal: {legal}" if reason else f"{head}; legal: {legal}"
    file, line, col = where or (*(decision.where or (None, None)), 1)
    return IllegalAction(message, file, line, col)


def why_refused(st, label) -> str | None:
    """Why `label` is not legal for the pending decision, when that can be said."""
    try:
        return _reason(st, st.pending, label)[0]
    except Exception:   # best effort, as in refusal()
        return None


def _reason(st, decision, label):
    """(reason, (file, line, col)) for the kind of decision pending."""
    instr = _asking_instruction(st)
    node = getattr(instr, "node", None)
    if isinstance(node, ast.Turn):
        return _turn(st, decision, node, label)
    if isinstance(node, ast.Menu):
        return _menu(st, node, instr.mark, label)
    if decision.kind == "number" and decision.values:
        return f"the number is chosen from {decision.values[0]} to {decision.values[-1]}", None
    if isinstance(node, ast.Auction):
        return _bid(st, decision, node, label), None
    return None, None


def _asking_instruction(st):
    frame = st.stack[-1]
    return st.game.programs[frame.proc].code[frame.pc]


# ------------------------------------------------------------------ turns
def _turn(st, decision, node, label):
    game, player = st.game, Seat(decision.player)
    if label == "done" and not node.until_done:
        return "this turn is one action, with no 'done'", None
    offered = [a for a in node.actions if a in game.actions]
    for name in offered:
        found = _action_refusal(st, game.actions[name], player, label)
        if found:
            return found
    if label in game.actions:
        return (f"action {label} is not part of this turn (it offers {', '.join(offered)})", None)
    for name in offered:
        decl = game.data["actions"][name]
        if str(label).startswith(name) and "for" in decl:
            return (f"action {name} offers one option per `{decl['for']}`, and none is "
                    f"called {label!r}", _at(game, ("actions", name, "for")))
    return f"no action of this turn ({', '.join(offered)}) has an option called {label!r}", None


def _action_refusal(st, action, player, label):
    """(reason, where) when `label` is one of the action's options whose `when` is false."""
    env = {"player": player}
    values = [None]
    if action.items is not None:
        from .functions import _items
        values = _items(st, action.items(st, env))
    for value in values:
        if action.var:
            env = {"player": player, action.var: value}
        if _known(lambda: action._label(st, env, value)) != label:
            continue
        if action.when is None or _known(lambda: action.when(st, env)) is True:
            return None   # the option exists and is allowed: nothing to explain here
        path = ("actions", action.name, "when")
        tree = parse_expression(st.game.data["actions"][action.name]["when"])
        parts = failing_parts(st, tree, env) or [(f"`{unparse(tree)}` is false", tree)]
        first = parts[0][1]   # the error points at the first part that failed
        line, col = st.game.spec.text_position(path, first.line, first.col)
        reason = "; ".join(text for text, _ in parts)
        return (f"action {action.name} refuses it: {reason} "
                f"(its `when:` at {st.game.file}:{line})", (st.game.file, line, col))
    return None


# ------------------------------------------------------------------ menus and bids
def _menu(st, node, mark, label):
    env = st.stack[-1].env
    labels = [o.label for o in node.options]
    if label not in labels:
        return f"the choices are: {', '.join(labels)}", None
    option = node.options[labels.index(label)]
    if option.cond is None:
        return None, None
    parts = why_false(st, option.cond, env)
    line, col = mark(option.cond.line, option.cond.col) if mark else (option.cond.line, option.cond.col)
    return (f"option {label!r} is not offered now: {parts} (its condition at {st.game.file}:{line})",
            (st.game.file, line, col))


def _bid(st, decision, node, label):
    bids = [v for v in decision.values if isinstance(v, int)]
    text = str(label)
    if not bids or not text.startswith("bid "):
        return None
    if not text[4:].strip().lstrip("-").isdigit():
        return f"a bid is 'pass' or 'bid N' with N from {bids[0]} to {bids[-1]}"
    amount = int(text[4:])
    if amount > bids[-1]:
        limit = f"`{unparse(node.limit)}` is {bids[-1]}" if node.limit is not None else bids[-1]
        return f"the most {st.game.seat_name(decision.player)} may bid is {bids[-1]} (the limit {limit})"
    return f"the lowest bid allowed now is {bids[0]} (the price so far plus the raise)"


def _at(game, path):
    line, col = game.spec.mark(path)
    return game.file, line, col


# ------------------------------------------------------------------ conditions
UNKNOWN = visibility.HIDDEN_TEXT   # a part whose value the seat cannot know


def _known(compute):
    """compute(), or UNKNOWN when it reads what the seat cannot see (or fails)."""
    try:
        return compute()
    except Exception:   # visibility.Hidden, or an error a hidden value caused
        return UNKNOWN


def why_false(st, tree, env) -> str:
    """The failing parts of a false condition, each with the values it read."""
    parts = failing_parts(st, tree, env)
    return "; ".join(text for text, _ in parts) if parts else f"`{unparse(tree)}` is false"


def failing_parts(st, tree, env) -> list[tuple[str, object]]:
    """(explanation, syntax node) of each part that makes the condition false."""
    parts: list = []
    _collect(tree, _evaluator(st, env), parts, want=False)
    return parts


def _collect(node, evaluate, parts, want):
    """Add to `parts` why `node` is `want` (the value it has), using only parts whose
    value the seat knows; of parts it cannot know, one is named only when it must be
    the reason (no known part is), and several only together."""
    if isinstance(node, (ast.And, ast.Or)) and want == isinstance(node, ast.Or):
        values = [(item, evaluate(item)) for item in node.items]
        known = [item for item, v in values if v is want]
        unknown = [item for item, v in values if v is UNKNOWN]
        for item in known:
            _collect(item, evaluate, parts, want)
        if not known and len(unknown) == 1:
            _collect(unknown[0], evaluate, parts, want)
        elif not known and unknown:
            names = ", ".join(f"`{unparse(i)}`" for i in unknown)
            parts.append((f"one of {names} is {_word(want)}, by what you cannot see", unknown[0]))
        return
    if isinstance(node, ast.Not):
        _collect(node.operand, evaluate, parts, not want)
        return
    parts.append((f"`{unparse(node)}` is {_word(want)}{_values(node, evaluate)}", node))


def _word(want) -> str:
    return "true" if want else "false"


def _values(node, evaluate) -> str:
    """': a = 2, b = 3' for the non-literal operands of a comparison or call."""
    if isinstance(node, ast.Compare):
        operands = [node.left, node.right]
    elif isinstance(node, ast.Call):
        operands = list(node.args)
    else:
        return ""
    shown = []
    for operand in operands:
        if isinstance(operand, (ast.Number, ast.String, ast.Const)):
            continue
        text, value = unparse(operand), _show(evaluate(operand))
        if text != value:   # a bare word such as `temple` is its own value
            shown.append(f"{text} = {value}")
    return ": " + ", ".join(shown) if shown else ""


def _show(value) -> str:
    return value if value is UNKNOWN else display(value)


def _evaluator(st, env):
    from .compile import Compiler
    compiler = Compiler(st.game, st.game.names)
    scope = set(env) | {"player"}

    def evaluate(node):
        return _known(lambda: compiler.expr(node, scope | assigned_names(node, st.game.names))(st, env))
    return evaluate


def every_value(st, tree, env) -> list[tuple[int, str, str]]:
    """(depth, text, value) of `tree` and each sub-expression under it, the way
    pytest rewrites an assert: every part evaluated, even those an `and` or `or`
    would skip. Literals, and bare words that are their own value, are left out;
    comprehension bodies are shown whole (their variable has no one value)."""
    evaluate, out = _evaluator(st, env), []

    def visit(node, depth):
        if isinstance(node, (ast.Number, ast.String, ast.Const)):
            return
        text, value = unparse(node), _show(evaluate(node))
        if isinstance(node, ast.Name) and (text == value or node.id == "players"):
            return   # a bare word that is its own value, or the list of every seat
        out.append((depth, text, value))
        if not isinstance(node, ast.Comprehension):
            for child in ast.children(node):
                visit(child, depth + 1)
    visit(tree, 0)
    return out


# ------------------------------------------------------------------ unparse
_PRECEDENCE = {"or_": 1, "and_": 2, "not_": 3, "compare": 4, "if_exp": 0}


def unparse(node) -> str:
    """DSL text of an expression (what the author wrote, give or take spaces)."""
    rule = node.rule
    if rule == "number":
        return str(node.value)
    if rule == "string":
        return '"' + node.value.replace('"', '\\"') + '"'
    if rule == "const":
        return display(node.value)
    if rule == "name":
        return node.id
    if rule == "attr":
        return f"{_inner(node.obj)}.{node.name}"
    if rule == "index":
        return f"{_inner(node.obj)}[{unparse(node.key)}]"
    if rule == "call":
        args = [unparse(a) for a in node.args] + [f"{k}={unparse(v)}" for k, v in node.kwargs.items()]
        return f"{node.func}({', '.join(args)})"
    if rule == "list_":
        return "[" + ", ".join(unparse(i) for i in node.items) + "]"
    if rule == "comprehension":
        cond = f" if {unparse(node.cond)}" if node.cond is not None else ""
        return f"[{unparse(node.elt)} for {node.var} in {unparse(node.iter)}{cond}]"
    if rule == "neg":
        return f"-{_inner(node.operand)}"
    if rule == "not_":
        return f"not {_inner(node.operand)}"
    if rule in ("and_", "or_"):
        word = " and " if rule == "and_" else " or "
        return word.join(_inner(i, _PRECEDENCE[rule]) for i in node.items)
    if rule in ("compare", "arith"):
        right = unparse(node.right)
        if rule == "arith" and node.right.rule == "arith":   # a - (b - c) keeps its brackets
            right = f"({right})"
        return f"{_inner(node.left)} {node.op} {right}"
    if rule == "if_exp":
        return f"{unparse(node.then)} if {unparse(node.cond)} else {unparse(node.orelse)}"
    return "?"


def _inner(node, level=5) -> str:
    """Parenthesise a sub-expression that binds less tightly than its parent."""
    text = unparse(node)
    own = _PRECEDENCE.get(node.rule)
    return f"({text})" if own is not None and own < level else text
