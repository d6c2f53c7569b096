"""Load a spec file safely: YAML in, plain data plus source positions out.

The YAML is only *composed* (parsed into a node tree) by PyYAML's SafeLoader;
this module turns nodes into dicts, lists and scalars itself, so no tag can
ever construct a Python object, duplicate keys are caught instead of silently
overwritten, and every value keeps the line and column it came from.
"""
from __future__ import annotations

import copy
import difflib
import functools
import json
import os
import re
from dataclasses import dataclass, field
from typing import NamedTuple

import yaml
from yaml.constructor import SafeConstructor

from .errors import RulespecError, SpecErrors, UnknownVariant, unpaired_surrogate
from .inputs import is_pipe, open_input
from .limits import SPEC_BYTES, VARIANTS, YAML_NODES

MAX_FLOW_DEPTH = 200   # nested [ and {; the composer recurses out at a few hundred anyway
_STD = "tag:yaml.org,2002:"
_SCALAR_TAGS = {_STD + t for t in ("str", "int", "float", "bool", "null")}
_MAP, _SEQ = _STD + "map", _STD + "seq"
# YAML 1.1 reads yes/no/on/off as booleans, which turns a trigger's `on:` key
# into True; like YAML 1.2's core schema, only these spellings are booleans.
_BOOLS = {"true": True, "True": True, "TRUE": True,
          "false": False, "False": False, "FALSE": False}
_CONSTRUCT = SafeConstructor()   # only its scalar methods are used; they need no state
_BAD = object()                  # a key that could not be used


class ScalarInfo(NamedTuple):
    """Where a string scalar is written and how (for positions inside the text)."""
    line: int        # 1-based position of the scalar (of the `|` / `>` for block scalars)
    col: int
    style: str       # '' plain, '"', "'", '|', '>'
    indent: int      # block scalars: columns before the text; others: col - 1
    end_line: int = 0   # last source line of the scalar (0: same as line)


@dataclass
class Assumption:
    path: str
    line: int
    col: int
    reason: str
    value: object


@dataclass
class Spec:
    data: dict
    file: str
    source: str
    variant: str | None = None
    marks: dict = field(default_factory=dict)
    scalars: dict = field(default_factory=dict)
    assumptions: list[Assumption] = field(default_factory=list)
    # (path in the merged spec, path in the variant) of each name a variant adds to
    # a declaring section (a constant, a variable) that the base does not have
    added: list = field(default_factory=list)

    def mark(self, path) -> tuple[int, int]:
        """The mark of `path`, or of its nearest ancestor that has one."""
        path = tuple(path)
        while path and path not in self.marks:
            path = path[:-1]
        return self.marks.get(path, (1, 1))

    def error(self, message: str, path) -> RulespecError:
        line, col = self.mark(path)
        return RulespecError(message, self.file, line, col, path_str(tuple(path)))

    def text_position(self, path, line: int, col: int) -> tuple[int, int]:
        """(line, col) inside the string at `path` -> (line, col) in the file."""
        try:
            at = self._text_position(tuple(path), line, col)
        except Exception:   # best-effort by contract: a position is never worth a crash
            return self.mark(path)
        # an empty block scalar at the end of the file (`a: |` as its last line) has
        # no line of its own to point into: its key's mark, never a line past the end
        return at if 1 <= at[0] <= self.source.count("\n") + 1 else self.mark(path)

    def _text_position(self, path, line, col):
        info = self.scalars.get(path)
        if info is None:
            return self.mark(path)
        if info.style == "|":
            return info.line + line, info.indent + col
        if info.style in ('"', "'"):
            return _quoted_position(self.source, info, line, col)
        if info.style != ">" and info.end_line <= info.line:
            quote = 1 if info.style else 0
            return info.line, info.col + quote + col - 1
        return _folded_position(self.source, info, line, col)


def path_str(path: tuple) -> str:
    """("phases", "x", 2, "my key") -> '$.phases.x[2]["my key"]'."""
    out = "$"
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        elif isinstance(part, str) and part.isidentifier() and part.isprintable():
            out += "." + part
        else:
            out += f"[{_escaped(json.dumps(str(part), ensure_ascii=False))}]"
    return out


def _escaped(text: str) -> str:
    """`text` with each character a terminal would not print as itself (U+202E and
    other bidi, format and control characters, which reorder or hide the rest of
    the line) written as repr writes it, as messages show names (`{name!r}`)."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def did_you_mean(name, candidates) -> str:
    """" (did you mean 'x'?)" for the closest candidate, or "". Near-linear in the
    number of unknown names: candidates are looked up through a bigram index
    (_Suggestions), and only the few that share most bigrams are compared."""
    name = str(name)
    if len(name) > 64:      # difflib is quadratic in the length; no name is that long
        return ""
    close = _suggestions(tuple(str(c) for c in candidates)).closest(name)
    return f" (did you mean {close!r}?)" if close else ""


@functools.lru_cache(maxsize=64)
def _suggestions(candidates: tuple) -> "_Suggestions":
    return _Suggestions(candidates)


class _Suggestions:
    """An index of candidate names by their bigrams (pairs of adjacent characters)."""
    SHORTLIST = 12

    def __init__(self, candidates: tuple):
        self.candidates = candidates
        self.by_bigram: dict[str, list[int]] = {}
        for i, c in enumerate(candidates):
            for bigram in _bigrams(c):
                self.by_bigram.setdefault(bigram, []).append(i)

    def closest(self, name: str) -> str | None:
        hits: dict[int, int] = {}
        for bigram in _bigrams(name):
            for i in self.by_bigram.get(bigram, ()):
                hits[i] = hits.get(i, 0) + 1
        if not hits:    # no bigram in common: short names; compare them all (few)
            shortlist = [c for c in self.candidates if len(c) <= 3]
        else:
            best = sorted(hits, key=hits.get, reverse=True)[:self.SHORTLIST]
            shortlist = [self.candidates[i] for i in best]
        close = difflib.get_close_matches(name, shortlist, n=1)
        return close[0] if close else None


def _bigrams(text: str) -> set[str]:
    padded = f" {text} "
    return {padded[i:i + 2] for i in range(len(padded) - 1)}


def load_spec(source: str | os.PathLike, variant: str | None = None,
              text: str | None = None) -> Spec:
    """Read, compose, convert and check a spec; raise SpecErrors for any problem."""
    file = str(os.fspath(source))
    if text is None:
        text = _read(file)
    text = _line_breaks(file, text)
    try:
        return _build(file, text, variant)
    except RecursionError:
        raise SpecErrors([RulespecError("YAML is nested too deeply", file, 1, 1)]) from None


def _build(file: str, text: str, variant: str | None) -> Spec:
    root = _compose(file, text)
    if not isinstance(root, yaml.MappingNode):
        line, col = _pos(root) if root is not None else (1, 1)
        _fail([RulespecError("a spec must be a YAML mapping at the top level", file, line, col)])
    _check_size(file, root)
    _check_variants(file, root)
    spec = Spec({}, file, text, variant)
    spec.data = _Converter(spec).run(root)
    found = _Assumptions(spec).run()
    if variant is not None:
        found = _apply_variant(spec, variant, found)
    spec.assumptions = [a for _, a in found]
    return spec


def _check_variants(file: str, root: yaml.MappingNode) -> None:
    """Refuse more than limits.VARIANTS variants, at the first one too many:
    `validate` checks each variant as a whole spec, so each costs as much as the base."""
    for key, value in root.value:
        if key.value == "variants" and isinstance(value, yaml.MappingNode) \
                and len(value.value) > VARIANTS:
            line, col = _pos(value.value[VARIANTS][0])
            _fail([RulespecError(f"the spec has {len(value.value):,} variants, over the limit "
                                 f"of {VARIANTS:,} (limits: variants): make the rarer ones "
                                 f"specs of their own", file, line, col)])


def _fail(errors: list[RulespecError], assumptions=()):
    raise SpecErrors(sorted(errors, key=lambda e: (e.line or 0, e.col or 0)), assumptions)


_UNSEEN_BREAKS = re.compile("[\x85\u2028\u2029]")
_BREAK_NAMES = {"\x85": "NEXT LINE", "\u2028": "LINE SEPARATOR", "\u2029": "PARAGRAPH SEPARATOR"}


def _line_breaks(file: str, text: str) -> str:
    """The text with `\\r\\n` and a lone `\\r` made `\\n`, so every position the loader
    counts (by `\\n`) is YAML's, and an editor's: both break lines there. YAML
    also breaks at U+0085, U+2028 and U+2029, which editors show as no break (so
    an error after one would be reported lines below where the author sees it):
    those are refused. Raises SpecErrors."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    errors = []
    for found in _UNSEEN_BREAKS.finditer(text):
        line = text.count("\n", 0, found.start()) + 1
        col = found.start() - text.rfind("\n", 0, found.start())
        char = found.group()
        errors.append(RulespecError(
            f"a U+{ord(char):04X} {_BREAK_NAMES[char]}: YAML reads it as a line break where "
            f"most editors show none; remove it, or write the escape \\u{ord(char):04x} inside "
            f"double quotes", file, line, col))
        if len(errors) == 20:
            break
    if errors:
        _fail(errors)
    return text


def _read(file: str) -> str:
    try:
        with open_input(file) as f:     # a pipe with no writer is not waited on
            raw = f.read(SPEC_BYTES + 1)    # /dev/zero never ends
            if not raw and is_pipe(f):
                _fail([RulespecError(f"cannot read {file}: a pipe that gave nothing to read",
                                     file, 1, 1)])
    except OSError as e:
        _fail([RulespecError(f"cannot read {file}: {e.strerror or e}", file, 1, 1)])
    if len(raw) > SPEC_BYTES:
        _fail([RulespecError(f"cannot read {file}: larger than the limit of "
                             f"{SPEC_BYTES // 2**20} MB for a spec", file, 1, 1)])
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as e:
        before = raw[:e.start]
        line = before.count(b"\n") + 1
        col = len(before) - (before.rfind(b"\n") + 1) + 1
        _fail([RulespecError(f"cannot read {file}: not valid UTF-8 ({e.reason} at byte {e.start})",
                             file, line, col)])


# ---------------------------------------------------------------- composing

class _Loader(yaml.SafeLoader):
    """SafeLoader that remembers which nodes carried an explicit tag.

    The composed node only has the resolved tag, and a plain `2001-01-01`
    resolves to timestamp just like `!!timestamp 2001-01-01` does; only the
    latter is a tag the author wrote and must be refused.
    """

    def compose_node(self, parent, index):
        event = self.peek_event()
        node = super().compose_node(parent, index)
        if not isinstance(event, yaml.AliasEvent):
            node.explicit_tag = event.tag not in (None, "!")
        return node

    def fetch_flow_collection_start(self, token_class):
        # The scanner looks ahead across every open bracket, in time quadratic
        # in their depth: a few kilobytes of "[[[[" would take minutes.
        if self.flow_level >= MAX_FLOW_DEPTH:
            raise yaml.scanner.ScannerError(
                None, None, f"nested more than {MAX_FLOW_DEPTH} levels deep", self.get_mark())
        super().fetch_flow_collection_start(token_class)


def _compose(file: str, text: str):
    fast = _compose_fast(text)
    if fast is not None:
        return fast
    try:
        return yaml.compose(text, Loader=_Loader)
    except yaml.MarkedYAMLError as e:
        message, mark = _plain_words(e, text)
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        _fail([RulespecError(f"invalid YAML: {message}", file, line, col)])
    except yaml.reader.ReaderError as e:   # a control character or the like
        before = text[:e.position]
        line, col = before.count("\n") + 1, e.position - (before.rfind("\n") + 1) + 1
        char = f"#x{e.character:04x}" if isinstance(e.character, int) else repr(e.character)
        _fail([RulespecError(f"invalid YAML: unacceptable character {char}: {e.reason}",
                             file, line, col)])
    except yaml.YAMLError as e:
        _fail([RulespecError(f"invalid YAML: {e}", file, 1, 1)])


def _compose_fast(text: str):
    """libyaml's composer, 10x faster, where it gives the same tree: when no event
    carries an explicit tag (which _Loader must spot; `!=` in an expression is
    no tag), and a text that fails is composed again by _Loader, whose error
    messages and guards are the ones we report."""
    composer = getattr(yaml, "CSafeLoader", None)
    if composer is None or "[[[[" in text or "{{{{" in text:
        return None
    try:
        if "!" in text and any(getattr(event, "tag", None) not in (None, "!")
                               for event in yaml.parse(text, Loader=composer)):
            return None
        root = yaml.compose(text, Loader=composer)
    except yaml.YAMLError:
        return None
    _mark_untagged(root)
    return root


def _mark_untagged(root) -> None:
    """Give every node the `explicit_tag = False` that _Loader would have set."""
    seen, todo = set(), [root]
    while todo:
        node = todo.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        node.explicit_tag = False
        if isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                todo.extend((key, value))
        elif isinstance(node, yaml.SequenceNode):
            todo.extend(node.value)


def _plain_words(e: yaml.MarkedYAMLError, text: str):
    """(message, mark) of a YAML syntax error in a designer's words, at its cause.

    PyYAML names parser states ("expected <block end>, but found '<block mapping
    start>'") where the parser noticed; the usual causes are a line indented to no
    level above it, a key without `:`, an unclosed quote or bracket, or a tab.
    """
    problem, context = e.problem or "", e.context or ""
    here, opened = e.problem_mark, e.context_mark or e.problem_mark
    lines = text.split("\n")
    if "'\\t'" in problem or "\\t" in problem:
        return "a tab in the indentation: YAML indents with spaces only", here
    if "end of stream" in problem and "quoted scalar" in context:
        return "this quote is never closed", opened
    if "flow" in context and opened is not None:
        bracket = text_at(lines, opened)
        return (f"this `{bracket}` is never closed, or an item in it lacks its `,` "
                f"({_found(problem)} at line {here.line + 1})"), opened
    long_key = _long_key(lines, problem, opened, here)
    if long_key is not None:
        return ("a key longer than 1,024 characters (YAML's limit for a plain key): "
                "shorten it"), long_key
    if "could not find expected ':'" in problem and opened is not None:
        return "this line is neither a `key: value` nor a list item: is its `:` missing?", opened
    if "mapping values are not allowed" in problem:
        return ("a `:` that starts no key here: the line is indented deeper than the keys "
                "beside it, or a value holds `: ` and needs quotes"), here
    if here is not None and ("expected <block end>" in problem or "could not find expected ':'" in problem):
        block = _block_scalar_above(lines, here.line)
        if block is not None:
            row, first = block
            width = len(lines[here.line]) - len(lines[here.line].lstrip(" "))
            return (f"this line is indented {width} space{'s' * (width != 1)}, less than the "
                    f"block above it, whose first line (line {row + 1}) set its indentation at "
                    f"{first}: YAML ends the block there and reads this line as a new key. "
                    f"Indent every line of a `|` block at least as deep as its first"), here
    if "expected <block end>" in problem and here is not None:
        found = problem.split("but found ", 1)[-1].strip("'")
        if found == "?" and "block collection" in context:
            return ("a `key: value` line among list items (`- ...`): make it an item, or "
                    "indent it under one"), here
        if found in ("<block mapping start>", "<block sequence start>", "?", "-"):
            width = len(lines[here.line]) - len(lines[here.line].lstrip(" "))
            return (f"this line's indentation ({width} space{'s' * (width != 1)}) matches no "
                    f"key or list item "
                    f"above it"), here
        return f"`{found}` does not belong here (a bracket closed twice?)", here
    if "found undefined alias" in problem:
        return f"{problem.split('alias', 1)[-1].strip()} names no anchor (`&name`) above it", here
    return _yaml_problem(e), here or opened


_KEY_END = re.compile(r":(?:[ \t]|$)")
_KEY_START = re.compile(r"(?: *- )* *")


def _long_key(lines, problem: str, opened, here):
    """The mark of a key whose `:` PyYAML did not look for, being more than 1,024
    characters on (it scans no further for a simple key's `:`), or None. The
    key's first character is where the scanner began it (could not find ':') or
    its line's first one, after any `- ` (a `:` no key starts: the key was given
    up on before its `:` was reached)."""
    if "could not find expected ':'" in problem and opened is not None:
        line, start, colon = opened.line, opened.column, None
    elif "mapping values are not allowed" in problem and here is not None:
        line, colon = here.line, here.column   # the `:` refused must end that key
        start = _KEY_START.match(lines[line] if line < len(lines) else "").end()
    else:
        return None
    end = _KEY_END.search(lines[line] if line < len(lines) else "", start)
    if end is None or end.start() - start <= 1024 or colon not in (None, end.start()):
        return None
    return yaml.Mark("", 0, line, start, None, None)


_BLOCK_HEADER = re.compile(r"^( *)(?:- )?[^#\s][^#]*:\s*[|>][-+0-9]*\s*(?:#.*)?$")


def _block_scalar_above(lines, row):
    """(row of its first line, that line's indentation) of the `|` or `>`
    block that the line at `row` comes just after, when `row` is indented deeper
    than the block's key but less than the block's first line (which sets the
    block's indentation): the line meant as part of the block. Else None."""
    width = len(lines[row]) - len(lines[row].lstrip(" "))
    for up in range(row - 1, -1, -1):
        line = lines[up]
        if not line.strip():
            continue
        indent = len(line) - len(line.lstrip(" "))
        header = _BLOCK_HEADER.match(line)
        if header is not None:
            content = next((i for i in range(up + 1, row) if lines[i].strip()), None)
            if content is None:
                return None
            first = len(lines[content]) - len(lines[content].lstrip(" "))
            return (content, first) if len(header.group(1)) < width < first else None
        if indent <= width:     # a line at this line's depth or less: not inside a block
            return None
    return None


def text_at(lines, mark) -> str:
    line = lines[mark.line] if mark.line < len(lines) else ""
    return line[mark.column:mark.column + 1] or "?"


def _found(problem: str) -> str:
    """"expected ',' or '}', but got ':'" -> "a stray `:`"."""
    got = problem.split("but got ", 1)[-1].strip("'") if "but got" in problem else "?"
    return f"a stray `{got}`" if got not in ("<stream end>", "?") else "the end of the file"


def _yaml_problem(e: yaml.MarkedYAMLError) -> str:
    problem, context = e.problem or "", e.context
    if not context:
        return problem
    if problem.startswith("but "):   # "expected a single document ..., but found another"
        return f"{context}, {problem}"
    where = f" at line {e.context_mark.line + 1}" if e.context_mark else ""
    return f"{problem} ({context}{where})"


def _check_size(file: str, root) -> None:
    """Refuse alias bombs before converting anything.

    Aliases share nodes, so the composed graph is small even when its
    expansion is astronomically large; counting with memoisation on node
    identity costs one visit per distinct node.
    """
    sizes: dict[int, int] = {}
    visiting: set[int] = set()
    distinct = sum(1 for _ in _distinct(root))

    def size(node) -> int:
        key = id(node)
        if key in sizes:
            return sizes[key]
        if key in visiting:
            raise _BadGraph("a YAML alias refers to a node that contains it (recursive structure)", node)
        visiting.add(key)
        total = 1
        for child in _children(node):
            total += size(child)
            if total > YAML_NODES:
                raise _BadGraph(_too_many(distinct), node)
        visiting.discard(key)
        sizes[key] = total
        return total

    try:
        size(root)
    except _BadGraph as e:
        line, col = _pos(e.node)
        _fail([RulespecError(e.message, file, line, col)])


def _too_many(distinct: int) -> str:
    """Say which limit a too-large spec hits: its own size, or aliases that expand."""
    if distinct > YAML_NODES:
        return f"the spec has more than {YAML_NODES:,} YAML nodes (the YAML-nodes limit)"
    return (f"YAML aliases expand to more than {YAML_NODES:,} nodes (the YAML-nodes limit; "
            f"an alias bomb?)")


def _distinct(root):
    """Every node once, aliases not followed twice; without recursion."""
    seen, todo = set(), [root]
    while todo:
        node = todo.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        yield node
        todo.extend(_children(node))


class _BadGraph(Exception):
    def __init__(self, message, node):
        super().__init__(message)
        self.message, self.node = message, node


def _children(node):
    if isinstance(node, yaml.SequenceNode):
        return node.value
    if isinstance(node, yaml.MappingNode):
        return [n for pair in node.value for n in pair]
    return []


def _pos(node) -> tuple[int, int]:
    return node.start_mark.line + 1, node.start_mark.column + 1


def _short_tag(tag: str) -> str:
    return "!!" + tag[len(_STD):] if tag.startswith(_STD) else tag


# ---------------------------------------------------------------- converting

class _Converter:
    """Node tree -> plain data, filling spec.marks and spec.scalars."""

    def __init__(self, spec: Spec):
        self.spec = spec
        self.lines = spec.source.split("\n")
        self.errors: list[RulespecError] = []

    def run(self, root) -> dict:
        self.spec.marks[()] = _pos(root)
        data = self.value(root, ())
        if self.errors:   # what could be read still holds the `assumed:` values to list
            _fail(self.errors, _Assumptions(self.spec).readable(data))
        return data

    def error(self, message: str, node, path) -> None:
        line, col = _pos(node)
        self.errors.append(RulespecError(message, self.spec.file, line, col, path_str(path)))

    def value(self, node, path):
        if isinstance(node, yaml.ScalarNode):
            return self.scalar(node, path)
        expected = _SEQ if isinstance(node, yaml.SequenceNode) else _MAP
        if node.tag != expected:
            self.error(f"YAML tags are not allowed here ({_short_tag(node.tag)})", node, path)
            return None
        if isinstance(node, yaml.SequenceNode):
            out = []
            for i, item in enumerate(node.value):
                self.spec.marks[path + (i,)] = _pos(item)
                out.append(self.value(item, path + (i,)))
            return out
        return self.mapping(node, path)

    def mapping(self, node, path) -> dict:
        out: dict = {}
        first_line: dict = {}
        for key_node, value_node in node.value:
            key = self.key(key_node, path)
            if key is _BAD:
                continue
            if key in first_line:
                self.error(f"duplicate key {key!r} (first at line {first_line[key]})",
                           key_node, path + (key,))
                continue
            first_line[key] = key_node.start_mark.line + 1
            self.spec.marks[path + (key,)] = _pos(key_node)
            out[key] = self.value(value_node, path + (key,))
        return out

    def key(self, node, path):
        if not isinstance(node, yaml.ScalarNode):
            self.error("a mapping key must be a string or an integer, not a "
                       + ("list" if isinstance(node, yaml.SequenceNode) else "mapping"), node, path)
            return _BAD
        if node.tag == _STD + "merge" and not node.explicit_tag:
            self.error("merge keys ('<<') are not supported", node, path)
            return _BAD
        key = self.scalar_value(node, path, key=True)
        if key is _BAD:
            return _BAD
        if isinstance(key, bool) or not isinstance(key, (str, int)):
            self.error(f"a mapping key must be a string or an integer; quote it: '{node.value}'",
                       node, path)
            return _BAD
        return key

    def scalar(self, node, path):
        value = self.scalar_value(node, path)
        if value is _BAD:
            return None
        if isinstance(value, str):
            self.spec.scalars[path] = self.scalar_info(node)
        return value

    def tagged_value(self, node, path):
        """The scalar's value by its tag; only the standard scalar tags convert."""
        tag, text = node.tag, node.value
        if node.explicit_tag and tag not in _SCALAR_TAGS:
            self.error(f"YAML tags are not allowed here ({_short_tag(tag)})", node, path)
            return _BAD
        try:
            if tag == _STD + "int":
                return _CONSTRUCT.construct_yaml_int(node)
            if tag == _STD + "float":
                number = _CONSTRUCT.construct_yaml_float(node)
                if number - number != 0:     # inf or nan: no rule can use it, no JSON can hold it
                    self.error(f"not a finite number: {text!r}", node, path)
                    return _BAD
                return number
            if tag == _STD + "null":
                return None
            if tag == _STD + "bool":
                return _CONSTRUCT.construct_yaml_bool(node) if node.explicit_tag \
                    else _BOOLS.get(text, text)
        except (ValueError, KeyError, IndexError, TypeError):
            self.error(f"not a valid {_short_tag(tag)} value: {text!r}", node, path)
            return _BAD
        return text   # str, and implicit timestamp / merge / value stay strings

    def scalar_value(self, node, path, key=False):
        """The scalar's value; a plain scalar that YAML 1.1 and 1.2 read differently
        (`08`, `010`, `1:30`, `yes`) is refused with its fix, so the value never
        depends on which YAML a reader speaks. Keys keep `on:` and friends, which
        the spec format itself uses (a trigger's `on:`)."""
        value = self.tagged_value(node, path)
        if isinstance(value, str) and _SURROGATE.search(value):
            self.error(unpaired_surrogate(_SURROGATE.search(value).group()), node, path)
            return _BAD
        if value is _BAD or node.style or node.explicit_tag:
            return value
        yaml11 = _yaml11(node, value)
        if key and isinstance(yaml11, bool) and isinstance(value, str):
            return value
        problem = _ambiguous(node.value, yaml11)
        if problem:
            self.error(problem, node, path)
            return _BAD
        return value

    def scalar_info(self, node) -> ScalarInfo:
        line, col = _pos(node)
        style = node.style or ""
        end = node.end_mark
        end_line = end.line + 1 if end.column > 0 else max(end.line, line)
        indent = col - 1
        if style in ("|", ">"):
            body = [s for s in self.lines[line:end_line] if s.strip()]
            indent = min((len(s) - len(s.lstrip(" ")) for s in body), default=col - 1)
            header = re.match(r"[|>][+-]?([1-9])?", self.lines[line - 1][col - 1:])
            if header and header.group(1):   # `|2`: the text starts 2 past the parent's indent
                parent = re.match(r"[ ]*(?:-[ ]+)*", self.lines[line - 1]).end()
                indent = parent + int(header.group(1))
        return ScalarInfo(line, col, style, indent, end_line)


_SURROGATE = re.compile("[\ud800-\udfff]")


_ESCAPE_LENGTH = {"x": 2, "u": 4, "U": 8}   # hex digits after \\x, \\u, \\U


def _quoted_position(source: str, info: ScalarInfo, line: int, col: int) -> tuple[int, int]:
    """Position in a quoted scalar: its value is read back from the source the way
    YAML reads it (an escape is one character, `''` one quote, a line break folds
    to a space, or to n-1 newlines for n breaks, an escaped break to nothing),
    remembering where in the file each character of the value sits."""
    lines, quote = source.split("\n"), info.style
    chars: list[str] = []
    where: list[tuple[int, int]] = []
    n, i, breaks, joined = info.line - 1, info.col, 0, False
    while n < len(lines):
        text = lines[n].rstrip("\r")
        if n > info.line - 1:
            i = len(text) - len(text.lstrip(" \t"))
            if i == len(text):               # a blank line inside the scalar
                breaks += 1
                n += 1
                continue
        start = len(chars)
        while i < len(text):
            ch = text[i]
            if ch == quote and not (quote == "'" and text[i + 1:i + 2] == "'"):
                return _value_position(chars, where, line, col)
            if breaks and chars:
                sep = "" if joined else (" " if breaks == 1 else "\n" * (breaks - 1))
                chars += sep
                where += [where[-1]] * len(sep)
            breaks, joined = 0, False
            if quote == '"' and ch == "\\" and i + 1 == len(text):
                joined = True                # an escaped line break joins the lines
                break
            escaped = quote == '"' and ch == "\\"
            # an escaped line break is one in the value: the rules' lines are counted by them
            chars.append("\n" if escaped and text[i + 1:i + 2] == "n" else ch)
            where.append((n + 1, i + 1))
            if escaped:
                i += 2 + _ESCAPE_LENGTH.get(text[i + 1], 0)
            else:
                i += 2 if quote == "'" and ch == "'" else 1
        while len(chars) > start and chars[-1] in " \t" and not joined:
            chars.pop()                      # blanks before a folded break are not kept
            where.pop()
        breaks += 1
        n += 1
    return _value_position(chars, where, line, col)


def _value_position(chars, where, line: int, col: int) -> tuple[int, int]:
    """(line, col) in a value whose characters sit at `where` -> (line, col) in the file."""
    if not where:
        return 1, 1
    value_lines = "".join(chars).split("\n")
    offset = sum(len(s) + 1 for s in value_lines[:line - 1]) + col - 1
    if offset >= len(where):   # the end of the text: just past its last character
        last_line, last_col = where[-1]
        return last_line, last_col + 1
    return where[max(0, offset)]


# YAML 1.2's core schema, for plain scalars (https://yaml.org/spec/1.2.2/#1032-tag-resolution)
_CORE_INT = re.compile(r"[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+")
_CORE_FLOAT = re.compile(r"[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?"
                         r"|[-+]?\.(inf|Inf|INF)|\.(nan|NaN|NAN)")
_CORE_NULL = {"null", "Null", "NULL", "~", ""}


def _yaml12(text: str):
    """What YAML 1.2's core schema makes of a plain scalar."""
    if text in _CORE_NULL:
        return None
    if text in _BOOLS:
        return _BOOLS[text]
    if _CORE_INT.fullmatch(text):
        base = {"0o": 8, "0x": 16}.get(text[:2], 10)
        return int(text[2:] if base != 10 else text, base)
    if _CORE_FLOAT.fullmatch(text):
        return float(text.replace(".", "", 1) if text[-1].isalpha() else text)   # .inf, .nan
    return text


def _yaml11(node, value):
    """What YAML 1.1 (PyYAML's resolver) makes of it: the loader's value, except that
    the loader already reads booleans the 1.2 way."""
    if node.tag == _STD + "bool":
        return _CONSTRUCT.construct_yaml_bool(node)
    return value


def _ambiguous(text: str, yaml11) -> str | None:
    """The error for a plain scalar that YAML 1.1 and 1.2 read differently, or None."""
    yaml12 = _yaml12(text)
    if type(yaml11) is type(yaml12) and repr(yaml11) == repr(yaml12):
        return None

    def reading(v):
        if isinstance(v, str):
            return "text"
        return "none" if v is None else str(v).lower() if isinstance(v, bool) else str(v)
    meant = yaml11 if isinstance(yaml12, str) else yaml12
    fix = f"quote it ('{text}') for text, or write {reading(meant)}"
    return (f"{text!r} means {reading(yaml11)} to YAML 1.1 but {reading(yaml12)} to YAML 1.2: "
            f"{fix}")


def _folded_position(source: str, info: ScalarInfo, line: int, col: int) -> tuple[int, int]:
    """Position in a scalar whose text was folded from several source lines.

    Rebuild the folded text the way YAML does (a single line break becomes a
    space, n+1 breaks become n newlines), remembering where each character
    sits in the file, then look the wanted character up.
    """
    where, starts = _folded_map(source, info)
    offset = starts[min(line, len(starts)) - 1] + col - 1
    return where[max(0, min(offset, len(where) - 1))]


@functools.lru_cache(maxsize=16)
def _folded_map(source: str, info: ScalarInfo) -> tuple[list, list]:
    """The folded scalar rebuilt once (4,000 errors in one scalar ask 4,000 times):
    the file position of each of its characters, and where each of its lines starts."""
    lines = source.split("\n")
    block = info.style in ("|", ">")
    first = info.line + 1 if block else info.line
    chars: list[str] = []
    where: list[tuple[int, int]] = []
    blanks = None   # empty source lines since the last text; None before any text
    was_more = False   # the last text line was more indented than the block (`>` only)
    for n in range(first, max(info.end_line, first) + 1):
        raw = lines[n - 1].rstrip("\r")
        if n == info.line:   # first line of a flow scalar: text starts after any quote
            start = info.col - 1 + (1 if info.style else 0)
        else:
            start = len(raw) - len(raw.lstrip(" \t"))
        # A `>` block keeps what lies past its own indentation, and never folds the
        # breaks around such a more-indented line (YAML 1.2, 8.1.3).
        more = block and start > info.indent and bool(raw.strip())
        if more:
            start = info.indent
        text = raw[start:].rstrip()
        if not text:
            blanks = None if blanks is None else blanks + 1
            continue
        if blanks is not None:
            sep = "\n" * (blanks + 1) if more or was_more else ("\n" * blanks if blanks else " ")
            chars += sep
            where += [where[-1]] * len(sep)
        was_more = more
        chars += text
        where += [(n, start + i + 1) for i in range(len(text))]
        blanks = 0
    starts = [0]        # where each line of the folded text starts in `where`
    for i, c in enumerate(chars):
        if c == "\n":
            starts.append(i + 1)
    return where, starts


# ---------------------------------------------------------------- assumptions

class _Assumptions:
    """Unwrap `{value: V, assumed: why}` and drop `assumed:` keys, listing each."""

    def __init__(self, spec: Spec):
        self.spec = spec
        self.errors: list[RulespecError] = []
        self.found: list[tuple[tuple, Assumption]] = []   # path tuple kept for variants

    def run(self) -> list[tuple[tuple, Assumption]]:
        self.spec.data = self.walk(self.spec.data, ())
        if self.errors:
            _fail(self.errors, self.reasoned())
        return self.found

    def readable(self, data) -> list[Assumption]:
        """The assumptions in `data`, read from a spec with errors, without failing."""
        self.spec.data = self.walk(data, ())
        return self.reasoned()

    def reasoned(self) -> list[Assumption]:
        """Those found that give a reason (the others are errors)."""
        return [a for _, a in self.found if isinstance(a.reason, str) and a.reason.strip()]

    def walk(self, value, path):
        while isinstance(value, dict) and "assumed" in value:
            value = self.take(value, path)
        if isinstance(value, dict):
            for key in value:
                value[key] = self.walk(value[key], path + (key,))
        elif isinstance(value, list):
            for i, item in enumerate(value):
                value[i] = self.walk(item, path + (i,))
        return value

    def take(self, mapping: dict, path):
        reason = mapping["assumed"]
        line, col = self.spec.mark(path + ("assumed",))
        if not isinstance(reason, str) or not reason.strip():
            self.errors.append(self.spec.error("assumed: needs a reason (a string)",
                                               path + ("assumed",)))
        _drop(self.spec, path + ("assumed",))
        if set(mapping) == {"value", "assumed"}:
            value = mapping["value"]
            # The unwrapped value takes the place (and the marks) of `value:`.
            _move(self.spec, path + ("value",), path)
        else:
            del mapping["assumed"]
            value = mapping
        self.found.append((path, Assumption(path_str(path), line, col, reason, value)))
        return value


def _drop(spec: Spec, path: tuple) -> None:
    """Forget marks and scalar info of `path` and everything below it."""
    n = len(path)
    for table in (spec.marks, spec.scalars):
        for p in [p for p in table if p[:n] == path]:
            del table[p]


def _copy(spec: Spec, src: tuple, dst: tuple) -> None:
    """Give `dst` and its descendants the marks and scalar info of `src`'s subtree."""
    n = len(src)
    for table in (spec.marks, spec.scalars):
        for p in [p for p in table if p[:n] == src]:
            table[dst + p[n:]] = table[p]


def _move(spec: Spec, src: tuple, dst: tuple) -> None:
    """Re-root `src`'s subtree of marks and scalar info at `dst` (an ancestor of it)."""
    n = len(src)
    saved = [(table, [(p, v) for p, v in table.items() if p[:n] == src])
             for table in (spec.marks, spec.scalars)]
    _drop(spec, dst)
    for table, entries in saved:
        for p, v in entries:
            table[dst + p[n:]] = v


# ---------------------------------------------------------------- variants

def _apply_variant(spec: Spec, name: str, found: list) -> list[tuple[tuple, Assumption]]:
    """Overlay variant `name`; return the assumptions that still hold."""
    variants = spec.data.get("variants")
    names = list(variants) if isinstance(variants, dict) else []
    if name not in names:
        known = ", ".join(sorted(map(str, names))) or "(none)"
        message = f"unknown variant {name!r}; variants are: {known}{did_you_mean(name, names)}"
        raise UnknownVariant([spec.error(message, ("variants",))], name)
    base = ("variants", name)
    entry = variants[name]
    if not isinstance(entry, dict):
        _fail([spec.error(f"variant {name!r} must be a map with description and changes", base)])
    changes = entry.get("changes", {})
    if not isinstance(changes, dict):
        _fail([spec.error("changes: must be a map of the parts of the spec to change",
                          base + ("changes",))])
    if "variants" in changes:   # it would overwrite the very section being applied
        _fail([spec.error("a variant cannot change `variants`", base + ("changes", "variants"))])
    replaced: list[tuple] = []
    _overlay(spec, spec.data, changes, (), base + ("changes",), replaced)
    return _rebase_assumptions(found, base + ("changes",), replaced)


ADDED_CHECKED = ("constants", "globals", "per_player", "per_card")   # a typo there changes nothing


def _overlay(spec, target: dict, changes: dict, path, src, replaced) -> None:
    """Deep-merge `changes` into `target`: maps merge, null deletes, anything else replaces."""
    for key, new in changes.items():
        p, s = path + (key,), src + (key,)
        if len(path) == 1 and path[0] in ADDED_CHECKED and key not in target and new is not None:
            spec.added.append((p, s))
        if new is None:
            if key in target:
                del target[key]
                _drop(spec, p)
                replaced.append(p)
        elif isinstance(new, dict):
            if not isinstance(target.get(key), dict):   # nothing to merge into: start afresh
                target[key] = {}
                _drop(spec, p)
                replaced.append(p)
                spec.marks[p] = spec.marks.get(s, spec.mark(p))
            _overlay(spec, target[key], new, p, s, replaced)
        else:
            target[key] = copy.deepcopy(new)
            _drop(spec, p)
            _copy(spec, s, p)
            replaced.append(p)


def _rebase_assumptions(found: list, src: tuple, replaced: list[tuple]) -> list:
    """Keep the assumptions that still hold once the variant is applied.

    Those of the chosen variant's changes now describe the merged spec, so
    they take its paths (their line/col still point into the variant); those
    on base values the variant replaced or deleted no longer apply.
    """
    kept = []
    for path, a in found:
        if path[:len(src)] == src:
            path = path[len(src):]
            a = Assumption(path_str(path), a.line, a.col, a.reason, a.value)
        elif any(path[:len(r)] == r for r in replaced):
            continue
        kept.append((path, a))
    return kept
