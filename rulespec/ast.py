"""The DSL's syntax tree.

One class per grammar alias in grammar.lark; `rule` is that alias, the method
that compiles it is `Compiler.<rule>` (interpreter/engine/compile.py) for a statement
and `ExpressionSource.src_<rule>` (interpreter/engine/codegen.py) for an expression.
Positions (line, col) are 1-based and relative to the DSL string; the checker
maps them into the YAML file.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar, Optional


@dataclass(slots=True, eq=False)
class Node:
    line: int
    col: int
    rule: ClassVar[str] = ""


# ----------------------------------------------------------------- expressions
@dataclass(slots=True, eq=False)
class Number(Node):
    value: int
    rule: ClassVar[str] = "number"


@dataclass(slots=True, eq=False)
class String(Node):
    value: str
    rule: ClassVar[str] = "string"


@dataclass(slots=True, eq=False)
class Const(Node):
    """true, false and none."""
    value: Any
    rule: ClassVar[str] = "const"


@dataclass(slots=True, eq=False)
class Name(Node):
    id: str
    rule: ClassVar[str] = "name"


@dataclass(slots=True, eq=False)
class Attr(Node):
    obj: Node
    name: str
    rule: ClassVar[str] = "attr"


@dataclass(slots=True, eq=False)
class Index(Node):
    obj: Node
    key: Node
    rule: ClassVar[str] = "index"


@dataclass(slots=True, eq=False)
class Call(Node):
    func: str
    args: list
    kwargs: dict
    rule: ClassVar[str] = "call"


@dataclass(slots=True, eq=False)
class ListLit(Node):
    items: list
    rule: ClassVar[str] = "list_"


@dataclass(slots=True, eq=False)
class Comprehension(Node):
    elt: Node
    var: str
    iter: Node
    cond: Optional[Node]
    rule: ClassVar[str] = "comprehension"


@dataclass(slots=True, eq=False)
class Neg(Node):
    operand: Node
    rule: ClassVar[str] = "neg"


@dataclass(slots=True, eq=False)
class Not(Node):
    operand: Node
    rule: ClassVar[str] = "not_"


@dataclass(slots=True, eq=False)
class And(Node):
    items: list
    rule: ClassVar[str] = "and_"


@dataclass(slots=True, eq=False)
class Or(Node):
    items: list
    rule: ClassVar[str] = "or_"


@dataclass(slots=True, eq=False)
class Compare(Node):
    left: Node
    op: str
    right: Node
    rule: ClassVar[str] = "compare"


@dataclass(slots=True, eq=False)
class Arith(Node):
    left: Node
    op: str
    right: Node
    rule: ClassVar[str] = "arith"


@dataclass(slots=True, eq=False)
class IfExp(Node):
    then: Node
    cond: Node
    orelse: Node
    rule: ClassVar[str] = "if_exp"


# ------------------------------------------------------------------ statements
@dataclass(slots=True, eq=False)
class Block(Node):
    body: list
    rule: ClassVar[str] = "block"


@dataclass(slots=True, eq=False)
class Assign(Node):
    target: Node
    value: Node
    rule: ClassVar[str] = "assign"


@dataclass(slots=True, eq=False)
class AugAssign(Node):
    target: Node
    op: str
    value: Node
    rule: ClassVar[str] = "aug_assign"


@dataclass(slots=True, eq=False)
class CallStmt(Node):
    call: Call
    rule: ClassVar[str] = "call_stmt"


@dataclass(slots=True, eq=False)
class ChooseOne(Node):
    target: Node
    options: Node
    by: Node
    prompt: Optional[str] = None    # `as "..."`: the question in words (presentation only)
    rule: ClassVar[str] = "choose_one"


@dataclass(slots=True, eq=False)
class ChooseNumber(Node):
    target: Node
    low: Node
    high: Node
    by: Node
    prompt: Optional[str] = None
    rule: ClassVar[str] = "choose_number"


@dataclass(slots=True, eq=False)
class ChooseSeveral(Node):
    target: Node
    up_to: bool
    count: Node
    options: Node
    by: Node
    prompt: Optional[str] = None
    rule: ClassVar[str] = "choose_several"


@dataclass(slots=True, eq=False)
class Auction(Node):
    target: Node
    among: Node
    opening: Optional[Node] = None
    raise_: Optional[Node] = None
    limit: Optional[Node] = None
    starter: Optional[Node] = None
    prompt: Optional[str] = None
    rule: ClassVar[str] = "auction"


@dataclass(slots=True, eq=False)
class Turn(Node):
    player: Node
    until_done: bool
    actions: list       # action names
    action_at: list     # (line, col) of each name, for errors about one of them
    orelse: list        # the statement after `else`: what happens when no action is legal
    prompt: Optional[str] = None
    rule: ClassVar[str] = "turn"


@dataclass(slots=True, eq=False)
class RunPhase(Node):
    name: str
    rule: ClassVar[str] = "run_phase"


@dataclass(slots=True, eq=False)
class Signal(Node):
    name: str
    args: list
    kwargs: dict
    rule: ClassVar[str] = "signal"


@dataclass(slots=True, eq=False)
class EndGame(Node):
    reason: Optional[str]
    rule: ClassVar[str] = "end_game"


@dataclass(slots=True, eq=False)
class Return(Node):
    value: Optional[Node]
    rule: ClassVar[str] = "return_"


@dataclass(slots=True, eq=False)
class Pass(Node):
    rule: ClassVar[str] = "pass_"


@dataclass(slots=True, eq=False)
class If(Node):
    cond: Node
    body: list
    orelse: list        # statements; an elif is an If inside orelse
    rule: ClassVar[str] = "if_stmt"


@dataclass(slots=True, eq=False)
class For(Node):
    var: str
    iter: Node
    where: Optional[Node]
    body: list
    rule: ClassVar[str] = "for_stmt"


@dataclass(slots=True, eq=False)
class While(Node):
    cond: Node
    body: list
    rule: ClassVar[str] = "while_stmt"


@dataclass(slots=True, eq=False)
class MenuOption(Node):
    label: str
    cond: Optional[Node]
    body: list
    rule: ClassVar[str] = "menu_option"


@dataclass(slots=True, eq=False)
class Menu(Node):
    by: Node
    options: list = field(default_factory=list)
    prompt: Optional[str] = None
    rule: ClassVar[str] = "menu"


@dataclass(slots=True, eq=False)
class Secretly(Node):
    var: str
    iter: Node
    body: list
    rule: ClassVar[str] = "secretly"


def walk(node):
    """Every node under `node` (itself included), depth first."""
    yield node
    for name in node.__slots__:
        value = getattr(node, name)
        for child in _children(value):
            yield from walk(child)


def children(node):
    """The nodes directly under `node`, in field order."""
    for name in node.__slots__:
        yield from _children(getattr(node, name))


def _children(value):
    if isinstance(value, Node):
        yield value
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _children(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _children(item)


def source_text(node, *, aliases=None, short=False, unknown=None) -> str:
    """An expression's text as written, give or take spaces, for messages and keys:
    names, numbers, texts (in double quotes), attributes, indexes, calls without
    keywords (any call, short) and list displays.

    aliases: {name: text} put in for names (a function's parameters as its caller
    wrote them). short: an index's key and a call's arguments as `...`
    (`p.hand[...]`, `count(...)`). A node of any other kind, or a call with keywords,
    is `unknown(node)`: "..." unless given (a key that must never equal another
    expression's text passes one naming the node's place)."""
    def text(n) -> str:
        if isinstance(n, Name):
            return aliases.get(n.id, n.id) if aliases else n.id
        if isinstance(n, Number):
            return str(n.value)
        if isinstance(n, String):
            return '"' + n.value + '"'
        if isinstance(n, Attr):
            return f"{text(n.obj)}.{n.name}"
        if isinstance(n, Index):
            return f"{text(n.obj)}[{'...' if short else text(n.key)}]"
        if isinstance(n, Call) and (short or not n.kwargs):
            return f"{n.func}({'...' if short else ', '.join(text(a) for a in n.args)})"
        if isinstance(n, ListLit) and not short:
            return f"[{', '.join(text(a) for a in n.items)}]"
        return "..." if unknown is None else unknown(n)
    return text(node)
