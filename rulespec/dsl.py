"""Parse DSL strings (effects and conditions) into the AST of rulespec.ast.

The grammar lives in grammar.lark; each Transformer method below is named
after the grammar alias it builds.
"""
from __future__ import annotations

import re
from functools import cache

from lark import Lark, Token, Transformer, Tree, v_args
from lark.exceptions import (UnexpectedCharacters, UnexpectedEOF, UnexpectedInput,
                             UnexpectedToken, VisitError)
from lark.indenter import DedentError, Indenter

from . import ast
from .errors import RuleSyntaxError, RulespecError, unpaired_surrogate
from .limits import MAX_INTEGER_DIGITS, NESTING

KEYWORDS = frozenset("""choose one of by number from to up auction among opening raise limit
starter turn until done phase signal end game return pass if elif else for in where while
secretly and or not true false none as""".split())


class _Indenter(Indenter):
    NL_type = "_NL"
    OPEN_PAREN_types = ["LPAR", "LSQB"]
    CLOSE_PAREN_types = ["RPAR", "RSQB"]
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 4


@cache
def _parser() -> Lark:
    return Lark.open("grammar.lark", rel_to=__file__, parser="lalr", start=["block", "expression"],
                     postlex=_Indenter(), propagate_positions=True, maybe_placeholders=True,
                     cache=True)


def parse_statements(text: str) -> ast.Block:
    """Parse an effect: one or more statements."""
    return _parse(text.rstrip() + "\n", "block")


def parse_expression(text) -> ast.Node:
    """Parse a condition or value. Numbers and booleans from YAML are accepted as is."""
    if isinstance(text, bool) or text is None:
        return ast.Const(1, 1, text)
    if isinstance(text, int):
        return ast.Number(1, 1, text)
    # A YAML-folded expression may span lines; inside an expression they mean nothing.
    lines = str(text).splitlines() or [""]
    try:
        tree = _parse(" ".join(lines) + "\n", "expression")
    except RulespecError as e:
        raise e.moved(lambda _line, col: _unjoin(lines, col)) from None
    for node in ast.walk(tree):   # positions on the lines the author wrote
        node.line, node.col = _unjoin(lines, node.col)
    return tree


def _unjoin(lines: list[str], col: int) -> tuple[int, int]:
    """A column of the lines joined by spaces -> (line, column) in the lines."""
    for number, line in enumerate(lines, 1):
        if col <= len(line) + 1 or number == len(lines):
            return number, col
        col -= len(line) + 1
    return 1, col


def _parse(text: str, start: str):
    try:
        tree = _parser().parse(text, start=start)
    except UnexpectedInput as e:
        raise _syntax_error(e, text) from None
    except DedentError:
        raise _dedent_error(text) from None
    except MemoryError:
        raise RuleSyntaxError("this rule is too large to parse", line=1, col=1) from None
    _check_nesting(tree)    # the transformer, checker and compiler below recurse
    try:
        return _ToAst().transform(tree)
    except VisitError as e:
        raise e.orig_exc from None


_WORDS = {"_NL": "end of line", "_INDENT": "an indented block", "_DEDENT": "end of block",
          "$END": "end of text"}
_FOUND = {**_WORDS, "_INDENT": "indentation (this line is indented more than the one before)",
          "_DEDENT": "end of block (this line is indented less)"}
_EXPRESSION_STARTS = {"NAME", "INT", "STRING", "LPAR", "LSQB", "MINUS", "NOT", "TRUE", "FALSE", "NONE"}
_OPERATORS = {"+", "-", "*", "//", "%", "==", "!=", "<=", ">=", "<", ">", "and", "or", "in", "not",
              "if"}


def _syntax_error(e: UnexpectedInput, text: str) -> RulespecError:
    """The error at its cause: an unclosed bracket at the bracket, else what was
    found and what could have come, in words."""
    unclosed = _bracket_error(text)
    if unclosed is not None:
        return unclosed
    line, col = getattr(e, "line", 1) or 1, getattr(e, "column", 1) or 1
    if isinstance(e, UnexpectedToken) and e.token.type in ("_INDENT", "_DEDENT"):
        # the indenter dates these tokens from the line break before them: report
        # the first character of the line whose indentation is the surprise
        line, col = e.token.end_line or line, e.token.end_column or col
    decimal = _decimal_at(text, line, col)
    if decimal is not None:
        return decimal
    if isinstance(e, UnexpectedToken) and _block_missing(text, line):
        msg = (f"syntax error: an indented block is missing: the line before ends with `:`, so "
               f"the lines of its block come next, indented more than it (write `pass` for a "
               f"block that does nothing)")
    elif isinstance(e, UnexpectedToken):
        msg = f"syntax error: unexpected {_found(e.token)}; expected {_expected(e.expected)}"
    elif isinstance(e, UnexpectedCharacters):
        msg = f"syntax error: unexpected character `{text[e.pos_in_stream]}`"
    elif isinstance(e, UnexpectedEOF):
        msg = "syntax error: the text ends too early"
    else:
        msg = "syntax error"
    return RuleSyntaxError(msg, line=line, col=col)


_DECIMAL = re.compile(r"(?<![\w.])(\d+\.\d*|\.\d+)(?![\w.])")


def _decimal_at(text: str, line: int, col: int) -> RulespecError | None:
    """A number with a decimal point where the parser stopped (`x = 1.5`): rules
    count in whole numbers, which the parser alone would call an unexpected `5`."""
    lines = text.split("\n")
    if not 0 < line <= len(lines):
        return None
    for match in _DECIMAL.finditer(lines[line - 1]):
        if match.start() <= col - 1 <= match.end():
            return RuleSyntaxError(f"syntax error: `{match.group()}`: numbers in rules are whole "
                                   f"numbers; count in smaller units instead (tenths: 15 for 1.5)",
                                   line=line, col=match.start() + 1)
    return None


def _block_missing(text: str, line: int) -> bool:
    """Whether the statement line before `line` ends with `:` and `line` is not
    indented more than it: the block that `:` opens is empty."""
    lines = text.split("\n")
    here = lines[line - 1] if 0 < line <= len(lines) else ""
    for before in reversed(lines[:line - 1]):
        code = before.split("#", 1)[0].rstrip() if '"' not in before else before.rstrip()
        if code:
            indent = len(before) - len(before.lstrip())
            return code.endswith(":") and len(here) - len(here.lstrip()) <= indent
    return False


def _literal(name: str) -> str | None:
    """The text a terminal stands for (`)` for RPAR), or None for a pattern."""
    for terminal in _parser().terminals:
        if terminal.name == name:
            return terminal.pattern.value if terminal.pattern.type == "str" else None
    return None


def _found(token) -> str:
    if token.type in _FOUND:
        return _FOUND[token.type]
    kind = {"NAME": "name ", "INT": "number ", "STRING": "string "}.get(token.type, "")
    return f"{kind}`{token}`"


def _expected(names) -> str:
    """Every token the parser would accept, quoted, with the usual groups in words:
    'an expression or `)`' rather than twelve token names."""
    names, words = set(names), []
    if "NAME" in names and names & {"INT", "STRING", "LPAR"}:
        words.append("an expression")
        names -= _EXPRESSION_STARTS
    elif "NAME" in names:
        words.append("a name")
        names.discard("NAME")
    literals = {name: _literal(name) for name in names if name not in _WORDS}
    operators = {n for n, lit in literals.items() if lit in _OPERATORS}
    if len(operators) >= 3:
        words.append("an operator")
        names -= operators
    quoted = sorted("`+=`, `-=`" if n == "AUGOP" else f"`{literals[n] or n.lower()}`"
                    for n in names if n not in _WORDS)
    words += quoted + sorted(_WORDS[n] for n in names if n in _WORDS)
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


_CLOSER = {"(": ")", "[": "]", "{": "}"}


def _bracket_error(text: str) -> RuleSyntaxError | None:
    """An opening bracket left open (or closed by the wrong one), reported where it
    opens: a missing `)` otherwise shows up lines later, at whatever comes next."""
    stack: list[tuple[str, int, int]] = []
    quote = None
    for number, line in enumerate(text.split("\n"), 1):
        col, escaped = 0, False
        for col, ch in enumerate(line, 1):
            if quote:
                escaped, quote = (not escaped and ch == "\\"), (None if ch == quote and not escaped else quote)
                continue
            if ch in "\"'":
                quote, escaped = ch, False
            elif ch == "#":
                break
            elif ch in _CLOSER:
                stack.append((ch, number, col))
            elif ch in _CLOSER.values():
                if not stack:
                    return RuleSyntaxError(f"syntax error: `{ch}` closes no bracket", line=number, col=col)
                opener, at_line, at_col = stack.pop()
                if _CLOSER[opener] != ch:
                    return RuleSyntaxError(f"syntax error: this `{opener}` is not closed (a `{ch}` "
                                           "comes first, at {also})", line=at_line, col=at_col,
                                           also=(number, col))
        quote = None   # strings do not span lines
    if stack:
        opener, at_line, at_col = stack[-1]
        return RuleSyntaxError(f"syntax error: this `{opener}` is never closed; a `{_CLOSER[opener]}` "
                             f"is missing", line=at_line, col=at_col)
    return None


def _dedent_error(text: str) -> RuleSyntaxError:
    """The first line whose indentation matches no enclosing block."""
    levels = [0]
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        indent = len(line) - len(line.lstrip())
        if indent > levels[-1]:
            levels.append(indent)
            continue
        while indent < levels[-1]:
            levels.pop()
        if indent != levels[-1]:
            return RuleSyntaxError("syntax error: this line's indentation matches no enclosing "
                                 "block", line=number, col=indent + 1)
    return RuleSyntaxError("syntax error: inconsistent indentation", line=1, col=1)


def _pos(meta_or_token):
    return (getattr(meta_or_token, "line", 1) or 1, getattr(meta_or_token, "column", 1) or 1)


def _check_nesting(tree) -> None:
    """Refuse a parse tree deeper than NESTING levels, found without recursion."""
    todo = [(tree, 1)]
    while todo:
        node, depth = todo.pop()
        if depth > NESTING:
            line, col = _pos(node.meta)
            raise RulespecError(f"this rule nests more than {NESTING} levels deep (the nesting "
                                f"limit), about {NESTING // 2} blocks one inside another: split it "
                                f"into functions or procedures",
                                line=line, col=col)
        todo.extend((child, depth + 1) for child in node.children if isinstance(child, Tree))


_ESCAPES = {"\\": "\\", '"': '"', "'": "'", "n": "\n", "t": "\t", "r": "\r", "0": "\0"}


def _unquote(token: Token) -> str:
    r"""A string literal's text, its escapes decoded: \\ \" \' \n \t \r \0 \xHH
    \uHHHH. Decoded here, never by Python's parser: a spec is data."""
    body, out, i = str(token)[1:-1], [], 0
    line, col = _pos(token)
    while i < len(body):
        c = body[i]
        if c == "\\":
            i, decoded = _escape(body, i + 1, line, col + 1 + i)
            out.append(decoded)
            continue
        if c < " " and c != "\t":
            raise RulespecError(f"a control character (U+{ord(c):04X}) in a string: write it as "
                                f"an escape such as \\n", line=line, col=col + 1 + i)
        out.append(c)
        i += 1
    return "".join(out)


def _escape(body: str, i: int, line: int, col: int) -> tuple[int, str]:
    """The escape whose letter is at body[i]: (index after it, the character)."""
    c = body[i]
    if c in _ESCAPES:
        return i + 1, _ESCAPES[c]
    width = {"x": 2, "u": 4}.get(c)
    digits = body[i + 1:i + 1 + width] if width else ""
    if width and len(digits) == width and all(d in "0123456789abcdefABCDEF" for d in digits):
        return _character(body, i + 1 + width, int(digits, 16), line, col)
    raise RulespecError(f"unknown escape \\{c}{digits} in a string: the escapes are "
                        f"\\\\ \\\" \\' \\n \\t \\r \\0 \\xHH \\uHHHH", line=line, col=col)


def _character(body: str, i: int, code: int, line: int, col: int) -> tuple[int, str]:
    """The character of escape code `code` ending at body[i]; a UTF-16 pair of
    escapes (`\\ud83c\\udfb2`) makes one character. A lone half is no text: refused."""
    if 0xD800 <= code < 0xDC00 and body[i:i + 2] == "\\u":
        low = body[i + 2:i + 6]
        if len(low) == 4 and all(d in "0123456789abcdefABCDEF" for d in low) \
                and 0xDC00 <= int(low, 16) < 0xE000:
            return i + 6, chr(0x10000 + ((code - 0xD800) << 10) + int(low, 16) - 0xDC00)
    if 0xD800 <= code < 0xE000:
        raise RulespecError(unpaired_surrogate(chr(code)), line=line, col=col)
    return i, chr(code)


@v_args(meta=True, inline=True)
class _ToAst(Transformer):
    """Tree -> AST. Method names are the grammar's aliases."""

    # expressions
    def number(self, meta, tok):
        digits = len(tok.lstrip("0"))
        if digits > MAX_INTEGER_DIGITS:
            line, col = _pos(meta)
            raise RulespecError(f"a number of {digits:,} digits: the integer limit is "
                                f"{MAX_INTEGER_DIGITS:,} digits", line=line, col=col)
        return ast.Number(*_pos(meta), int(tok))

    def string(self, meta, tok):
        return ast.String(*_pos(meta), _unquote(tok))

    def true(self, meta):
        return ast.Const(*_pos(meta), True)

    def false(self, meta):
        return ast.Const(*_pos(meta), False)

    def none(self, meta):
        return ast.Const(*_pos(meta), None)

    def name(self, meta, tok):
        return ast.Name(*_pos(meta), str(tok))

    def attr(self, meta, obj, name):
        # positioned at the attribute's name: that is the word an error is about
        return ast.Attr(*_pos(name), obj, str(name))

    def index(self, meta, obj, key):
        return ast.Index(*_pos(meta), obj, key)

    def call(self, meta, func, args):
        args = args or ([], {})
        return ast.Call(*_pos(meta), str(func), args[0], args[1])

    def args(self, meta, *items):
        positional, keywords = [], {}
        for item in items:
            if isinstance(item, tuple):
                keywords[item[0]] = item[1]
            else:
                positional.append(item)
        return positional, keywords

    def kwarg(self, meta, name, value):
        return (str(name), value)

    def list_(self, meta, *items):
        return ast.ListLit(*_pos(meta), [i for i in items if i is not None])

    def comprehension(self, meta, elt, var, it, cond):
        return ast.Comprehension(*_pos(meta), elt, str(var), it, cond)

    def neg(self, meta, operand):
        return ast.Neg(*_pos(meta), operand)

    def not_(self, meta, operand):
        return ast.Not(*_pos(meta), operand)

    def and_(self, meta, left, right):
        items = left.items if isinstance(left, ast.And) else [left]
        return ast.And(*_pos(meta), items + [right])

    def or_(self, meta, left, right):
        items = left.items if isinstance(left, ast.Or) else [left]
        return ast.Or(*_pos(meta), items + [right])

    def compare(self, meta, left, op, right):
        return ast.Compare(*_pos(meta), left, op, right)

    def comp_op(self, meta, *toks):
        return " ".join(str(t) for t in toks)

    add_op = mul_op = comp_op

    def arith(self, meta, left, op, right):
        return ast.Arith(*_pos(meta), left, op, right)

    def if_exp(self, meta, then, cond, orelse):
        return ast.IfExp(*_pos(meta), then, cond, orelse)

    def expression(self, meta, expr):
        return expr

    # statements
    def block(self, meta, *stmts):
        return ast.Block(*_pos(meta), list(stmts))

    def suite(self, meta, *stmts):
        return list(stmts)

    def assign(self, meta, target, value):
        return ast.Assign(*_pos(meta), _target(target), value)

    def aug_assign(self, meta, target, op, value):
        return ast.AugAssign(*_pos(meta), _target(target), str(op), value)

    def call_stmt(self, meta, call):
        if not isinstance(call, ast.Call):
            raise _not_a_statement(*_pos(meta))
        return ast.CallStmt(*_pos(meta), call)

    def choose_one(self, meta, target, options, by, prompt):
        return ast.ChooseOne(*_pos(meta), _target(target), options, by, prompt)

    def choose_number(self, meta, target, low, high, by, prompt):
        return ast.ChooseNumber(*_pos(meta), _target(target), low, high, by, prompt)

    def choose_several(self, meta, target, up_to, count, options, by, prompt):
        return ast.ChooseSeveral(*_pos(meta), _target(target), up_to is not None, count, options,
                                 by, prompt)

    def up_to(self, meta):
        return True

    def prompt(self, meta, text):
        return _unquote(text)

    def until_done(self, meta):
        return True

    def auction(self, meta, target, among, *opts):
        node = ast.Auction(*_pos(meta), _target(target), among)
        *opts, node.prompt = opts
        for key, value in opts:
            setattr(node, "raise_" if key == "raise" else key, value)
        return node

    def auction_opt(self, meta, key, value):
        return (str(key), value)

    def turn(self, meta, player, until_done, prompt, *rest):
        *actions, orelse = rest
        return ast.Turn(*_pos(meta), player, until_done is not None, [str(a) for a in actions],
                        [_pos(a) for a in actions], [orelse] if orelse is not None else [], prompt)

    def turn_else(self, meta, stmt):
        return stmt

    def run_phase(self, meta, name):
        # positioned at the phase's name: that is the word an error is about
        return ast.RunPhase(*_pos(name), str(name))

    def signal(self, meta, name, args):
        args = args or ([], {})
        return ast.Signal(*_pos(meta), str(name), args[0], args[1])

    def end_game(self, meta, reason):
        return ast.EndGame(*_pos(meta), _unquote(reason) if reason is not None else None)

    def return_(self, meta, value):
        return ast.Return(*_pos(meta), value)

    def pass_(self, meta):
        return ast.Pass(*_pos(meta))

    def if_stmt(self, meta, cond, body, *rest):
        orelse = []
        for clause in reversed(rest):
            if clause[0] == "else":
                orelse = clause[1]
            else:
                _, c, b, line, col = clause
                orelse = [ast.If(line, col, c, b, orelse)]
        return ast.If(*_pos(meta), cond, body, orelse)

    def elif_clause(self, meta, cond, body):
        return ("elif", cond, body, *_pos(meta))

    def else_clause(self, meta, body):
        return ("else", body)

    def for_stmt(self, meta, var, it, where, body):
        return ast.For(*_pos(meta), str(var), it, where, body)

    def while_stmt(self, meta, cond, body):
        return ast.While(*_pos(meta), cond, body)

    def menu(self, meta, by, prompt, *options):
        return ast.Menu(*_pos(meta), by, list(options), prompt)

    def menu_option(self, meta, label, cond, body):
        return ast.MenuOption(*_pos(meta), _unquote(label), cond, body)

    def secretly(self, meta, var, it, body):
        return ast.Secretly(*_pos(meta), str(var), it, body)


def _target(node):
    if isinstance(node, (ast.Name, ast.Attr, ast.Index)):
        return node
    raise RulespecError("cannot assign to this: a target is a name, x.attribute or x[index]",
                        line=node.line, col=node.col)


def _not_a_statement(line, col):
    return RulespecError("this expression does nothing on its own: a statement is an "
                         "assignment, a call, or a keyword such as `if` or `choose`",
                         line=line, col=col)
