"""The `rulespec` command. Streams are arguments, so tests call `main` in-process.

Exit status: 0 clean, 1 invalid spec / failed check / divergent log, 2 bad usage.
Only what a subcommand needs is imported when it runs, so start-up stays quick.
"""
from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import sys


class _Parser(argparse.ArgumentParser):
    """argparse that reports usage errors through our streams with status 2."""

    def __init__(self, *args, stderr=None, **kwargs):
        super().__init__(*args, **kwargs)
        self._stderr = stderr

    def error(self, message):
        raise _Usage(f"{self.prog}: error: {message}", self.format_usage())


class _Usage(Exception):
    """Bad usage (status 2): str() is the message; `usage` the usage line of the
    command it was made with, or None after parsing (a check of a command's own,
    said with the command's usage line: _as_command_said). `machine`: the command
    line was right but this machine cannot do it (an extra or a program missing,
    the port taken), so no usage line is shown."""

    def __init__(self, message, usage=None, machine=False):
        super().__init__(message)
        self.usage, self.machine = usage, machine


AGENTS_HELP = ("'random' for every seat, or one agent per seat, comma-separated: random, first, "
               "human (types an option's number or text; `help` at the prompt), greedy, greedy:N (looks past up to N decisions of the others, played at "
               "random), mcts:N[:D] (N playouts per decision; D cuts each playout after D "
               "decisions and judges it by the spec's heuristic) (default: %(default)s)")


class _Version(argparse.Action):
    """--version: the installed package's version, read only when asked (start-up stays quick)."""

    def __init__(self, option_strings, dest=argparse.SUPPRESS, **kwargs):
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **kwargs)

    def __call__(self, parser, namespace, values, option_string=None):
        from importlib.metadata import PackageNotFoundError, version
        try:
            text = version("rulespec")
        except PackageNotFoundError:   # run from a source tree that was never installed
            text = "unknown (not installed)"
        print(f"rulespec {text}", file=sys.stdout)   # stdout, as argparse's own version action
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="rulespec", description="Board games as data: validate, play and test specs.",
                epilog="Exit status: 0 clean, 1 invalid spec or failed check, 2 bad usage. "
                       "'rulespec COMMAND --help' describes each command.")
    p.add_argument("--version", action=_Version, help="print rulespec's version and exit")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser,
                           help="one of these (each has its own --help):")
    p.commands = sub.choices   # each command's own parser, to word its usage errors (_parse)

    v = sub.add_parser("validate", help="check spec files; print FILE:LINE:COL errors",
                       description="Check specs: shape, rules, names, kinds of value.")
    v.add_argument("files", nargs="+", metavar="FILE", help="spec files (YAML)")
    v.add_argument("--variant", help="check only with this variant applied (default: the base "
                                      "and every variant)")
    v.add_argument("--all-variants", action="store_true",
                   help="check the base and every variant (the default)")
    v.add_argument("--format", choices=["text", "json", "github"], default="text",
                   help="text: FILE:LINE:COL lines; json: a list of objects; github: Actions "
                        "annotations (default: %(default)s)")
    v.add_argument("--assumptions", action="store_true", help="list every `assumed:` value")

    for name, helptext in (("play", "play one game"), ("simulate", "play many games and summarise")):
        s = sub.add_parser(name, help=helptext, description=helptext[0].upper() + helptext[1:] + ".")
        s.add_argument("file", metavar="FILE", help="the spec to play")
        _add_game_options(s)
        if name == "play":
            s.add_argument("--log", metavar="PATH", help="write a JSONL log of the game")
            s.add_argument("--trace", action="store_true",
                           help="print every state change with the rule (FILE:LINE) that caused it")
            s.add_argument("--seat", type=int, metavar="K",
                           help="with --trace: print only what seat K (1-based) may see")
        else:
            s.add_argument("-n", "--games", type=int, default=100,
                           help="games to play, with seeds S, S+1, ... (default: %(default)s)")
            s.add_argument("--check-invariants", action="store_true",
                           help="check the spec's invariants after every step")
            s.add_argument("--out", metavar="PATH.parquet",
                           help="also write one row per game to a Parquet results file "
                                "(pip install -e '.[results]'); read it with `rulespec report`, "
                                "pandas or DuckDB")
            _add_run_options(s)
    c = sub.add_parser("compare", help="simulate two variants on the same seeds; what changed",
                       description="Simulate two variants on the same seeds and print what changed, "
                                   "with 95%% intervals, effect sizes and p-values corrected for "
                                   "the number of rows (Holm).")
    c.add_argument("file", metavar="FILE",
                   help="the spec to play; or a results file (.parquet) written by simulate --out")
    c.add_argument("against", nargs="?", metavar="RESULTS_B",
                   help="with a results file as FILE: the second results file; nothing is played")
    c.add_argument("--variant", action="append",
                   help="once: base vs this variant; twice: the first vs the second ('base' names the base)")
    c.add_argument("-n", "--games", type=int, default=100,
                   help="games per variant, with seeds S, S+1, ... (default: %(default)s)")
    _add_game_options(c, variant=False, players_required=False)
    c.add_argument("--html", metavar="PATH", help="also write a self-contained page with plots")
    _add_run_options(c)

    rp = sub.add_parser("report", help="summarise a results file without replaying it",
                        description="Summarise the games of a results file written by "
                                    "`simulate --out`, as simulate prints them.")
    rp.add_argument("results", metavar="RESULTS.parquet", help="a results file")
    rp.add_argument("--json", action="store_true", help="print one JSON object")
    rp.add_argument("--html", metavar="PATH", help="also write a self-contained page with plots")
    r = sub.add_parser("replay", help="re-run a JSONL log; exit 1 at the first divergence")
    r.add_argument("log", metavar="LOG", help="a log written by play --log")
    r.add_argument("--against", metavar="SPEC",
                   help="play the log on this spec (an edited one) and say where the game changes")
    r.add_argument("--html", metavar="OUT", help="write a self-contained replay viewer page to OUT instead "
                                                 "(needs the [web] extra)")
    w = sub.add_parser("serve", help="play at a web table: a page per seat (needs the [web] extra)")
    w.add_argument("file", metavar="FILE", help="the spec to play")
    w.add_argument("--players", type=int, default=None, help="players (default: the fewest the game allows)")
    w.add_argument("--seed", type=int, default=0, help="the game's seed (default: %(default)s)")
    w.add_argument("--agents", default=None, help="one agent per seat, e.g. human,random (default: human, then random)")
    w.add_argument("--variant", help="play with this variant applied")
    w.add_argument("--port", type=int, default=8000, help="port to serve on (default: %(default)s)")
    w.add_argument("--host", default="127.0.0.1", help="address to listen on (default: %(default)s, this machine only)")
    w.add_argument("--pause", type=float, default=0.8, help="seconds a bot waits before moving")
    sc = sub.add_parser("scenario", help="run scenario test files")
    sc.add_argument("files", nargs="+", metavar="FILE", help="scenario files (YAML)")
    sch = sub.add_parser("schema", help="print the spec format's JSON Schema")
    sch.add_argument("--scenario", action="store_true", help="the scenario file format's schema instead")
    sch.add_argument("--path", action="store_true", help="print the installed schema file's location")
    sub.add_parser("lsp", help="run the language server on stdin/stdout (needs the [lsp] extra)")
    g = sub.add_parser("graph", help="draw a spec's boards (Graphviz DOT, or PNG)",
                       description="Draw a spec's boards as one Graphviz DOT graph on stdout: "
                                   "every board, each a cluster labelled with its name (one "
                                   "board alone is drawn as itself). With --png the picture is "
                                   "written to PATH instead and only its place is printed. "
                                   "Exit 1 when the spec has no board to draw; an unknown "
                                   "--board is bad usage (2), listing the boards.")
    g.add_argument("file", metavar="FILE", help="the spec whose boards to draw")
    g.add_argument("--board", help="draw this board alone (default: every board)")
    g.add_argument("--variant", help="draw with this variant applied")
    g.add_argument("--seat", type=int, metavar="K", help="draw seat K's board (1 is the first "
                   "seat, as for play --seat) as joined during set-up")
    g.add_argument("--players", type=int, help="with --seat: players in the game (default: fewest)")
    g.add_argument("--seed", type=int, default=0, help="with --seat: the game's seed (default: %(default)s)")
    g.add_argument("--png", metavar="PATH", help="write a PNG picture to PATH instead of printing DOT "
                                                 "(needs Graphviz's `dot`)")
    g.add_argument("--dot", action="store_true", help="with --png: print the DOT text too")
    return p


def _add_game_options(s, variant=True, players_required=True):
    s.add_argument("--players", type=int, required=players_required, help="number of players")
    s.add_argument("--seed", type=int, default=0, help="random seed (default: %(default)s)")
    s.add_argument("--agents", default="random", help=AGENTS_HELP)
    if variant:
        s.add_argument("--variant", help="play this variant of the spec")
    s.add_argument("--json", action="store_true", help="print one JSON object")


def _add_run_options(s):
    from .analysis.simulate import DEFAULT_CUTOFF
    s.add_argument("--cutoff", type=int, default=DEFAULT_CUTOFF, metavar="DECISIONS",
                   help="cut off a game still running after this many decisions; cut-off games "
                        "are reported apart and count in no win or score; 0: never "
                        "(default: %(default)s)")
    s.add_argument("--jobs", type=int, help="worker processes (default: all cores)")
    s.add_argument("--backend", choices=["local", "ray"], default="local",
                   help="local process pool, or a Ray cluster (pip install -e '.[ray]') "
                        "(default: %(default)s)")
    s.add_argument("--address", help="Ray cluster address (default: start a local Ray)")


def _parse(parser, argv) -> argparse.Namespace:
    """The arguments; raises _Usage. Arguments the command does not take are blamed
    on it, with its usage, where argparse's parse_args blames the top-level parser."""
    args, extras = parser.parse_known_args(argv)
    if extras:
        command = parser.commands.get(args.command, parser)
        command.error(f"unrecognized arguments: {' '.join(extras)}")
    return args


def main(argv=None, stdout=None, stderr=None, stdin=None) -> int:
    out, err = stdout or sys.stdout, stderr or sys.stderr
    parser = build_parser()
    try:
        with contextlib.redirect_stdout(out):   # --help and --version print to our stream
            args = _parse(parser, argv)
    except _Usage as e:
        print(e.usage.rstrip(), file=err)
        print(str(e), file=err)
        return 2
    except SystemExit as e:      # --help, --version
        return int(e.code or 0)
    if args.command is None:
        parser.print_help(out)
        return 2
    from rulespec.errors import RulespecError, UnknownVariant
    from .tools.output import CannotWrite
    handler = COMMANDS[args.command]
    try:
        return handler(args, out, err, stdin or sys.stdin)
    except _Usage as e:
        print(_as_command_said(e, parser.commands.get(args.command)), file=err)
        return 2
    except CannotWrite as e:   # the output path the user named: theirs to change (tools/output.py)
        print(f"rulespec: error: {e}", file=err)
        return 2
    except UnknownVariant as e:   # named by --variant: bad usage (2), as an unknown --board is
        print(e.format(), file=err)
        return 2 if e.variant in _asked_variants(args) else 1
    except RulespecError as e:   # one with no place in a file (input ended) is not put at <spec>:1:1
        print(e.format() if e.file or e.line else f"rulespec: error: {e.message}", file=err)
        return 1
    except KeyboardInterrupt:
        print("interrupted", file=err)
        return 130
    except BrokenPipeError:     # `rulespec play ... | head`: the reader has all it wants
        _quiet_stdout(out)
        return 0
    except OSError as e:        # any other file that fails (output files are CannotWrite)
        print(f"rulespec: error: {e.filename or ''}: {e.strerror or e}", file=err)
        return 1


def _as_command_said(e: _Usage, command) -> str:
    """A command's own check of its arguments (after parsing) said as argparse says
    its errors: the command's usage line, then `rulespec COMMAND: error: ...`."""
    message = str(e)
    if command is None or e.usage is not None or e.machine:
        return message
    prefix = "rulespec: error: "
    if message.startswith(prefix):
        message = f"{command.prog}: error: {message[len(prefix):]}"
    return command.format_usage().rstrip() + "\n" + message


def _asked_variants(args) -> list:
    """The variant names the command line gave (--variant, once or, for compare, more)."""
    asked = getattr(args, "variant", None)
    return [] if asked is None else asked if isinstance(asked, list) else [asked]


def _quiet_stdout(out) -> None:
    """Point a closed pipe's stdout at /dev/null, so the exit's flush cannot fail again."""
    try:
        out.fileno()
    except (AttributeError, OSError, ValueError):
        return      # a StringIO: nothing to close
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, out.fileno())


def _json(data) -> str:
    from .engine.shapes import dumps
    return dumps(data)


def _check_output(path, option: str, inputs=()) -> None:
    """Refuse an output path before any work is done: its folder must exist and be
    writable, and the path must not be a folder (or a file we may not write), nor
    one of the command's `inputs` (a spec, a log: writing would destroy it)."""
    folder = os.path.dirname(os.path.abspath(path))
    for given in inputs:
        if given and _same_file(path, given):
            raise _Usage(f"rulespec: error: {option} {path}: that is the input file {given}, "
                         f"which writing would overwrite: choose another path")
    if os.path.isdir(path):
        raise _Usage(f"rulespec: error: {option} {path}: is a folder, not a file")
    if not os.path.isdir(folder):
        raise _Usage(f"rulespec: error: {option} {path}: no folder {folder}")
    if not os.access(folder, os.W_OK) or (os.path.exists(path) and not os.access(path, os.W_OK)):
        raise _Usage(f"rulespec: error: {option} {path}: not writable")


def _same_file(a, b) -> bool:
    try:
        return os.path.samefile(a, b)
    except (OSError, ValueError):   # one does not exist (yet): the same path, resolved?
        return os.path.realpath(a) == os.path.realpath(b)


# ------------------------------------------------------------------- validate
def cmd_validate(args, out, err, stdin) -> int:
    from rulespec import validate
    from rulespec.errors import RulespecError, UnknownVariant

    problems, listed, variant_count = [], [], 0
    for file in args.files:
        text = _text_of(file)
        variants = _variants_to_check(file, args, text)
        variant_count += sum(1 for v in variants if v is not None)
        in_base: set = set()
        for variant in variants:
            try:
                checked = validate(file, variant=variant, text=text)
            except UnknownVariant:
                raise   # only --variant names one: bad usage (main)
            except RulespecError as e:
                found = getattr(e, "errors", [e])
                if args.assumptions and variant == variants[0]:   # those read despite the errors
                    listed.extend((file, a) for a in getattr(e, "assumptions", ()))
                if variant is None:
                    in_base = {p.format() for p in found}
                problems.extend(_in_variant(p, variant) for p in found if p.format() not in in_base
                                or variant is None)
                continue
            if args.assumptions and variant == variants[0]:
                listed.extend((file, a) for a in checked.spec.assumptions)
    if args.assumptions and args.format == "json":   # one JSON object: errors and assumptions
        print(json.dumps({"errors": [p.as_dict() for p in {p.format(): p for p in problems}.values()],
                          "assumptions": [_assumption(file, a) for file, a in listed]}), file=out)
    else:
        _print_problems(problems, args.format, out, err)
        for file, a in listed:
            print(_assumption_line(file, a, args.format), file=out)
    if not problems and args.format == "text":
        checked = ("" if args.variant is not None else
                   f" (base and {variant_count} variant{'s' if variant_count != 1 else ''})"
                   if variant_count else "")
        print(f"ok: {len(args.files)} file{'s' if len(args.files) != 1 else ''} valid{checked}", file=err)
    return 1 if problems else 0


def _assumption(file, a) -> dict:
    return {"file": file, "line": a.line, "col": a.col, "path": a.path, "value": a.value,
            "reason": a.reason}


def _assumption_line(file, a, fmt) -> str:
    value = json.dumps(a.value, ensure_ascii=False, default=str)
    value = value if len(value) <= 40 else value[:37] + "..."
    if fmt == "github":   # a notice in the pull request, next to the value
        return (f"::notice file={_gh(file, True)},line={a.line},col={a.col},title=assumed::"
                f"{_gh(f'{a.path} = {value}: {a.reason}')}")
    return f"{file}:{a.line}:{a.col}: assumed: {a.path} = {value} — {a.reason}"


def _in_variant(problem, variant):
    """An error seen with a variant applied (and not in the base) names the variant."""
    if variant is None:
        return problem
    from rulespec.errors import RulespecError
    return RulespecError(f"{problem.message} [variant {variant}]", problem.file, problem.line,
                         problem.col, problem.path)


def _text_of(file) -> str | None:
    """The text of spec `file`, read once for its base and every variant (a pipe, as
    the shell's `<(...)`, reads only once); None when it cannot be read, which
    validate then says, reading it again."""
    from rulespec.errors import RulespecError
    from rulespec.loader import _read
    try:
        return _read(file)
    except RulespecError:
        return None


def _variants_to_check(file, args, text=None) -> list:
    """The base and every variant, or the one `--variant` names (text: the file's)."""
    if args.variant is not None:
        return [args.variant]
    from rulespec.errors import RulespecError
    from rulespec.loader import load_spec
    try:
        names = list((load_spec(file, text=text).data.get("variants") or {}).keys())
    except RulespecError:
        names = []
    return [None] + names


def _print_problems(problems, fmt, out, err):
    seen = set()
    unique = []
    for p in problems:
        key = p.format()
        if key not in seen:
            seen.add(key)
            unique.append(p)
    if fmt == "json":
        print(json.dumps([p.as_dict() for p in unique]), file=out)
    elif fmt == "github":
        for p in unique:
            print(f"::error file={_gh(p.file, True)},line={p.line or 1},col={p.col or 1}::"
                  f"{_gh(p.message)}", file=out)
    else:
        for p in unique:
            print(p.format(), file=out)


def _gh(text, property_value=False) -> str:
    """Escape for a GitHub Actions workflow command (its runner decodes these)."""
    text = str(text).replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    return text.replace(":", "%3A").replace(",", "%2C") if property_value else text


# ------------------------------------------------------------------ play
def _game_and_agents(args, stdin, out):
    from .agents import parse_agents
    from .engine.game import load_game
    game = load_game(args.file, variant=args.variant)
    if not game.min_players <= args.players <= game.max_players:
        raise _Usage(f"rulespec: error: {game.name} is for {game.min_players} to "
                     f"{game.max_players} players, not {args.players}")
    try:
        names = parse_agents(args.agents, args.players)
    except ValueError as e:
        raise _Usage(f"rulespec: error: {e}") from None
    return game, names


def cmd_play(args, out, err, stdin) -> int:
    from .agents import make_agents
    from .tools.log import write_log
    from .tools.play import play, result
    if args.log:
        _check_output(args.log, "--log", [args.file])
    game, names = _game_and_agents(args, stdin, out)
    agents = make_agents(names, args.seed, stdin=stdin, stdout=out)
    trace = None
    if args.seat is not None and not (args.trace and 1 <= args.seat <= args.players):
        raise _Usage(f"rulespec: error: --seat takes a seat from 1 to {args.players}, with --trace")
    if args.trace:
        from .tools.trace import printer, announcing, for_seat
        seat = None if args.seat is None else args.seat - 1
        trace, agents = printer(out, game.player_names), announcing(agents, out, seat)
        if seat is not None:
            trace = for_seat(trace, game, seat)
    elif "human" in names:   # a person hears of forced decisions, passed turns and log lines
        from .tools.trace import messages
        trace = messages(out, game.player_names, {i for i, n in enumerate(names) if n == "human"})
        from .agents.human import at_the_table   # and what changed, in words, at their next decision
        agents, trace = at_the_table(agents, trace)
    if args.log:
        from .tools.output import writing
        from .tools.trace import quiet
        with writing(args.log) as log:   # a log always carries provenance
            state = write_log(game, args.players, args.seed, names, agents, log, trace=trace or quiet)
    else:
        state = play(game, args.players, args.seed, agents, trace=trace)
    summary = {"game": game.name, "variant": game.variant, "players": args.players,
               "seed": args.seed, "agents": names, **result(state)}
    if args.json:
        print(_json(summary), file=out)
    else:
        _print_result(game, state, summary, out)
    return 0


def _print_result(game, state, summary, out):
    print(f"{game.name}{' (' + game.variant + ')' if game.variant else ''}: "
          f"{summary['decisions']} decisions, ended by {summary['ended_by']}", file=out)
    winners = set(summary["winner"])
    for seat, score in enumerate(summary["scores"]):
        mark = "  winner" if seat in winners else ""
        print(f"  {game.seat_name(seat)} ({summary['agents'][seat]}): {score}{mark}", file=out)
    if not winners and state.is_terminal():
        print("  no winner: no seat met the spec's `scoring: eligible:` condition", file=out)
    decided = _tiebreak_that_decided(game, state, summary)
    if decided:
        print(f"  tied on score; the tie-break `{decided}` decided", file=out)


def _tiebreak_that_decided(game, state, summary):
    """The text of the first tie-break that parted seats tied on the top score, or None."""
    winners, scores = summary["winner"], summary["scores"]
    if not winners:
        return None
    tied = [s for s, sc in enumerate(scores) if sc == scores[winners[0]]]
    if len(tied) <= len(winners):
        return None
    texts = (game.data.get("scoring") or {}).get("tiebreaks") or []
    for text, tb in zip(texts, game.tiebreaks):
        if len({tb(state, {"p": state.seats[s]}) for s in tied}) > 1:
            return str(text)
    return None


def cmd_simulate(args, out, err, stdin) -> int:
    from .analysis.simulate import BackendMissing, GamesFailing, format_summary, simulate_command
    if args.out:   # before any game is played: a missing extra is bad usage, found at once
        from .analysis import results
        try:
            results.need_pyarrow()
        except results.ResultsMissing as e:
            raise _Usage(f"rulespec: error: --out: {e}") from None
        _check_output(args.out, "--out", [args.file])
    game, names = _simulation_setup(args, stdin, out)
    try:
        summary = simulate_command(game, args, names, err)
    except BackendMissing as e:
        raise _Usage(f"rulespec: error: {e}") from None
    except GamesFailing as e:
        print(e, file=err)
        return 1
    if args.json:
        print(_json(summary), file=out)
    else:
        print(format_summary(summary, game.seat_name), file=out)
    failed = summary["errors"]["count"] or summary["first_invariant_violation"]
    return 1 if failed else 0


def cmd_compare(args, out, err, stdin) -> int:
    from .analysis.compare import compare_command
    from .analysis.simulate import BackendMissing, GamesFailing
    if args.file.endswith(".parquet") or args.against:
        return _compare_stored(args, out)
    if not args.variant:
        raise _Usage("rulespec: error: compare FILE needs --variant (once or twice), "
                     "or two results files: compare A.parquet B.parquet")
    if args.players is None:
        raise _Usage("rulespec: error: compare FILE needs --players")
    if len(args.variant) > 2:
        raise _Usage("rulespec: error: compare takes --variant once or twice")
    if args.html:
        _check_output(args.html, "--html", [args.file])
    variants = [None if v == "base" else v for v in args.variant]
    if len(variants) == 1:
        variants = [None] + variants
    games = []
    for variant in variants:
        game, names = _simulation_setup(argparse.Namespace(**{**vars(args), "variant": variant}),
                                        stdin, out)
        games.append(game)
    try:
        return compare_command(games, args, names, out, err)
    except BackendMissing as e:
        raise _Usage(f"rulespec: error: {e}") from None
    except GamesFailing as e:
        print(e, file=err)
        return 1


def _compare_stored(args, out) -> int:
    """`compare A.parquet B.parquet`: two stored runs side by side, nothing replayed."""
    from .analysis import results
    from .analysis.compare import compare, format_comparison
    if not args.against:
        raise _Usage("rulespec: error: compare needs two results files: compare A.parquet B.parquet")
    if args.variant:
        raise _Usage("rulespec: error: --variant is for a spec; results files name their variant")
    if args.html:
        _check_output(args.html, "--html", [args.file, args.against])
    try:
        runs = []
        for path in (args.file, args.against):
            game, players, records = results.read(path)
            runs.append((game, records, sum(r.get("seconds", 0.0) for r in records)))
    except results.ResultsMissing as e:
        raise _Usage(f"rulespec: error: {e}") from None
    players = {results.read(p)[1] for p in (args.file, args.against)}
    if len(players) != 1:
        raise _Usage("rulespec: error: the two results files are games of different player counts")
    result = compare(runs, players.pop())
    print(json.dumps(result) if args.json else format_comparison(result), file=out)
    if args.html:
        from .analysis.report_html import comparison_page
        from .tools.output import write_file
        write_file(args.html, comparison_page(result, [r for _, r, _ in runs]))
    return 0


def cmd_report(args, out, err, stdin) -> int:
    """`rulespec report RESULTS.parquet`: the summary simulate printed, from stored rows."""
    from .analysis import results
    from .analysis.simulate import format_summary, summarize
    if args.html:
        _check_output(args.html, "--html", [args.results])
    try:
        game, players, records = results.read(args.results)
    except results.ResultsMissing as e:
        raise _Usage(f"rulespec: error: {e}") from None
    summary = summarize(game, players, records, sum(r.get("seconds", 0.0) for r in records))
    print(json.dumps(summary) if args.json else format_summary(summary, game.seat_name), file=out)
    if args.html:
        from .analysis.report_html import summary_page
        from .tools.output import write_file
        write_file(args.html, summary_page(summary, records))
    return 0


def _simulation_setup(args, stdin, out):
    game, names = _game_and_agents(args, stdin, out)
    if "human" in names:
        raise _Usage("rulespec: error: simulate plays without people: use random, first, greedy or mcts agents")
    if args.games < 1 or (args.jobs is not None and args.jobs < 1):
        raise _Usage("rulespec: error: -n and --jobs must be at least 1")
    if args.cutoff < 0:
        raise _Usage(f"rulespec: error: --cutoff {args.cutoff}: a number of decisions, "
                     f"at least 0 (0: never cut a game off)")
    return game, names


# --------------------------------------------------------- replay / scenario
def cmd_replay(args, out, err, stdin) -> int:
    from .engine.game import load_game
    if args.html:
        _check_output(args.html, "--html", [args.log, args.against])
        try:
            import jinja2  # noqa: F401  (the web extra's templates, imported late by the page)
            from .web.replay import replay_page
        except ImportError as e:
            raise _Usage(f"rulespec: error: replay --html needs the web extra (pip install -e '.[web]'): {e}",
                         machine=True) from None
        from .tools.output import write_file
        page = replay_page(args.log, load_game, against=args.against)
        write_file(args.html, page)
        print(f"wrote {args.html} ({len(page) // 1024} kB)", file=out)
        return 0
    from .tools.log import replay
    ok, message = replay(args.log, load_game, against=args.against)
    print(message, file=out if ok else err)
    return 0 if ok else 1


def cmd_serve(args, out, err, stdin) -> int:
    from .engine.game import load_game
    try:
        import jinja2, starlette, uvicorn  # noqa: F401,E401  (the web extra, imported late by serve)
        from .web.app import listening_socket, serve
        from .web.session import Session
    except ImportError as e:
        raise _Usage(f"rulespec: error: serve needs the web extra (pip install -e '.[web]'): {e}",
                         machine=True) from None
    game = load_game(args.file, variant=args.variant)
    args.players = args.players or game.min_players
    args.agents = args.agents or ",".join(["human"] + ["random"] * (args.players - 1))
    game, names = _game_and_agents(args, stdin, out)
    if "human" not in names:
        raise _Usage("rulespec: error: serve needs at least one human seat (--agents human,random,...)")
    if not (math.isfinite(args.pause) and args.pause >= 0) or not 0 < args.port < 65536:
        raise _Usage("rulespec: error: --pause must be a finite number of seconds >= 0 "
                     "and --port 1..65535")
    session = Session(game, args.players, args.seed, names, console=err)
    try:
        sock = listening_socket(args.host, args.port)
    except OSError as e:   # the --port or --host asked for: bad usage, said before any link
        raise _Usage(_cannot_listen(args, e), machine=True) from None
    serve(session, sock, args.pause, out)
    return 0


def _cannot_listen(args, e: OSError) -> str:
    import errno
    reason = e.strerror or str(e)
    if e.errno == errno.EADDRINUSE:
        return (f"rulespec serve: error: port {args.port} is in use ({reason}); "
                f"choose another with --port")
    return f"rulespec serve: error: cannot listen on {args.host}:{args.port} ({reason})"


def cmd_scenario(args, out, err, stdin) -> int:
    from .engine.game import load_game
    from .tools.scenario import read_file, run_scenarios
    files = [read_file(file, load_game) for file in args.files]
    problems = [e for found in files for e in found.errors]
    if problems:   # like validate: a file that is wrong as written is not run at all
        _print_problems(problems, "text", out, err)
        return 1
    passed = failed = 0
    for found in files:
        file = found.path
        for outcome in run_scenarios(found, load_game):
            if outcome.passed:
                passed += 1
                print(f"PASS {file}: {outcome.name}", file=out)
            else:
                failed += 1
                print(f"FAIL {file}: {outcome.name}", file=out)
                for failure in outcome.failures:
                    print("  " + failure.format(), file=out)
    print(f"{passed} passed, {failed} failed", file=out)
    return 1 if failed else 0


def cmd_schema(args, out, err, stdin) -> int:
    from rulespec.schema import schema_text
    if args.path:   # for editors' settings outside this repository (yaml.schemas)
        from rulespec import schema
        out.write(f"{schema.SCENARIO_SCHEMA_PATH if args.scenario else schema.SCHEMA_PATH}\n")
        return 0
    out.write(schema_text(scenario=args.scenario))
    return 0


def cmd_lsp(args, out, err, stdin) -> int:
    try:
        from rulespec.lsp.server import main as serve
    except ImportError as e:
        print(f"rulespec lsp needs pygls: pip install -e '.[lsp]' in a clone of rulespec ({e})", file=err)
        return 1
    return serve()


def cmd_graph(args, out, err, stdin) -> int:
    from .engine.game import load_game
    if args.png:
        _check_output(args.png, "--png", [args.file])
    game = load_game(args.file, variant=args.variant)
    try:
        dot = _seat_dot(game, args) if args.seat is not None else _boards_dot(game, args)
    except _NothingToDraw as e:   # a valid spec without what was asked: a data problem, not usage
        print(f"rulespec: error: {args.file}: {e}", file=err)
        return 1
    if args.png:
        from .tools.output import write_file
        try:
            picture = _render_png(dot)
        except _DotFailed as e:   # not the user's doing: a failed run, as a bad spec is
            print(f"rulespec graph: error: {e}", file=err)
            return 1
        write_file(args.png, picture)
        print(f"wrote {args.png} ({len(picture) // 1024} kB)",   # as replay --html says it
              file=err if args.dot else out)
    if args.dot or not args.png:
        out.write(dot)
    return 0


class _NothingToDraw(Exception):
    pass


def _boards_dot(game, args) -> str:
    if not game.boards:
        raise _NothingToDraw("there is no board to draw: the spec has no `boards:` section")
    from .tools.render import boards_dot
    if args.board is not None and args.board not in game.boards:
        raise _Usage(f"rulespec: error: no board '{args.board}'; the boards are: {', '.join(game.boards)}")
    boards = [game.boards[args.board]] if args.board is not None else list(game.boards.values())
    return boards_dot(game.name, boards)


def _seat_dot(game, args) -> str:
    from .tools.render import board_dot
    players = args.players or game.min_players
    if not 1 <= args.seat <= players:
        raise _Usage(f"rulespec: error: --seat takes a seat from 1 to {players}")
    try:
        return board_dot(game, args.seat - 1, players=players, seed=args.seed)
    except ValueError as e:   # no per-player layout in this game
        raise _NothingToDraw(f"there is no board to draw for seat {args.seat}: {e}") from None


def _render_png(dot: str) -> bytes:
    """The PNG picture Graphviz's `dot` draws of `dot`; _Usage without `dot`,
    _DotFailed when it fails. The picture comes back on dot's stdout and the CLI
    writes the file, so a path that cannot be written is said as by every
    command (tools/output.py), apart from a failure of dot's own."""
    import shutil
    import subprocess
    if shutil.which("dot") is None:
        raise _Usage("rulespec: error: --png needs Graphviz's `dot` on the PATH "
                     "(e.g. apt-get install graphviz); without --png the DOT text is printed",
                     machine=True)
    # A hex layout places every cell itself (pos, in points): neato -n2 keeps those
    # places so the hexes tile; plain dot would lay them out again, spaced apart.
    engine = ["-Kneato", "-n2"] if "pos=" in dot else []
    done = subprocess.run(["dot", *engine, "-Tpng"], input=dot.encode(), capture_output=True)
    if done.returncode != 0:
        raise _DotFailed(_dot_said(done.returncode, done.stderr))
    return done.stdout


class _DotFailed(Exception):
    pass


def _dot_said(code: int, stderr: bytes, limit: int = 300) -> str:
    """dot's failure in one short line: its exit status and its own words, cut."""
    words = " ".join(stderr.decode("utf-8", "replace").split())
    words = words if len(words) <= limit else words[:limit - 3] + "..."
    return f"Graphviz's `dot` failed (exit status {code})" + (f": {words}" if words else "")


COMMANDS = {"validate": cmd_validate, "play": cmd_play, "simulate": cmd_simulate,
            "compare": cmd_compare, "report": cmd_report,
            "replay": cmd_replay, "scenario": cmd_scenario, "schema": cmd_schema,
            "graph": cmd_graph, "serve": cmd_serve, "lsp": cmd_lsp}


if __name__ == "__main__":
    sys.exit(main())
