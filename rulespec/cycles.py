"""Rules that always start each other again: a loop that asks nobody.

A trigger whose `do` sends the signal it is on, or a procedure that calls
itself, with nothing in between that could stop it, runs until the step budget
ends the game (rulespec/limits.py): seconds of work, then an error far from the
cause. `validate` refuses such a cycle at the line that closes it instead.

The graph: a node is ("triggers", name) or ("procedures", name). An *always*
edge goes from a rule to what the rule's `do` surely starts before anything
could stop it: a top-level `signal S` starts every trigger on S that has no
`when:`; a top-level call starts the procedure. Statements are followed from the
top down and the walk stops at the first one that may leave the block or ask a
player (a `return`, an `end game`, a decision or `phase`, or a call or signal
that starts a rule which may ask): past it the rule may have stopped, or its
loop is a game of many decisions, which is the designer's to end. Everything
under an `if`, a loop, `and`/`or` past the first operand, or a conditional
expression is conditional, so a procedure with a base case (`if n == 0: return`
first) has no always edge back to itself. Any cycle of always edges is refused.

Spec functions are nodes too, ("functions", name): a function always calls the
functions its expression surely evaluates (not past the first operand of
`and`/`or`, nor in a conditional's branches), so `f(n) = f(n + 1)` is refused
where `f(n) = 0 if n == 0 else f(n - 1)` is not.
"""
from __future__ import annotations

from . import ast

_ASKS = (ast.ChooseOne, ast.ChooseNumber, ast.ChooseSeveral, ast.Auction, ast.Turn,
         ast.Menu, ast.Secretly, ast.RunPhase)
_LEAVES = (ast.Return, ast.EndGame)


def check_cycles(spec, rules, names, error_at) -> list:
    """Errors (from `error_at(rule, message, line, col)`), one per cycle of always
    edges, at the statement of the cycle's first rule (in spec order) that goes on."""
    bodies = {r.path[:2]: r for r in rules
              if r.path[0] in ("triggers", "procedures") and r.path[2:] == ("do",)}
    functions = {r.path[:2]: r for r in rules
                 if r.path[0] == "functions" and r.path[2:] == ("expr",) and r.tree is not None}
    graph = _Graph(spec.data, names, bodies)
    graph.edges.update({node: _function_calls(rule.tree, names) for node, rule in functions.items()})
    bodies = {**bodies, **functions}
    errors = []
    for cycle in _cycles(list(bodies), graph.edges):
        first, second = cycle[0], cycle[1 % len(cycle)]
        node, words = graph.edges[first][second]
        chain = " → ".join(_name(n) for n in cycle + [first])
        errors.append(error_at(bodies[first],
                               f"{_name(first)} always {words}, and that runs it again "
                               f"without end ({chain}), asking nobody: the game could never go "
                               f"on. {_ADVICE[first[0]]}",
                               node.line, node.col))
    return errors


_ADVICE = {
    "functions": "Call it only in a branch that can be left (a base case: "
                 "`0 if n == 0 else f(n - 1)`)",
    "procedures": "Do it only under a condition that can be false (an `if` around it)",
    "triggers": "Do it only under a condition that can be false (an `if` around it, or a "
                "`when:` on the trigger)",
}


def _name(node) -> str:
    section, name = node
    return f"{ {'triggers': 'trigger', 'procedures': 'procedure'}.get(section, 'function')} {name}"


def _function_calls(expr, names) -> dict:
    """A function's always edges: {("functions", g): (the call, words)} for each spec
    function its expression surely calls."""
    return {("functions", node.func): (node, f"calls function {node.func}")
            for node in reversed(_surely_evaluated(expr))
            if isinstance(node, ast.Call) and node.func in names.functions}


class _Graph:
    """The always edges between triggers and procedures (see the module docstring)."""

    def __init__(self, data, names, bodies):
        self.procedures = names.procedures
        self.sure = {}      # signal -> the triggers on it with no `when:` (they surely run)
        self.listeners = {}   # signal -> every trigger on it
        for name, trig in (data.get("triggers") or {}).items():
            node = ("triggers", name)
            self.listeners.setdefault(trig.get("on"), []).append(node)
            if "when" not in trig:
                self.sure.setdefault(trig.get("on"), []).append(node)
        self.asking = self._asking(bodies)
        # node -> {target: (the signal or call that starts it, what it does in words)}
        self.edges = {node: self._always(rule.tree) for node, rule in bodies.items()}

    def _target(self, node):
        """(the rules node surely starts, words, every rule it may start) for a signal
        or a procedure call, else None."""
        if isinstance(node, ast.Signal):
            return (self.sure.get(node.name, []), f"sends signal {node.name}",
                    self.listeners.get(node.name, []))
        if isinstance(node, ast.Call) and node.func in self.procedures:
            target = [("procedures", node.func)]
            return target, f"calls procedure {node.func}", target
        return None

    def _may_start(self, tree) -> set:
        return {t for sub in ast.walk(tree) if (found := self._target(sub)) for t in found[2]}

    def _asking(self, bodies) -> set:
        """The rules that may ask a player: a decision in them, or in what they may start."""
        asking = {node for node, rule in bodies.items()
                  if any(isinstance(sub, _ASKS) for sub in ast.walk(rule.tree))}
        callers: dict = {}
        for node, rule in bodies.items():
            for target in self._may_start(rule.tree):
                callers.setdefault(target, []).append(node)
        todo = list(asking)
        while todo:     # back along the calls and signals: linear, however long the chain
            for caller in callers.get(todo.pop(), ()):
                if caller not in asking:
                    asking.add(caller)
                    todo.append(caller)
        return asking

    def _always(self, block) -> dict:
        edges = {}
        for statement in block.body:
            for node in _unconditional(statement):
                found = self._target(node)
                for target in found[0] if found else ():
                    edges.setdefault(target, (node, found[1]))
            if self._may_stop(statement):
                break
        return edges

    def _may_stop(self, statement) -> bool:
        """Whether the block may be left or a player asked in this statement."""
        return (any(isinstance(sub, _ASKS + _LEAVES) for sub in ast.walk(statement))
                or bool(self._may_start(statement) & self.asking))


def _cycles(order, edges) -> list:
    """One cycle (a list of nodes, the first earliest in `order`) in each strongly
    connected part of the graph that has one (Kosaraju's, without recursion)."""
    finished, seen = [], set()
    for root in order:
        if root in seen:
            continue
        seen.add(root)
        stack = [(root, iter(edges.get(root, ())))]
        while stack:
            node, it = stack[-1]
            nxt = next((t for t in it if t not in seen), None)
            if nxt is None:
                finished.append(node)
                stack.pop()
            else:
                seen.add(nxt)
                stack.append((nxt, iter(edges.get(nxt, ()))))
    back = {}
    for node, targets in edges.items():
        for t in targets:
            back.setdefault(t, []).append(node)
    rank = {node: i for i, node in enumerate(order)}
    part, cycles = {}, []
    for root in reversed(finished):
        if root in part:
            continue
        members, todo = [root], [root]
        part[root] = root
        while todo:
            for t in back.get(todo.pop(), ()):
                if t not in part:
                    part[t] = root
                    members.append(t)
                    todo.append(t)
        if len(members) > 1 or root in edges.get(root, ()):
            first = min(members, key=rank.__getitem__)
            cycles.append(_path_back(first, set(members), edges))
    cycles.sort(key=lambda c: rank[c[0]])
    return cycles


def _path_back(first, members, edges) -> list:
    """The shortest cycle through `first` within `members` (breadth first)."""
    came = {first: None}
    todo = [first]
    for node in todo:
        for t in edges.get(node, ()):
            if t == first:
                path = [node]
                while came[path[-1]] is not None:
                    path.append(came[path[-1]])
                return path[::-1]
            if t in members and t not in came:
                came[t] = node
                todo.append(t)
    raise AssertionError("a strongly connected part has a cycle through each member")


def _unconditional(statement) -> list:
    """The nodes of a statement that surely run when it does: a signal itself and its
    values, a call's or assignment's expression, the condition of an `if` or
    `while`, the list of a `for`."""
    if isinstance(statement, ast.Signal):
        return [statement] + [n for a in [*statement.args, *statement.kwargs.values()]
                              for n in _surely_evaluated(a)]
    if isinstance(statement, ast.CallStmt):
        return _surely_evaluated(statement.call)
    if isinstance(statement, (ast.Assign, ast.AugAssign)):
        return _surely_evaluated(statement.value)
    if isinstance(statement, (ast.If, ast.While)):
        return _surely_evaluated(statement.cond)
    if isinstance(statement, ast.For):
        return _surely_evaluated(statement.iter)
    return []


def _surely_evaluated(expr) -> list:
    """Every node of expression `expr` that is evaluated whenever expr is: not past
    the first operand of `and`/`or`, not the branches of a conditional expression,
    not a comprehension's element or filter."""
    out, todo = [], [expr]
    while todo:
        node = todo.pop()
        out.append(node)
        if isinstance(node, (ast.And, ast.Or)):
            todo.append(node.items[0])
        elif isinstance(node, ast.IfExp):
            todo.append(node.cond)
        elif isinstance(node, ast.Comprehension):
            todo.append(node.iter)
        else:
            todo.extend(ast.children(node))
    return out
