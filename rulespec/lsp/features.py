"""The answers an editor asks for, from an Analysis (rulespec.lsp.project).

Plain data in and out (0-based positions; dicts and tuples), so the same
functions serve the LSP server, the tests and the benchmarks. What each
answer holds:

- completion(a, line, char) -> [Item]: inside a rules-language string, the names in
  scope, the builtins with their signatures, `p.`'s per-player variables and
  zones, `c.`'s card attributes, actions after `turn ...:`, phases after
  `phase`, signals after `signal`; elsewhere, the YAML keys the schema allows.
- hover(a, line, char) -> markdown text: the kind of thing, its declaration,
  `description:` and `assumed:` reasons; a builtin's documentation.
- definition / references / rename / outline: by the occurrences index.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass

from .. import check, kinds, schema
from ..builtins import EFFECTS, KEYWORDS, SIGNATURES
from ..dsl import KEYWORDS as RESERVED
from ..loader import path_str
from ..scope import CARD_FIELDS
from .project import SECTIONS, Analysis, Occurrence, as_list, as_map, split_lines, texts

LABELS = {"phase": "phase", "action": "action", "trigger": "trigger", "procedure": "procedure",
          "function": "function", "signal": "signal", "zone": "shared zone",
          "player_zone": "player zone", "global": "global variable",
          "per_player": "per-player variable", "per_card": "per-card variable",
          "constant": "constant", "board": "board", "card_kind": "card kind", "card": "card",
          "card_attr": "card attribute", "node": "board node", "symbol": "symbol",
          "end": "end condition", "invariant": "invariant", "local": "local variable",
          "param": "parameter", "sigparam": "signal value", "implicit": "built-in name",
          "builtin": "builtin function"}
SECTION_OF = {category: section for section, category in SECTIONS.items()}
IMPLICIT_DOCS = {
    "players": "every seat, in seating order (a list of players)",
    "nplayers": "how many players are in the game (a number)",
    "variant": "the variant being played (a text), or none",
    "current_phase": "the name of the phase being run (a text)",
    "player": "the player taking this action",
    "p": "the player being scored or valued",
    "it": "the item being weighed by `by=` (sort, max, min)",
    "bidder": "the player bidding, inside an auction's options",
}
_PLAYERISH = {"p", "player", "bidder", "winner", "seller", "buyer", "q", "other", "who", "seat"}
_CARDISH = {"c", "card", "k", "tile", "top_card"}
RENAMABLE = set(SECTIONS.values()) | {"card", "card_attr", "node", "symbol", "local", "param",
                                       "sigparam"}
_PHRASES = {kinds.NUMBER: "a number", kinds.BOOL: "true or false", kinds.TEXT: "a text",
            kinds.NONE: "none", kinds.LIST: "a list", kinds.ZONE: "a zone", kinds.MAP: "a map"}
_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


@dataclass
class Item:
    """A completion item: `kind` is one of LSP's CompletionItemKind names."""
    label: str
    kind: str
    detail: str = ""
    documentation: str = ""


# ---------------------------------------------------------------- completion
def completion(a: Analysis, line: int, char: int, text: str | None = None) -> list[Item]:
    """What may be written at (line, char); `text` is the document now (default a.text)."""
    text = a.text if text is None else text
    lines = split_lines(text)
    if not 0 <= line < len(lines) or char < 0:
        return []       # a position from the client outside the document: nothing to offer
    current = lines[line]
    before = current[:char]
    region = a.region_at(line, char) if a.names is not None else None
    if region is not None:
        if region.first == line:
            before = before[region.col:]
        return _rule_completion(a, region, before)
    if a.kind == "spec" and re.match(r"^\s*(-\s+)?[\w-]*$", before):
        return _key_completion(lines, line, before)
    return []


def _rule_completion(a: Analysis, region, before: str) -> list[Item]:
    n = a.names
    attr = re.search(r"([A-Za-z_][\w]*|\])\s*\.\s*\w*$", before)
    if attr:
        return _attributes(n, _object_kind(attr.group(1), region, before))
    if re.search(r"\bturn\b.*:[\w\s,]*$", before):
        return [Item(x, "EnumMember", "action") for x in texts(n.actions)]
    if re.search(r"\bphase\s+\w*$", before):
        return [Item(x, "Module", "phase") for x in texts(n.phases)]
    if re.search(r"\bsignal\s+\w*$", before):
        return [Item(x, "Event", f"signal({_params(n.signals[x])})") for x in texts(n.signals)]
    return _names_in_scope(a, region)


def _object_kind(word: str, region, before: str) -> str | None:
    """'player' or 'card' when the object before the dot is known to be one."""
    if word == "]" and re.search(r"\bplayers\s*\[[^\[\]]*\]\s*\.\s*\w*$", before):
        return "player"
    if word in _PLAYERISH:
        return "player"
    if word in _CARDISH:
        return "card"
    rule_text = region.text
    bound = re.search(r"\b(?:for\s+)?" + re.escape(word) + r"\s+in\s+([^:\n]+)", rule_text)
    source = bound.group(1) if bound else ""
    if re.search(r"\b(players|others|clockwise_from|next_player|previous_player)\b", source):
        return "player"
    if re.search(r"\b(cards|top|draw)\s*\(|\.\s*\w+\s*$|\b\w+\s*$", source) and source:
        return "card"
    return None


def _attributes(n, what: str | None) -> list[Item]:
    items = []
    if what in ("player", None):
        items += [Item(x, "Field", "per-player variable", _decl_doc(n.per_player[x]))
                  for x in texts(n.per_player)]
        items += [Item(x, "Folder", "player zone", _decl_doc(n.player_zones[x]))
                  for x in texts(n.player_zones)]
    if what in ("card", None):
        items += [Item(x, "Field", "per-card variable", _decl_doc(n.per_card[x]))
                  for x in texts(n.per_card)]
        items += [Item(x, "Property", "card attribute") for x in texts(n.card_attrs)]
        items += [Item(x, "Property", "card field") for x in sorted(CARD_FIELDS)]
    if what is None:
        taken = {i.label for i in items}
        items += [Item(x, "Property", "attribute") for x in texts(n.attributes() - taken)]
    return items


def _decl_doc(decl) -> str:
    return str(decl.get("description", "")) if isinstance(decl, dict) else ""


def _names_in_scope(a: Analysis, region) -> list[Item]:
    n, rule = a.names, region.rule
    params = rule.scope if rule.path[0] in ("procedures", "functions", "triggers") else ()
    items = [Item(x, "Variable", "parameter" if x in params else "local variable")
             for x in texts(_locals(rule, region.text))]
    items += [Item(x, "Variable", "global variable", _decl_doc(n.globals[x])) for x in texts(n.globals)]
    items += [Item(x, "Constant", "constant = " + _short(n.constants[x])) for x in texts(n.constants)]
    items += [Item(x, "Folder", "shared zone", _decl_doc(n.zones[x])) for x in texts(n.zones)]
    items += [Item(x, "Struct", "board") for x in texts(n.boards)]
    items += [Item(x, "EnumMember", "card") for x in texts(n.card_names)]
    items += [Item(x, "EnumMember", "symbol") for x in texts(n.symbols - n.card_names)]
    items += [Item(x, "Keyword", "built-in name", IMPLICIT_DOCS.get(x, ""))
              for x in sorted(check.IMPLICIT)]
    items += [Item(x, "Method", f"procedure {x}({_params(n.procedures[x])})") for x in texts(n.procedures)]
    items += [Item(x, "Function", f"function {x}({_params(n.functions[x])})") for x in texts(n.functions)]
    items += [Item(x, "Event", f"signal({_params(n.signals[x])})") for x in texts(n.signals)]
    items += [Item(x, "Function", builtin_signature(x), SIGNATURES[x][2]) for x in sorted(SIGNATURES)
              if x not in n.functions and x not in n.procedures]
    return items


def _params(params) -> str:
    return ", ".join(map(str, as_list(params)))


def _locals(rule, text: str) -> set[str]:
    """Parameters and the names the rule binds, read from its text (which may not parse yet)."""
    found = set(texts(rule.scope))
    found.update(re.findall(r"^\s*([A-Za-z_]\w*)\s*=(?!=)", text, re.M))
    found.update(re.findall(r"\bfor\s+([A-Za-z_]\w*)\s+in\b", text))
    return {x for x in found if x not in RESERVED}


def builtin_signature(name: str) -> str:
    low, high, _ = SIGNATURES[name]
    wanted = kinds.ARGUMENTS.get(name, ())
    args = []
    for i in range(min(high, 4)):
        accepted = wanted[i] if i < len(wanted) else None
        word = "/".join(sorted(accepted)) if accepted else "value"
        args.append(word if i < low else f"[{word}]")
    if high > 4:
        args.append("...")
    args += [f"{k}=" for k in sorted(KEYWORDS.get(name, ()))]
    result = kinds.RESULTS.get(name)
    return f"{name}({', '.join(args)})" + (f" -> {result}" if result else "")


def _short(value) -> str:
    text = json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else value
    return text if len(text) <= 60 else text[:57] + "..."


# YAML keys from the schema -------------------------------------------------
def _key_completion(lines: list[str], line: int, before: str) -> list[Item]:
    path = _yaml_path(lines, line, len(before) - len(before.lstrip(" -")))
    node = schema.load_schema()
    for part in path:
        node = _child(node, part)
        if node is None:
            return []
    props = {}
    for branch in _branches(node):
        props.update(branch.get("properties") or {})
    return [Item(k, "Property", "key", str(_resolve(v).get("description", v.get("description", ""))))
            for k, v in sorted(props.items())]


def _yaml_path(lines: list[str], line: int, indent: int) -> list:
    """The keys of the maps enclosing a key written at `indent` on `line` ('-' for list items)."""
    path = []
    for n in range(line - 1, -1, -1):
        text = lines[n]
        stripped = text.strip()
        if not stripped or stripped.startswith("#"):
            continue
        here = len(text) - len(text.lstrip(" "))
        item = re.match(r"\s*-\s+", text)
        if item and len(item.group(0)) <= indent and here < indent:
            path.append("-")
            indent = here
            key = re.match(r"\s*-\s+([\w\"' ]+?)\s*:(\s|$)", text)
            if key and len(item.group(0)) < indent:
                path.append(key.group(1).strip("\"'"))
            continue
        if here < indent:
            key = re.match(r"\s*([\w\"' ]+?)\s*:(\s|$)", text)
            if key:
                path.append(key.group(1).strip("\"'"))
            indent = here
        if indent == 0:
            break
    return list(reversed(path))


def _resolve(node: dict) -> dict:
    while isinstance(node, dict) and "$ref" in node:
        ref = node["$ref"].split("/")[-1]
        node = schema.load_schema()["$defs"][ref]
    return node if isinstance(node, dict) else {}


def _branches(node: dict) -> list[dict]:
    node = _resolve(node)
    out = [node]
    for key in ("anyOf", "oneOf", "allOf"):
        for sub in node.get(key) or []:
            out += _branches(sub)
    return out


def _child(node: dict, part) -> dict | None:
    for branch in _branches(node):
        if part == "-":
            if isinstance(branch.get("items"), dict):
                return branch["items"]
            continue
        if part in (branch.get("properties") or {}):
            return branch["properties"][part]
        for pattern, sub in (branch.get("patternProperties") or {}).items():
            if re.search(pattern, str(part)):
                return sub
        if isinstance(branch.get("additionalProperties"), dict):
            return branch["additionalProperties"]
    return None


# --------------------------------------------------------------------- hover
def hover(a: Analysis, line: int, char: int) -> str | None:
    """Markdown about the name under the cursor, or None."""
    occ = a.at(line, char)
    if occ is None:
        return None
    category, word = occ.symbol[0], occ.symbol[-1]
    if category == "builtin":
        return builtin_doc(word) if word in SIGNATURES else None
    if category == "implicit":
        return f"**built-in name** `{word}`\n\n{IMPLICIT_DOCS.get(word, '')}".rstrip()
    parts = [f"**{LABELS.get(category, category)}** `{word}`"]
    kind = _kind_of(a, occ.symbol)
    if kind:
        parts[0] += f" — {kind}"
    declared = a.definition(occ.symbol)
    decl = _declaration(a, occ.symbol)
    if decl:
        parts.append("```yaml\n" + decl + "\n```")
    if declared is not None:
        where = "this file" if declared.file == a.file else declared.file
        parts.append(f"declared at {where}:{declared.line + 1}:{declared.start + 1}")
    description = _description(a, occ.symbol)
    if description:
        parts.append(description)
    parts += [f"*assumed:* {reason}" for reason in _assumptions(a, occ.symbol)]
    return "\n\n".join(parts)


def builtin_doc(name: str) -> str:
    low, high, summary = SIGNATURES[name]
    count = str(low) if low == high else (f"{low} or more" if high >= 99 else f"{low} to {high}")
    doc = [f"```\n{builtin_signature(name)}\n```", summary,
           f"takes {count} argument{'s' if high != 1 else ''}"]
    if name in KEYWORDS:
        doc.append("keywords: " + ", ".join(f"`{k}=`" for k in sorted(KEYWORDS[name])))
    if name in EFFECTS:
        doc.append("changes the game state (allowed as a statement)")
    return "\n\n".join(doc)


def _spec_of(a: Analysis):
    return a.spec_analysis.spec if a.spec_analysis is not None else a.spec


def _decl_value(a: Analysis, symbol):
    spec = _spec_of(a)
    section = SECTION_OF.get(symbol[0])
    if spec is None or section is None:
        return None
    return as_map(spec.data.get(section)).get(symbol[-1])


def _declaration(a: Analysis, symbol) -> str:
    category, word = symbol[0], symbol[-1]
    value = _decl_value(a, symbol)
    if category in ("procedure", "function") and isinstance(value, dict):
        return f"{word}({_params(value.get('params'))})"
    if category == "signal":
        return f"signal {word}({_params(value)})"
    if category == "param":
        owner = symbol[1][1]
        return f"{owner}({_params(a.names.procedures.get(owner) or a.names.functions.get(owner))})"
    if value is None:
        return ""
    if isinstance(value, dict):
        shown = {k: v for k, v in value.items() if k not in ("description", "do", "expr", "list")
                 and not isinstance(v, (dict, list)) or k in ("one_of", "start", "params")}
        body = ", ".join(f"{k}: {_short(v)}" for k, v in shown.items())
        return f"{word}: {{{body}}}"
    return f"{word}: {_short(value)}"


def _kind_of(a: Analysis, symbol) -> str:
    """The kind of value a name holds: from the spec's kind table where there is one
    (issue 12's inference), else what the checker knows (constants, zones, start values)."""
    table = (a.spec_analysis or a).kinds
    if table is not None:
        kind = _table_kind(table, symbol)
        if kind is not None:
            return str(kind)
    if a.names is None or symbol[0] not in ("constant", "zone", "global", "per_player", "per_card"):
        return ""
    if symbol[0] in ("constant", "zone"):
        from .. import ast
        kind = kinds.kind_of(ast.Name(1, 1, symbol[-1]), a.names, set())
        if kind is None or isinstance(kind, str):
            return _PHRASES.get(kind, "")
        return str(kind)   # issue 12's Kind objects say themselves: 'a list of numbers'

    decl = _decl_value(a, symbol)
    start = decl.get("start") if isinstance(decl, dict) else decl
    for python_type, phrase in ((bool, "true or false"), (int, "a number"), (list, "a list"),
                                (dict, "a map"), (str, "a symbol")):
        if isinstance(start, python_type):
            return phrase + " (by its start value)"
    return ""


def _table_kind(table, symbol):
    category, word = symbol[0], symbol[-1]
    try:
        if category in ("local", "param"):
            owner = tuple(symbol[1][1:]) if category == "local" else tuple(symbol[1])
            for part in ("do", "expr", "when", "for", "label", "score", "eligible"):
                kind = table.kind_of(word, owner + (part,))
                if kind is not None:
                    return kind
            return None
        if category in ("global", "per_player", "per_card", "constant", "card_attr", "player_zone"):
            return table.kind_of(word)
    except Exception:   # a table of another shape: fall back to what the checker knows
        return None
    return None


def _description(a: Analysis, symbol) -> str:
    value = _decl_value(a, symbol)
    if isinstance(value, dict) and isinstance(value.get("description"), str):
        return value["description"]
    return ""


def _assumptions(a: Analysis, symbol) -> list[str]:
    spec, section = _spec_of(a), SECTION_OF.get(symbol[0])
    if spec is None or section is None:
        return []
    prefix = path_str((section, symbol[-1]))
    return [str(x.reason) for x in spec.assumptions
            if x.path == prefix or x.path.startswith(prefix + ".") or x.path.startswith(prefix + "[")]


# ---------------------------------------------------------------- navigation
def definition(a: Analysis, line: int, char: int) -> Occurrence | None:
    occ = a.at(line, char)
    return a.definition(occ.symbol) if occ is not None else None


def references(analyses: list[Analysis], symbol, include_declaration: bool = True) -> list[Occurrence]:
    """Every occurrence of `symbol` in the given analyses (a spec and its scenario files)."""
    found, seen = [], set()
    for a in analyses:
        for occ in a.occurrences:
            key = (occ.file, occ.line, occ.start)
            if occ.symbol == symbol and key not in seen and (include_declaration or not occ.is_def):
                seen.add(key)
                found.append(occ)
    return found


def rename_check(a: Analysis, symbol, new: str, family=()) -> str | None:
    """Why `symbol` cannot be renamed to `new` in `a` and the analyses of `family`
    (a spec and its scenario files), or None when it can."""
    if symbol[0] not in RENAMABLE:
        return f"a {LABELS.get(symbol[0], symbol[0])} cannot be renamed"
    if any(symbol in member.unplaced for member in (a, *family)):
        return (f"cannot rename '{symbol[-1]}': a use of it sits where its position in the "
                f"file is not known exactly")
    if not _IDENT.match(new) or new in RESERVED:
        return f"'{new}' is not a name (letters, digits and _, not a keyword)"
    n = a.names
    taken = _every_name(n) | set(n.procedures) | set(n.functions) | set(n.phases) \
        | set(n.actions) | set(n.signals) | set(SIGNATURES)
    if symbol[0] in ("per_player", "per_card", "player_zone", "card_attr"):
        taken = n.attributes()
    if symbol[0] in ("local", "param", "sigparam"):
        taken = set()
    if new in taken:
        return f"'{new}' is taken already"
    return None


def _every_name(n) -> set:
    try:
        return set(n.every_name(set()))
    except TypeError:   # it sorts, and a key typed as a number (`1:`) does not sort with text
        return set().union(n.globals, n.constants, check.IMPLICIT, n.zones, n.boards,
                           n.symbols, n.card_names)


def outline(a: Analysis) -> list[tuple[str, str, list[tuple[str, Occurrence]]]]:
    """[(section, category, [(name, declaring occurrence)])] for the document outline."""
    out = []
    for section in ("phases", "actions", "triggers", "procedures", "functions", "signals",
                    "end", "invariants"):
        category = SECTIONS[section]
        entries = [(o.symbol[-1], o) for o in a.occurrences
                   if o.is_def and o.symbol[0] == category and len(o.symbol) == 2]
        if entries:
            out.append((section, category, entries))
    return out
