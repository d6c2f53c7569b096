"""What the language server knows about a spec or scenario file: its problems
and where every named thing is declared and used.

`analyze(file, text)` runs the same pipeline as `rulespec.validate` (load,
schema, names, parse, check, and each variant) but keeps what it learned when
there are errors, so completion and navigation work in a spec that does not
validate yet. Parsing is cached by text: after an edit only the changed rule
strings are parsed again. Positions here are 0-based (line, character), as
in the Language Server Protocol; rulespec's errors are 1-based.

No editor protocol here: rulespec.lsp.features answers the questions and
rulespec.lsp.server speaks LSP.
"""
from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass, field

from .. import ast, check, loader, purity, scenario, schema
from ..errors import RulespecError, SpecErrors
from ..scope import assigned_names, for_variable

# Sections of a spec whose keys name things: section -> the category of the names.
SECTIONS = {"phases": "phase", "actions": "action", "triggers": "trigger",
            "procedures": "procedure", "functions": "function", "signals": "signal",
            "zones": "zone", "player_zones": "player_zone", "globals": "global",
            "per_player": "per_player", "per_card": "per_card", "constants": "constant",
            "boards": "board", "cards": "card_kind", "end": "end", "invariants": "invariant"}
# Categories whose first mention declares them (they have no key of their own).
FIRST_MENTION = {"node", "symbol", "card_attr"}
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@dataclass(frozen=True)
class Occurrence:
    """One mention of a named thing: `symbol` at file:line:start..end (0-based)."""
    symbol: tuple        # (category, name) or (category, owner, name) for locals and parameters
    file: str
    line: int
    start: int
    end: int
    is_def: bool = False


@dataclass
class Diagnostic:
    line: int            # 0-based, like every position of this package
    start: int
    end_line: int
    end: int
    message: str


@dataclass
class Region:
    """Where a rule string sits in the file, so a cursor can be placed in it."""
    rule: object         # rulespec.check.Rule (tree None when it did not parse)
    first: int           # 0-based line of the text's first character
    col: int             # ... and its column on that line
    last: int            # 0-based last line
    text: str = ""       # the rule's text (its YAML value)

    def holds(self, line: int, char: int) -> bool:
        return self.first <= line <= self.last and (line > self.first or char >= self.col)


@dataclass
class Analysis:
    """Everything the features need about one file, from one version of its text."""
    file: str
    text: str
    kind: str = "spec"                    # "spec" or "scenario"
    spec: object = None                   # rulespec.loader.Spec of this file (None: YAML broken)
    names: object = None                  # check.Names of the spec (of the scenario's spec)
    diagnostics: list = field(default_factory=list)
    _occurrences: list = field(default_factory=list)
    _regions: list = field(default_factory=list)
    _jobs: list = field(default_factory=list)     # indexing, run on first use (not for diagnostics)
    spec_file: str | None = None          # a scenario's spec
    spec_analysis: "Analysis | None" = None
    kinds: object = None        # rulespec.infer.KindTable of the spec, where issue 12's is present
    unplaced: set = field(default_factory=set)   # symbols with a use the index could not place
    functions: dict = field(default_factory=dict)  # a spec's parsed functions: {name: tree}

    @property
    def occurrences(self) -> list[Occurrence]:
        """Every mention of a named thing, in file order (indexed on first use)."""
        self._index()
        return self._occurrences

    @property
    def regions(self) -> list[Region]:
        self._index()
        return self._regions

    def _index(self):
        while self._jobs:
            self._jobs.pop(0)()

    def definition(self, symbol) -> Occurrence | None:
        """The declaring occurrence of `symbol` (in this file or, for a scenario, its spec)."""
        for source in (self, self.spec_analysis):
            if source is not None:
                found = source.defs().get(symbol)
                if found:
                    return found
        return None

    def defs(self) -> dict:
        if not hasattr(self, "_defs"):
            self._defs = {}
            for occ in self.occurrences:
                if occ.is_def:
                    self._defs.setdefault(occ.symbol, occ)
        return self._defs

    def at(self, line: int, char: int) -> Occurrence | None:
        """The occurrence under the cursor (its end counts, where a word was just typed)."""
        for occ in self.occurrences:
            if occ.line == line and occ.start <= char <= occ.end:
                return occ
        return None

    def region_at(self, line: int, char: int) -> Region | None:
        return next((r for r in self.regions if r.holds(line, char)), None)


# ------------------------------------------------------------- spec shapes
# Mid-edit, YAML holds whatever was typed so far: a string, list, number or null
# where the schema wants a map or a list. Walks over spec data the schema has not
# accepted take it through these, so a half-typed key gives no answer, not a crash.
def as_map(value) -> dict:
    """`value` if it is a map, else an empty one."""
    return value if isinstance(value, dict) else {}


def as_list(value) -> list:
    """`value` if it is a list, else an empty one."""
    return value if isinstance(value, list) else []


def texts(names) -> list[str]:
    """The names that are text, sorted (a key or parameter typed as `1:` or `[a]` is
    not a name, and would not sort with the others)."""
    return sorted(x for x in names if isinstance(x, str))


# ------------------------------------------------------------------- parsing
_PARSED: dict = {}


def cached_parse(kind: str, text):
    """check.parse_text, remembered by (kind, text): an edit re-parses one string."""
    key = (kind, text if isinstance(text, str) else repr(text))
    hit = _PARSED.get(key)
    if hit is None:
        if len(_PARSED) > 50_000:   # an editing session's worth; then start afresh
            _PARSED.clear()
        try:
            hit = (check.parse_text(kind, text), None)
        except RulespecError as e:
            hit = (None, e)
        _PARSED[key] = hit
    if hit[1] is not None:
        raise hit[1]
    return hit[0]


# ------------------------------------------------------------------ analysis
def analyze(file: str, text: str, read=None) -> Analysis:
    """Check one file (a spec, or a scenario file: one with `spec:` and `scenarios:`).

    read(path) -> text gives the text of another file (a scenario's spec); by
    default the file on disk (read_text). Never raises for a bad file: problems
    become diagnostics.
    """
    return _analyze(os.path.abspath(file), text, read or read_text, as_spec=False)


def _analyze(file: str, text: str, read, as_spec: bool) -> Analysis:
    """analyze; `as_spec`: the file is a scenario's spec, so it may not be a scenario
    file itself (following its `spec:` in turn could go round a cycle for ever)."""
    result = Analysis(file, text)
    unpaired = _surrogate_errors(file, text)
    if unpaired:   # YAML's reader encodes the text to UTF-8, which a surrogate fails
        result.diagnostics = _diagnostics(text, unpaired)
        return result
    try:
        spec = loader.load_spec(file, text=text)
    except SpecErrors as e:
        result.diagnostics = [_diagnostic(text, err) for err in e.errors]
        return result
    result.spec = spec
    try:
        if _is_scenario(spec.data):
            result.kind = "scenario"
            if not as_spec:
                _analyze_scenario(result, read)
        else:
            _analyze_spec(result)
    except Exception as e:   # a checker bug must not take the editor's server down
        result.diagnostics = [Diagnostic(0, 0, 0, 1, f"internal error while checking: {e!r}")]
    return result


def _is_scenario(data: dict) -> bool:
    return "scenarios" in data and "spec" in data


_SURROGATE = re.compile("[\ud800-\udfff]")


def _surrogate_errors(file: str, text: str) -> list[RulespecError]:
    """Where the text holds half a UTF-16 pair: an editor may send one in JSON (or
    a byte that is not UTF-8, decoded with surrogateescape); no file can hold it."""
    if not _SURROGATE.search(text):
        return []
    errors = []
    for number, line in enumerate(split_lines(text), 1):
        for found in _SURROGATE.finditer(line):
            col = found.start() + 1
            errors.append(RulespecError(
                f"the text holds an unpaired surrogate (U+{ord(found.group()):04X}) at line "
                f"{number}, col {col}: not valid Unicode, so it cannot be checked", file, number, col))
            if len(errors) == 20:   # enough to find them; a binary file would give thousands
                return errors
    return errors


def read_text(path: str) -> str:
    """A file's text, read as the CLI reads a spec: rulespec.loader's reader, which
    stops at limits.SPEC_BYTES and wants UTF-8, so its refusals are worded the same.
    Raises SpecErrors.

    A pipe, socket or device is refused unopened: opening a FIFO waits for a writer,
    /dev/stdin is the server's own LSP input, and /dev/zero never ends; the server
    must not hang on what a `spec:` names.
    """
    try:
        mode = os.stat(path).st_mode
    except OSError:
        mode = None   # missing or forbidden: the loader's reader words it as the CLI does
    if mode is not None and not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
        raise SpecErrors([RulespecError(f"cannot read {path}: not a regular file (a device, "
                                        f"pipe or socket), which could never end", path, 1, 1)])
    return loader._read(path)


def _analyze_spec(result: Analysis) -> None:
    spec, errors = result.spec, []
    names, rules, found, result.kinds = _pipeline(spec)
    errors += found
    result.names = names
    result.functions = purity.spec_functions(rules)
    brought = []   # (variant spec, its names, the rules it brings)
    for variant in _variants(spec):
        errors += _check_variant(result, variant, errors, brought)
    result.diagnostics = _diagnostics(result.text, errors)

    def index():
        ix = _Indexer(result, spec, names)
        if names is not None:
            ix.yaml(spec.data, ())
            ix.rules(rules)
        for vspec, vnames, vrules in brought:
            ix.rules(vrules, spec=vspec, names=vnames)
        ix.finish()
    result._jobs.append(index)


def _pipeline(spec):
    """(names, rules, errors) as validate finds them; names None when the shape is too broken.

    The same steps as rulespec.validate, in its order, with parsing cached; like
    validate, rule errors are reported only when the shape is right, but the
    names and rules are still gathered (for completion) when they can be.
    tests/lsp/test_same_as_validate.py keeps the two equal.
    """
    errors = schema.validate(spec)
    try:
        names = check.Names.of(spec.data)
        rules = check.dsl_fields(spec.data, names)
        if errors:
            check.parse_rules(spec, names, rules, parse=cached_parse)   # trees, for the index
    except Exception:   # a shape the schema refused: no symbol table to offer
        if not errors:
            raise
        return None, [], errors, None
    if errors:
        return names, rules, errors, None
    try:
        return (names, rules, *_checks(spec, names, rules))
    except SpecErrors as e:   # rules too long in all to parse (limits.RULE_TEXT), as validate says
        return names, rules, e.errors, None


def _checks(spec, names, rules) -> tuple[list[RulespecError], object]:
    """validate's steps after the shape: start values, parsing, names, kinds; and
    the kind table (rulespec.infer.KindTable) where issue 12's inference is present."""
    try:
        from .. import infer, values
    except ImportError:
        infer = values = None
    errors = values.resolve(spec, names) if values else []
    parsed, more = check.parse_rules(spec, names, rules, parse=cached_parse)
    errors += more
    broken = [e.broken_rule for e in more if hasattr(e, "broken_rule")]
    unread = {e.path for e in errors} if values else set()   # a refused value needs no second error
    errors += [e for e in check.check(spec, parsed, names, broken=broken) if e.path not in unread]
    table = None
    if infer:
        table, more = infer.infer(spec, parsed, names)
        errors += more
    errors += check.unread_additions(spec, parsed)
    return errors, table


def _variants(spec) -> list[str]:
    variants = spec.data.get("variants")
    return [v for v in variants if isinstance(v, str)] if isinstance(variants, dict) else []


def _check_variant(result, variant, known, brought) -> list[RulespecError]:
    """The variant's own problems: those validate --variant finds and the base does not.
    Appends (spec, names, rules) of the rule strings the variant brings to `brought`."""
    try:
        spec = loader.load_spec(result.file, variant=variant, text=result.text)
    except SpecErrors as e:
        found, names, rules = e.errors, None, []
    else:
        names, rules, found, _ = _pipeline(spec)
    if names is not None:
        brought.append((spec, names, [r for r in rules if r.path in spec.scalars and
                                      spec.scalars[r.path] != result.spec.scalars.get(r.path)]))
    seen = {(e.line, e.col, e.message) for e in known}
    new = []
    for err in found:
        if (err.line, err.col, err.message) not in seen:
            err.message = f"in variant '{variant}': {err.message}"
            new.append(err)
    return new


def _analyze_scenario(result: Analysis, read) -> None:
    """A scenario file: its rules are checked against the names of the spec it names."""
    spec, errors = result.spec, []
    result.kind = "scenario"
    target = spec.data.get("spec")
    shape = _scenario_shape(spec)
    errors += shape
    if not isinstance(target, str):
        result.diagnostics = _diagnostics(result.text, errors)
        return
    path = os.path.normpath(os.path.join(os.path.dirname(result.file), target))
    result.spec_file = path
    base = _spec_of_scenario(result, target, path, read, errors)
    if base is None:
        result.diagnostics = _diagnostics(result.text, errors)
        return
    result.names = base.names
    if base.diagnostics:
        first = base.diagnostics[0]
        errors.append(spec.error(f"the spec has {len(base.diagnostics)} error(s); first, at "
                                 f"line {first.line + 1}: {first.message}", ("spec",)))
    if base.names is not None:
        # the checks `rulespec scenario` runs before a step: the same errors in both
        rules, found = scenario.rule_errors(spec, base.names, base.functions, parse=cached_parse)
        if not shape:
            errors += found + scenario.setup_errors(spec, base.spec)
        result._jobs.append(lambda: _index_scenario(result, spec, base, rules))
    result.diagnostics = _diagnostics(result.text, errors)


def _spec_of_scenario(result, target, path, read, errors) -> Analysis | None:
    """The analysis of the spec a scenario file names, or None (its error added to
    `errors`, at the `spec:` key) when it cannot be read or is a scenario file."""
    spec = result.spec
    if os.path.realpath(path) == os.path.realpath(result.file):
        errors.append(spec.error("a scenario file cannot be its own spec: `spec:` names "
                                 "the game's spec file", ("spec",)))
        return None
    try:
        spec_text = read(path)
    except SpecErrors as e:   # read_text: the CLI's words ("larger than the limit of ...")
        errors.append(spec.error(e.errors[0].message, ("spec",)))
        return None
    except (OSError, UnicodeDecodeError) as e:   # a reader of the caller's
        errors.append(spec.error(f"cannot read the spec {target}: "
                                 f"{getattr(e, 'strerror', None) or e}", ("spec",)))
        return None
    base = _analyze(path, spec_text, read, as_spec=True)
    result.spec_analysis = base   # kept even when refused: an edit to it makes this stale
    if base.kind == "scenario":
        errors.append(spec.error(f"the spec {target} is a scenario file (it has `spec:` and "
                                 f"`scenarios:`): a scenario's spec must be a game's spec",
                                 ("spec",)))
        return None
    return base


def _index_scenario(result, spec, base, rules):
    index = _Indexer(result, spec, base.names)
    index.rules(rules)
    for rule in rules:
        if rule.path[-2] == "let":
            index.key(("local", (result.file,) + rule.path[:2], rule.path[-1]), rule.path, True)
    index.finish(elsewhere=base.defs())


def _scenario_shape(spec) -> list[RulespecError]:
    """Scenario-file schema errors, once the scenario schema ships (issue 15's)."""
    path = getattr(schema, "SCENARIO_SCHEMA_PATH", None)
    if path is None or not os.path.exists(path):
        return []
    try:
        return schema.validate(spec, scenario=True)
    except TypeError:   # a schema module without the scenario form
        return []


# --------------------------------------------------------------- diagnostics
def _diagnostics(text: str, errors: list[RulespecError]) -> list[Diagnostic]:
    errors = sorted(errors, key=lambda e: (e.line or 0, e.col or 0))
    return [_diagnostic(text, e) for e in errors]


_BREAK = re.compile(r"\r\n|\r|\n")


def split_lines(text: str) -> list[str]:
    """A document's lines as LSP and the loader count them: `\\r\\n`, `\\r` and `\\n` each
    end one (a file saved with old Mac line ends is not one long line)."""
    return _BREAK.split(text)


def _diagnostic(text: str, err: RulespecError) -> Diagnostic:
    """An error at (line, col) -> a range over the word, string or character there."""
    lines = split_lines(text)
    line = max(0, min((err.line or 1) - 1, len(lines) - 1))
    source = lines[line] if lines else ""
    start = max(0, min((err.col or 1) - 1, len(source)))
    return Diagnostic(line, start, line, _token_end(source, start), err.message)


def _token_end(source: str, start: int) -> int:
    if start >= len(source):
        return start
    word = _WORD.match(source, start)
    if word:
        return word.end()
    if source[start] in "\"'":
        close = source.find(source[start], start + 1)
        return close + 1 if close > 0 else len(source)
    return start + 1


# ------------------------------------------------------------------- indexing
class _Indexer:
    """Fills result.occurrences and result.regions from a spec's YAML and rules."""

    def __init__(self, result: Analysis, spec, names):
        self.result, self.spec, self.names = result, spec, names
        self.lines = split_lines(result.text)
        self.seen: set = set()

    def add(self, symbol, line, start, length, is_def=False):
        key = (line, start)
        if key in self.seen or line < 0:
            return
        self.seen.add(key)
        self.result._occurrences.append(
            Occurrence(symbol, self.result.file, line, start, start + length, is_def))

    def finish(self, elsewhere=()):
        """Things declared by their first mention get that mention as their declaration
        (unless declared `elsewhere`: a scenario's spec declares its names)."""
        occs = sorted(self.result._occurrences, key=lambda o: (o.line, o.start))
        declared = {o.symbol for o in occs if o.is_def} | set(elsewhere)
        out = []
        for o in occs:
            if o.symbol not in declared and (o.symbol[0] in FIRST_MENTION or o.symbol[0] == "local"):
                declared.add(o.symbol)
                o = Occurrence(o.symbol, o.file, o.line, o.start, o.end, True)
            out.append(o)
        self.result._occurrences = out

    # --- the YAML side: keys that declare, values that refer
    def key(self, symbol, path, is_def):
        if path not in self.spec.marks:
            return
        line, col = self.spec.marks[path]
        start = col - 1
        text = self.lines[line - 1] if line <= len(self.lines) else ""
        if text[start:start + 1] in ("'", '"'):
            start += 1
        self.add(symbol, line - 1, start, len(str(symbol[-1])), is_def)

    def value(self, symbol, path, is_def=False):
        info = self.spec.scalars.get(path)
        if info is None or info.style not in ("", '"', "'"):
            return
        self.add(symbol, info.line - 1, info.col - 1 + (1 if info.style else 0),
                 len(str(symbol[-1])), is_def)

    def classify(self, word: str) -> str:
        n = self.names
        if word in n.card_names:
            return "card"
        if word in _board_nodes(n):
            return "node"
        if word in n.card_kinds:
            return "card_kind"
        return "symbol"

    def yaml(self, data: dict, base: tuple, is_def: bool = True):
        """Declarations in `data` (the spec, or a variant's changes at `base`)."""
        for section, category in SECTIONS.items():
            entries = data.get(section)
            if not isinstance(entries, dict):
                continue
            for name, decl in entries.items():
                path = base + (section, name)
                self.key((category, name), path, is_def)
                self.declaration(section, name, decl, path, is_def)
        for i, word in enumerate(as_list(data.get("symbols"))):
            if isinstance(word, str):
                self.value(("symbol", word), base + ("symbols", i), is_def)
        variants = data.get("variants") if not base else None
        for vname, entry in as_map(variants).items():
            if isinstance(entry, dict) and isinstance(entry.get("changes"), dict):
                self.yaml(entry["changes"], ("variants", vname, "changes"), is_def=False)

    def declaration(self, section, name, decl, path, is_def):
        if section in ("procedures", "functions") and isinstance(decl, dict):
            for i, param in enumerate(as_list(decl.get("params"))):
                self.value(("param", (section, name), param), path + ("params", i), is_def)
        elif section == "signals" and isinstance(decl, list):
            for i, param in enumerate(decl):
                self.value(("sigparam", name, param), path + (i,), is_def)
        elif section == "triggers" and isinstance(decl, dict) and isinstance(decl.get("on"), str):
            self.value(("signal", decl["on"]), path + ("on",))
        elif section == "zones" and isinstance(decl, dict) and decl.get("reshuffle_from"):
            self.value(("zone", decl["reshuffle_from"]), path + ("reshuffle_from",))
        elif section == "cards" and isinstance(decl, dict):
            self.cards(decl, path, is_def)
        elif section == "boards" and isinstance(decl, dict):
            for key in ("ring", "path", "nodes"):
                if isinstance(decl.get(key), dict):   # nodes with attributes: {temple: {holy: true}}
                    for node in decl[key]:
                        self.key(("node", str(node)), path + (key, node), False)
                    continue
                for i, node in enumerate(as_list(decl.get(key))):
                    self.value(("node", str(node)), path + (key, i))
            for i, edge in enumerate(as_list(decl.get("edges"))):
                for j, node in enumerate(edge if isinstance(edge, list) else []):
                    self.value(("node", str(node)), path + ("edges", i, j))
        elif section in ("globals", "per_player", "per_card") and isinstance(decl, dict):
            for i, word in enumerate(as_list(decl.get("one_of"))):
                if isinstance(word, str):
                    self.value((self.classify(word), word), path + ("one_of", i))
            if isinstance(decl.get("start"), str):
                self.value((self.classify(decl["start"]), decl["start"]), path + ("start",))

    def cards(self, decl, path, is_def):
        if isinstance(decl.get("in"), str):
            self.value(("zone", decl["in"]), path + ("in",))
        for attr in as_map(decl.get("attrs")):
            self.key(("card_attr", attr), path + ("attrs", attr), is_def)
        for i, entry in enumerate(as_list(decl.get("list"))):
            if not isinstance(entry, dict):
                continue
            if isinstance(entry.get("name"), str):
                self.value(("card", entry["name"]), path + ("list", i, "name"), is_def)
            for key in entry:
                if key not in ("name", "count"):
                    self.key(("card_attr", key), path + ("list", i, key), False)

    # --- the rules side
    def rules(self, rules, spec=None, names=None):
        spec, names = spec or self.spec, names or self.names
        for rule in rules:
            text = check.get_path(spec.data, rule.path)
            region = _region(spec, rule)
            if region is not None:
                region.text = str(text)
                self.result._regions.append(region)
            if rule.tree is not None and isinstance(text, str):
                _RuleIndex(self, spec, names, rule, text).run()


def _region(spec, rule) -> Region | None:
    info = spec.scalars.get(rule.path)
    if info is None:
        return None
    if info.style in ("|", ">"):
        return Region(rule, info.line, info.indent, max(info.end_line, info.line + 1) - 1)
    return Region(rule, info.line - 1, info.col - 1 + (1 if info.style else 0),
                  max(info.end_line, info.line) - 1)


def _board_nodes(names) -> set:
    cached = getattr(names, "_lsp_nodes", None)
    if cached is None:
        cached = check._board_nodes(names.boards)
        names._lsp_nodes = cached
    return cached


class _RuleIndex:
    """The names one rule string mentions, each resolved the way the checker resolves it."""

    def __init__(self, indexer, spec, names, rule, text):
        self.ix, self.spec, self.names, self.rule, self.text = indexer, spec, names, rule, text
        self.starts = [0]
        for line in text.split("\n"):
            self.starts.append(self.starts[-1] + len(line) + 1)
        path = rule.path
        self.owner = (indexer.result.file,) + (path[:2] if path[0] in SECTIONS or
                                                   path[0] == "scenarios" else path)
        self.scope = set(texts(rule.scope)) | assigned_names(rule.tree, names)
        self.for_var = None
        if path[0] == "actions" and path[-1] != "for":
            action = spec.data["actions"][path[1]]
            self.for_var = for_variable(action.get("for", "")) if isinstance(action, dict) else None
        if path[-1] == "for" and isinstance(rule.tree, ast.Compare):
            self.for_var = rule.tree.left.id
            self.scope.add(self.for_var)

    def run(self):
        tree = self.rule.tree
        binders = {id(getattr(n, "target", None)) for n in ast.walk(tree)
                   if isinstance(getattr(n, "target", None), ast.Name)
                   and not isinstance(n, ast.AugAssign)}
        if self.rule.path[-1] == "for" and isinstance(tree, ast.Compare):
            binders.add(id(tree.left))
        for node in ast.walk(tree):
            self.node(node, id(node) in binders)

    def node(self, node, binds):
        rule = node.rule
        if rule == "name":
            symbol = self.name_symbol(node.id)
            if symbol:
                self.emit(symbol, node.line, node.col, node.id, binds and symbol[0] == "local")
        elif rule == "attr":
            symbol = self.attr_symbol(node.name)
            if symbol:
                self.emit(symbol, node.line, node.col, node.name)
        elif rule == "call":
            self.emit(self.call_symbol(node.func), node.line, node.col, node.func)
        elif rule == "run_phase":
            self.find(("phase", node.name), node, r"phase\s+")
        elif rule == "signal":
            self.find(("signal", node.name), node, r"signal\s+")
        elif rule == "turn":
            for action, (line, col) in zip(node.actions, node.action_at):
                self.emit(("action", action), line, col, action)
        elif rule in ("for_stmt", "secretly", "comprehension"):
            self.find(("local", self.owner, node.var), node, r"\bfor\s+", binds=True)

    def name_symbol(self, word):
        n, path = self.names, self.rule.path
        if word in self.scope:
            if word in self.rule.scope and path[0] in ("procedures", "functions"):
                return ("param", path[:2], word)
            if word in self.rule.scope and path[0] == "triggers":
                return ("sigparam", self.spec.data["triggers"][path[1]].get("on"), word)
            if word in self.rule.scope and word != self.for_var and path[0] != "scenarios":
                return ("implicit", word)
            return ("local", self.owner, word)
        category, _ = n.resolve(word, set())
        if category == "symbol":
            return (self.ix.classify(word), word)
        if category in ("global", "constant", "zone", "board"):
            return (category, word)
        if category in check.IMPLICIT or word in ("it", "bidder"):
            return ("implicit", word)
        return None

    def attr_symbol(self, word):
        n = self.names
        for category, table in (("per_player", n.per_player), ("player_zone", n.player_zones),
                                ("per_card", n.per_card)):
            if word in table:
                return (category, word)
        if word in n.card_attrs:
            return ("card_attr", word)
        return None

    def call_symbol(self, func):
        if func in self.names.procedures:
            return ("procedure", func)
        if func in self.names.functions:
            return ("function", func)
        return ("builtin", func)

    def offset(self, line, col) -> int:
        if self.rule.kind == "expression" and line == 1:
            return col - 1   # parse_expression joined the lines with spaces: same offsets
        return self.starts[min(line - 1, len(self.starts) - 1)] + col - 1

    def emit(self, symbol, line, col, word, is_def=False):
        self.emit_at(symbol, self.offset(line, col), word, is_def)

    def emit_at(self, symbol, offset, word, is_def=False):
        if self.text[offset:offset + len(word)] != word:
            return   # a position we cannot trust is better left out than shown wrong
        line = next(i for i in range(len(self.starts) - 1, -1, -1) if self.starts[i] <= offset)
        fline, fcol = self.spec.text_position(self.rule.path, line + 1, offset - self.starts[line] + 1)
        source = self.ix.lines[fline - 1] if 0 < fline <= len(self.ix.lines) else ""
        if source[fcol - 1:fcol - 1 + len(word)] == word:
            self.ix.add(symbol, fline - 1, fcol - 1, len(word), is_def)
        else:   # the position mapping missed: leave it out, and refuse to rename the name
            self.ix.result.unplaced.add(symbol)

    def find(self, symbol, node, before, binds=False):
        """A name that follows a keyword (`phase NAME`): search for it from the node."""
        word = symbol[-1]
        match = re.compile(f"(?:{before})?\\b{re.escape(word)}\\b").search(
            self.text, self.offset(node.line, node.col))
        if match:
            self.emit_at(symbol, match.end() - len(word), word, binds)


# ------------------------------------------------------------------ projects
class Project:
    """The files an editor works on: open texts over the disk, analyses cached by text.

    roots: folders searched for the scenario files of a spec (their `spec:`
    names it), for references and renames across files.
    """

    def __init__(self, roots=()):
        self.roots = [os.path.abspath(r) for r in roots]
        self.open: dict[str, str] = {}
        self._analyses: dict[str, Analysis] = {}
        self._good: dict[str, Analysis] = {}

    def set_text(self, file: str, text: str | None) -> None:
        """The editor's text of `file` (None: closed, the disk's text counts again)."""
        file = os.path.abspath(file)
        if text is None:
            self.open.pop(file, None)
        else:
            self.open[file] = text

    def text(self, file: str) -> str:
        """The editor's text of `file`, else the disk's (read_text: raises SpecErrors)."""
        file = os.path.abspath(file)
        return self.open[file] if file in self.open else read_text(file)

    def analysis(self, file: str) -> Analysis:
        """The analysis of the file's current text (diagnostics are always its own)."""
        file = os.path.abspath(file)
        try:
            text = self.text(file)
        except SpecErrors as e:   # gone, too large, not UTF-8: say so, as for a bad text
            return Analysis(file, "", diagnostics=_diagnostics("", e.errors))
        cached = self._analyses.get(file)
        if cached is None or cached.text != text or self._stale(cached):
            cached = analyze(file, text, read=self.text)
            self._analyses[file] = cached
            if cached.names is not None:
                self._good[file] = cached
        return cached

    def _stale(self, a: Analysis) -> bool:
        """A scenario's analysis is stale when its spec's text has changed."""
        if a.spec_analysis is None:
            return False
        try:
            return self.text(a.spec_analysis.file) != a.spec_analysis.text
        except SpecErrors:
            return True

    def usable(self, file: str) -> Analysis:
        """The latest analysis with a symbol table: while a text is broken mid-edit,
        completion and navigation use the last one that loaded."""
        now = self.analysis(file)
        return now if now.names is not None else self._good.get(os.path.abspath(file), now)

    def scenario_files(self, spec_file: str) -> list[str]:
        """Files under the roots whose `spec:` names `spec_file`."""
        spec_file, found = os.path.abspath(spec_file), []
        for root in self.roots:
            for folder, dirs, files in os.walk(root):
                dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d != "node_modules")
                for name in sorted(files):
                    if name.endswith((".yaml", ".yml")):
                        path = os.path.join(folder, name)
                        if _names_spec(self, path, spec_file):
                            found.append(path)
        return found

    def family(self, file: str) -> list[Analysis]:
        """The analyses a rename or a reference search spans: a spec and its scenario files."""
        a = self.usable(file)
        spec_file = a.spec_file or a.file
        members = [spec_file] + [f for f in self.scenario_files(spec_file) if f != spec_file]
        if a.file not in members:
            members.append(a.file)
        return [self.usable(f) for f in members]


_SPEC_KEY = re.compile(r"^spec:\s*[\"']?([^\"'#\n]+?)[\"']?\s*(#.*)?$", re.M)


def _names_spec(project: Project, path: str, spec_file: str) -> bool:
    try:
        text = project.text(path)
    except SpecErrors:
        return False
    match = _SPEC_KEY.search(text)
    if not match or "scenarios:" not in text:
        return False
    return os.path.normpath(os.path.join(os.path.dirname(path), match.group(1))) == spec_file
