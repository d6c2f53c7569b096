"""Write the hostile corpus: specs, scenario files, logs, saves and command lines an
attacker (or a tired designer) might feed rulespec. `python -m tests.hostile.make_corpus`
rewrites the data files beside this module; test_hostile.py runs them all.

Each entry is one *kind* of attack from issue 14 (a literal Python's parser would
choke on, a nesting, a size, a fault outside the run loop, a corrupt log or save, a
bad command line). Files of several megabytes (a 100,000-card list, 10,000 unknown
names) are not stored: `generated()` writes them into a temporary folder.
"""
from __future__ import annotations

import json
from pathlib import Path

HERE = Path(__file__).parent
MARKET = "../../games/market.yaml"      # relative to tests/hostile/<kind>/


def spec(flow: str, score: str = "p.x", extra: str = "", limits: str = "{steps: 20000, seconds: 2}",
         per_player: str = "x: {start: 0}") -> str:
    """A two-player game whose flow is `flow` (DSL, indented by the caller as needed)."""
    body = "\n".join("  " + line for line in flow.strip("\n").split("\n"))
    return (f"game: Hostile\nplayers: {{min: 2, max: 2}}\nlimits: {limits}\n"
            f"globals:\n  g: {{start: none}}\nper_player:\n  {per_player}\n"
            f"flow: |\n{body}\nscoring:\n  score: {json.dumps(score)}\n{extra}")


def nested_ifs(n: int) -> str:
    return "".join("    " * i + "if true:\n" for i in range(n)) + "    " * n + "g = 1\n"


UNSEEN = 'h = random_of(["ab", [1]])\n'    # a value whose kind the checker cannot tell

SPECS = {
    # rules-language literals: never through Python's own parser
    "literal_nul.yaml": 'game: H\nplayers: {min: 2, max: 2}\nglobals: {g: 0}\nflow: "g = \\"a\\0b\\""\n',
    "literal_raw_cr.yaml": 'game: H\nplayers: {min: 2, max: 2}\nglobals: {g: 0}\nflow: "g = \\"a\\rb\\"\\n"\n',
    "literal_cr_outside_string.yaml": 'game: H\nplayers: {min: 2, max: 2}\nglobals: {g: 0}\nflow: "g = 1\\rg = 2"\n',
    "literal_bad_hex_escape.yaml": spec(r'g = "\x4"'),
    "literal_named_escape.yaml": spec(r'g = "\N{NO SUCH}"'),
    "literal_unicode_escape_short.yaml": spec(r'g = "\u12"'),
    "literal_octal_escape.yaml": spec(r'g = "\777"'),
    "literal_escape_at_end.yaml": spec('g = "abc\\\\"'),
    "literal_5000_digits.yaml": spec("g = " + "9" * 5000),
    "literal_5000_digits_in_score.yaml": spec("pass", score="7" * 5000),
    "literal_yaml_int_5000_digits.yaml": spec("g = big", extra="constants:\n  big: " + "8" * 5000 + "\n"),
    "literal_yaml_float_inf.yaml": spec("pass", score="big", extra="constants:\n  big: 1.0e+999\n"),
    "literal_yaml_float_nan.yaml": spec("pass", score="big", extra="constants:\n  big: .nan\n"),
    "literal_yaml_float_dot_inf.yaml": spec("pass", score="-big", extra="constants:\n  big: .inf\n"),
    "literal_string_with_escape_c0.yaml": spec('g = "\\x00\\x1b[31m"'),
    "literal_bidi_override.yaml": spec('g = "\u202eevil"'),
    # depth
    "depth_unary_minus_500.yaml": spec("g = " + "-" * 500 + "1"),
    "depth_not_500.yaml": spec("g = " + "not " * 500 + "true"),
    "depth_if_250.yaml": spec(nested_ifs(250)),
    "depth_parens_1000.yaml": spec("g = " + "(" * 1000 + "1" + ")" * 1000),
    "depth_list_500.yaml": spec("g = " + "[" * 500 + "1" + "]" * 500),
    "depth_sum_2000.yaml": spec("g = " + " + ".join(["1"] * 2000)),
    "depth_index_500.yaml": spec("g = [1]" + "[0]" * 500),
    "depth_calls_300.yaml": spec("g = " + "abs(" * 300 + "1" + ")" * 300),
    "depth_if_expression_300.yaml": spec("g = " + "1 if true else " * 300 + "0"),
    "depth_while_120.yaml": spec("".join("    " * i + "while false:\n" for i in range(120)) + "    " * 120 + "pass\n"),
    "depth_yaml_flow_5000.yaml": "game: H\nplayers: {min: 2, max: 2}\nconstants: {c: " + "[" * 5000 + "]" * 5000 + "}\nflow: pass\n",
    "depth_procedure_recursion.yaml": spec("again(1)", extra="procedures:\n  again:\n    params: [n]\n    do: again(n + 1)\n"),
    "depth_function_recursion_in_score.yaml": spec("pass", score="f(1)", extra="functions:\n  f: {params: [n], expr: \"f(n + 1)\"}\n"),
    "depth_function_recursion_in_flow.yaml": spec("g = f(1)", extra="functions:\n  f: {params: [n], expr: \"f(n + 1)\"}\n"),
    # sizes at play: each hit fast
    "size_range_1e9.yaml": spec("g = range(1000000000)"),
    "size_range_1e20.yaml": spec("g = range(100000000000000000000)"),
    "size_range_negative_1e20.yaml": spec("g = range(-100000000000000000000, 100000000000000000000)"),
    "size_range_of_text.yaml": spec('g = range("ten")'),
    "size_text_times_1e20.yaml": spec('g = "ab" * 100000000000000000000'),
    "size_text_times_1e20_unseen.yaml": spec(UNSEEN + "g = h * 100000000000000000000"),
    "size_list_times_1e9_unseen.yaml": spec(UNSEEN + "g = h * 1000000000"),
    "size_list_times_1e9.yaml": spec("g = [1, 2] * 1000000000"),
    "size_number_times_text.yaml": spec('g = 1000000000 * "x"'),
    "size_list_doubling.yaml": spec("g = [1]\nwhile true:\n    g = g + g"),
    "size_text_doubling.yaml": spec('g = "ab"\nwhile true:\n    g = g + g'),
    "size_square_in_loop.yaml": spec("g = 3\nwhile true:\n    g = g * g"),
    "size_aug_add_doubling.yaml": spec("g = 1\nwhile true:\n    g += g"),
    "size_player_var_doubling.yaml": spec("while true:\n    players[0].x = players[0].x + players[0].x + 1"),
    "size_append_forever.yaml": spec("g = []\nwhile true:\n    g = append(g, g)", limits="{steps: 1000000, seconds: 2, size: 5000}"),
    "size_with_key_forever.yaml": spec("g = {}\nn = 0\nwhile true:\n    n += 1\n    g = with_key(g, n, n)", limits="{seconds: 2, size: 5000}"),
    "size_comprehension_square.yaml": spec("g = range(100000)\ng = [[y for y in g] for x in g]"),
    "size_flatten.yaml": spec("g = range(1000)\ng = flatten([g for x in range(100000)])"),
    "size_sum_big.yaml": spec("g = 10 * " * 3 + "1\nh = [g] * 1000\nwhile true:\n    g = sum(h) * g"),
    "size_choose_number_1e9.yaml": spec("g = choose number from 0 to 1000000000 by players[0]"),
    "size_choose_number_1e30.yaml": spec("g = choose number from 1 to 1000000000000000000000000000000 by players[0]"),
    "size_choose_one_of_huge.yaml": spec("g = choose one of range(5000000) by players[0]"),
    "size_card_count_1e8.yaml": spec("pass", extra="zones: {deck: {}}\ncards:\n  c:\n    in: deck\n    list:\n      - {name: coin, count: 100000000}\n"),
    "size_card_count_1e30.yaml": spec("pass", extra="zones: {deck: {}}\ncards:\n  c:\n    in: deck\n    list:\n      - {name: coin, count: 1000000000000000000000000000000}\n"),
    "size_card_count_negative.yaml": spec("pass", extra="zones: {deck: {}}\ncards:\n  c:\n    in: deck\n    list:\n      - {name: coin, count: -5}\n"),
    "size_roll_negative.yaml": spec("g = roll(-3)"),
    "size_roll_zero.yaml": spec("g = roll(0)"),
    "size_roll_1e30.yaml": spec("g = roll(1000000000000000000000000000000)"),
    "size_roll_text.yaml": spec('g = roll("six")'),
    "size_busy_loop.yaml": spec("while true:\n    g += 1", limits="{steps: 100000000, seconds: 1}"),
    "size_procedure_stack.yaml": spec("deep()", extra="procedures:\n  deep:\n    do: |\n      g += 1\n      deep()\n"),
    "size_limits_too_high.yaml": spec("pass", limits="{integer_digits: 100000}"),
    "size_limits_unknown_key.yaml": spec("pass", limits="{memory: 5}"),
    "size_limits_wrong_type.yaml": spec("pass", limits="{seconds: fast}"),
    "size_digits_raised_then_grown.yaml": spec("g = 7\nwhile true:\n    g = g * g", limits="{integer_digits: 4000, seconds: 2}"),
    "size_yaml_alias_bomb.yaml": "game: H\nplayers: {min: 2, max: 2}\nconstants:\n  a: &a [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]\n"
        + "".join(f"  {chr(98 + i)}: &{chr(98 + i)} [*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}]\n" for i in range(9))
        + "flow: pass\n",
    "size_yaml_recursive_alias.yaml": "game: H\nplayers: {min: 2, max: 2}\nconstants:\n  a: &a [*a]\nflow: pass\n",
    # faults outside the run loop
    "outside_score_list_plus_one.yaml": spec("pass", score="[1] + 1"),
    "outside_score_division_by_zero.yaml": spec("pass", score="1 // 0"),
    "outside_score_modulo_zero.yaml": spec("pass", score="p.x % 0"),
    "outside_score_missing_key.yaml": spec("pass", score='{"a": 1}["b"]', extra=""),
    "outside_score_index_out_of_range.yaml": spec("pass", score="[1, 2][5]"),
    "outside_score_compare_types.yaml": spec("pass", score='1 if p.x < "a" else 0'),
    "outside_tiebreak_fails.yaml": spec("pass", score="1", extra="  tiebreaks: [\"1 // (p.x - p.x)\"]\n"),
    "outside_eligible_fails.yaml": spec("pass", score="1", extra="  eligible: \"1 // 0 == 1\"\n"),
    "outside_invariant_fails.yaml": spec("g = choose one of [1, 2] by players[0]\ng = choose one of [1, 2] by players[1]",
                                         extra="invariants:\n  broken: \"g // 0 == 1\"\n"),
    "outside_heuristic_fails.yaml": spec("g = choose one of [1, 2] by players[0]\ng = choose one of [1, 2] by players[1]",
                                         extra="heuristic: \"1 // (p.x - p.x)\"\n"),
    "outside_heuristic_recursion.yaml": spec("g = choose one of [1, 2] by players[0]",
                                             extra="heuristic: \"f(1)\"\nfunctions:\n  f: {params: [n], expr: \"f(n + 1)\"}\n"),
    "outside_score_text_huge.yaml": spec("pass", score='count("ab" * 100000000000000000000)'),
    "outside_score_8000_digits.yaml": spec("g = 9\nwhile g < 10 * g:\n    g = g * g", score="g", limits="{integer_digits: 4000, seconds: 2}"),
    "outside_score_text.yaml": spec("pass", score='"a lot"'),
    "outside_score_none.yaml": spec("pass", score="none"),
    "outside_label_fails.yaml": spec("turn players[0]: act",
                                     extra="actions:\n  act:\n    for: n in [1, 2]\n    label: \"n // 0\"\n    do: g = n\n"),
    # escaping: names that would inject into DOT, HTML or annotations
    "escape_dot_node_names.yaml": 'game: "H\\" injected=\\"1"\nplayers: {min: 2, max: 2}\nboards:\n  b:\n    ring: ["a\\" image=\\"/etc/hostname", "b\\nc", "<script>"]\n    nodes: {"<script>": {"label\\"": "x\\" image=\\"/etc/hostname"}}\nflow: pass\n',
    "escape_annotation_newline.yaml": spec("g = nosuch_name_%0A::error file=x::pwned"),
    "escape_html_game_name.yaml": 'game: "<script>alert(1)</script>"\nplayers: {min: 2, max: 2}\nglobals: {g: 0}\nflow: g = 1\n',
    # plain garbage
    "garbage_empty.yaml": "",
    "garbage_binary.yaml": "\x00\x01\x02\ufffe",
    "garbage_list.yaml": "- 1\n- 2\n",
    "garbage_python_tag.yaml": "!!python/object/apply:os.system [echo pwned]\n",
    "garbage_tab_indent.yaml": "game: H\nplayers:\n\tmin: 2\n",
    "garbage_bom_and_crlf.yaml": "\ufeffgame: H\r\nplayers: {min: 2, max: 2}\r\nflow: |\r\n  pass\r\n",
    "garbage_players_huge.yaml": "game: H\nplayers: {min: 2, max: 100000000000}\nflow: pass\n",
    "garbage_players_zero.yaml": "game: H\nplayers: {min: 0, max: 0}\nflow: pass\n",
}


def scenario(steps: str, spec_path: str = MARKET, players="3") -> str:
    return f"spec: {spec_path}\nplayers: {players}\nseed: 1\nscenarios:\n  - name: hostile\n    steps:\n{steps}"


SCENARIOS = {
    "expect_division_by_zero.yaml": scenario('      - expect: "1 // 0 == 1"\n'),
    "expect_unknown_function.yaml": scenario('      - expect: "no_such_function(1)"\n'),
    "expect_list_plus_one.yaml": scenario('      - expect: "[1] + 1 == 2"\n'),
    "expect_syntax_error.yaml": scenario('      - expect: "1 +"\n'),
    "expect_huge_text.yaml": scenario('      - expect: "count(\\"ab\\" * 100000000000000000000) > 0"\n'),
    "expect_recursion.yaml": scenario('      - expect: "' + "-" * 500 + '1 == 1"\n'),
    "do_infinite_loop.yaml": scenario('      - do: |\n          while true:\n              pass\n'),
    "do_range_1e20.yaml": scenario('      - do: "x = range(100000000000000000000)"\n'),
    "do_asks.yaml": scenario('      - do: "x = choose one of [1, 2] by players[0]"\n'),
    "play_until_never.yaml": scenario('      - play_until: "false"\n'),
    "play_until_fails.yaml": scenario('      - play_until: "1 // 0 == 1"\n'),
    "choose_unknown_label.yaml": scenario('      - choose: "no such option"\n'),
    "choose_number.yaml": scenario("      - choose: 5\n"),
    "players_text.yaml": scenario('      - expect: "true"\n', players="three"),
    "players_huge.yaml": scenario('      - expect: "true"\n', players="100000000000000000000"),
    "steps_not_a_list.yaml": f"spec: {MARKET}\nplayers: 3\nscenarios:\n  - name: x\n    steps: 5\n",
    "step_not_a_map.yaml": scenario("      - 5\n"),
    "scenarios_not_a_list.yaml": f"spec: {MARKET}\nplayers: 3\nscenarios: 7\n",
    "spec_missing.yaml": "players: 3\nscenarios: []\n",
    "spec_not_found.yaml": scenario('      - expect: "true"\n', spec_path="nowhere.yaml"),
    "spec_is_a_number.yaml": scenario('      - expect: "true"\n', spec_path="5"),
    "top_level_list.yaml": "- 1\n- 2\n",
    "empty.yaml": "",
    "expect_player_text.yaml": scenario("      - expect_player: somebody\n"),
    "expect_options_not_list.yaml": scenario("      - expect_options: 5\n"),
    "deep_yaml.yaml": "spec: " + "[" * 3000 + "]" * 3000 + "\n",
    "seed_text.yaml": f"spec: {MARKET}\nplayers: 3\nseed: abc\nscenarios: []\n",
}


def _market_log() -> list[dict]:
    """A real short log of the market game (written by the test module's fixture)."""
    path = HERE / "logs" / "_base.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()]


def logs(base: list[dict]) -> dict[str, str]:
    """Damaged copies of a good log."""
    head, rest = base[0], base[1:]

    def lines(*items):
        return "".join(json.dumps(i) + "\n" for i in items)

    def header(**changes):
        h = dict(head)
        for k, v in changes.items():
            if v is _DROP:
                h.pop(k, None)
            else:
                h[k] = v
        return lines(h, *rest)

    chance_at = next(i for i, line in enumerate(rest) if "chance" in line)
    bad_decision = [dict(x) for x in rest]
    first_decision = next(i for i, line in enumerate(rest) if "decision" in line)
    bad_decision[first_decision] = {"decision": 5}
    return {
        "decision_is_a_number.jsonl": lines(head, *bad_decision),
        "decision_label_missing.jsonl": lines(head, *rest[:first_decision], {"decision": {}}, *rest[first_decision + 1:]),
        "header_without_seed.jsonl": header(seed=_DROP),
        "header_without_players.jsonl": header(players=_DROP),
        "header_without_agents.jsonl": header(agents=_DROP),
        "header_without_spec.jsonl": header(spec=_DROP),
        "seed_text.jsonl": header(seed="abc"),
        "seed_float.jsonl": header(seed=5.5),
        "seed_edited.jsonl": header(seed=head["seed"] + 1),
        "seed_huge.jsonl": header(seed=10 ** 30),
        "seed_bool.jsonl": header(seed=True),
        "spec_number.jsonl": header(spec=5),
        "spec_missing_file.jsonl": header(spec="nowhere.yaml"),
        "spec_is_the_log.jsonl": header(spec="spec_is_the_log.jsonl"),
        "players_text.jsonl": header(players="three"),
        "players_huge.jsonl": header(players=10 ** 9),
        "players_zero.jsonl": header(players=0),
        "agents_not_list.jsonl": header(agents="random"),
        "variant_unknown.jsonl": header(variant="nope"),
        "variant_number.jsonl": header(variant=5),
        "format_future.jsonl": header(rulespec_log=99),
        "header_is_a_list.jsonl": lines([1, 2, 3], *rest),
        "header_only.jsonl": lines(head),
        "chance_edited.jsonl": lines(head, *rest[:chance_at], {"chance": "roll", "details": [6, 99]}, *rest[chance_at + 1:]),
        "line_not_json.jsonl": lines(head, *rest[:3]) + "{not json\n" + lines(*rest[3:]),
        "line_is_nan.jsonl": lines(head, *rest[:3]) + '{"state": NaN}\n' + lines(*rest[3:]),
        "deep_nesting.jsonl": lines(head) + "[" * 100000 + "]" * 100000 + "\n",
        "deep_header.jsonl": "[" * 100000 + "]" * 100000 + "\n",
        "empty.jsonl": "",
        "not_utf8.jsonl": "\udcff",
        "result_edited.jsonl": lines(head, *rest[:-1], {"result": {"winner": [7]}}),
        "undo_to_text.jsonl": lines(head, *rest[:first_decision], {"undo": {"to": "x"}}, *rest[first_decision:]),
        "undo_to_huge.jsonl": lines(head, *rest[:first_decision], {"undo": {"to": 10 ** 30}}, *rest[first_decision:]),
        "huge_integer.jsonl": lines(head) + '{"state": ' + "9" * 5000 + "}\n",
        "extra_lines.jsonl": lines(head, *rest, *rest[:5]),
    }


_DROP = object()


def saves(good: dict) -> dict[str, str]:
    """Damaged copies of a good save of the market game."""
    def save(**changes):
        d = json.loads(json.dumps(good))
        for k, v in changes.items():
            if v is _DROP:
                d.pop(k, None)
            else:
                d[k] = v
        return json.dumps(d)

    pending = good["pending"]
    return {
        "stack_empty.json": save(stack=[]),
        "stack_not_list.json": save(stack=5),
        "stack_frame_short.json": save(stack=[["flow"]]),
        "pc_text.json": save(stack=[[f[0], "x", f[2], f[3]] for f in good["stack"]]),
        "pc_negative.json": save(stack=[[f[0], -5, f[2], f[3]] for f in good["stack"]]),
        "pc_huge.json": save(stack=[[f[0], 10 ** 12, f[2], f[3]] for f in good["stack"]]),
        "pending_player_99.json": save(pending={**pending, "player": 99}),
        "pending_player_text.json": save(pending={**pending, "player": "me"}),
        "pending_labels_short.json": save(pending={**pending, "labels": []}),
        "pending_not_map.json": save(pending=[1]),
        "over_text.json": save(over="no"),
        "players_zero.json": save(players=0),
        "players_huge.json": save(players=10 ** 9),
        "players_text.json": save(players="3"),
        "rng_text.json": save(rng="abc"),
        "rng_huge_digits.json": save(rng="9" * 5000),
        "rng_negative.json": save(rng="-1"),
        "decisions_float.json": save(decisions=1.5),
        "globals_missing.json": save(globals=_DROP),
        "globals_not_map.json": save(globals=[1]),
        "per_player_short.json": save(per_player={k: v[:1] for k, v in good["per_player"].items()}),
        "zones_unknown.json": save(zones={**good["zones"], "nowhere": []}),
        "zones_card_twice.json": save(zones={k: v + v for k, v in good["zones"].items()}),
        "format_future.json": save(format=99),
        "format_missing.json": save(format=_DROP),
        "top_level_list.json": "[1, 2, 3]",
        "deep_nesting.json": "[" * 100000 + "]" * 100000,
        "not_json.json": "{nope",
        "empty.json": "",
        "nan.json": save().replace('"decisions":', '"decisions": NaN, "x":'),
        "encoded_value_bad.json": save(globals={k: {"$zone": 5} for k in good["globals"]}),
        "ended_by_number.json": save(ended_by=5),
        "phase_list.json": save(phase=[1]),
    }


CLI = {
    "agents_random_5.json": ["play", MARKET, "--players", "2", "--agents", "random:5"],
    "agents_mcts_text.json": ["play", MARKET, "--players", "2", "--agents", "mcts:many,random"],
    "agents_mcts_negative.json": ["play", MARKET, "--players", "2", "--agents", "mcts:-5,random"],
    "agents_mcts_huge.json": ["play", MARKET, "--players", "2", "--agents", "mcts:0:-1,random"],
    "agents_unknown.json": ["play", MARKET, "--players", "2", "--agents", "wizard,random"],
    "agents_too_many.json": ["play", MARKET, "--players", "2", "--agents", "random,random,random"],
    "agents_empty.json": ["play", MARKET, "--players", "2", "--agents", ""],
    "players_zero.json": ["play", MARKET, "--players", "0"],
    "players_huge.json": ["play", MARKET, "--players", "100000000000000000000"],
    "seed_huge.json": ["play", MARKET, "--players", "2", "--seed", "1" * 5000],
    "seed_negative.json": ["play", MARKET, "--players", "2", "--seed", "-7", "--json"],
    "jobs_huge.json": ["simulate", MARKET, "--players", "2", "-n", "2", "--jobs", "100000"],
    "games_zero.json": ["simulate", MARKET, "--players", "2", "-n", "0"],
    "log_missing_folder.json": ["play", MARKET, "--players", "2", "--log", "/nonexistent/folder/x.jsonl"],
    "log_read_only.json": ["play", MARKET, "--players", "2", "--log", "/proc/version"],
    "log_is_a_folder.json": ["play", MARKET, "--players", "2", "--log", "/tmp"],
    "html_missing_folder.json": ["compare", MARKET, "--variant", "long", "--players", "2", "-n", "2",
                                 "--jobs", "1", "--html", "/nonexistent/folder/x.html"],
    "png_missing_folder.json": ["graph", MARKET, "--png", "/nonexistent/folder/x.png"],
    "validate_dev_zero.json": ["validate", "/dev/zero"],
    "validate_folder.json": ["validate", "/tmp"],
    "validate_missing.json": ["validate", "/nonexistent.yaml"],
    "replay_dev_zero.json": ["replay", "/dev/zero"],
    "scenario_dev_zero.json": ["scenario", "/dev/zero"],
    "graph_unknown_board.json": ["graph", MARKET, "--board", "nope"],
    "graph_seat_huge.json": ["graph", MARKET, "--seat", "100000000000000000000"],
    "variant_unknown.json": ["play", MARKET, "--players", "2", "--variant", "nope"],
    "compare_three_variants.json": ["compare", MARKET, "--variant", "long", "--variant", "long",
                                    "--variant", "long", "--players", "2", "-n", "2"],
    "no_command.json": [],
    "unknown_command.json": ["explode"],
}


def write() -> None:
    for folder, files in (("specs", SPECS), ("scenarios", SCENARIOS)):
        for name, text in files.items():
            (HERE / folder / name).write_text(text, encoding="utf-8", errors="surrogatepass")
    for name, text in logs(_market_log()).items():
        (HERE / "logs" / name).write_text(text, encoding="utf-8", errors="surrogateescape")
    good = json.loads((HERE / "saves" / "_base.json").read_text())
    for name, text in saves(good).items():
        (HERE / "saves" / name).write_text(text, encoding="utf-8")
    for name, argv in CLI.items():
        (HERE / "cli" / name).write_text(json.dumps(argv) + "\n", encoding="utf-8")


def generated(folder: Path) -> list[Path]:
    """The large hostile specs, written into `folder`; their paths."""
    texts = {
        "cards_100000_no_alias.yaml": spec("pass", extra="zones: {deck: {}}\ncards:\n  c:\n    in: deck\n    list:\n"
                                           + "".join(f"      - {{name: c{i}}}\n" for i in range(100_000))),
        "names_10000_unknown.yaml": spec("\n".join(f"g = unknown_name_{i}" for i in range(10_000))),
        "errors_4000_in_one_folded_scalar.yaml": spec("pass", extra="invariants:\n  folded: >\n"
                                                       + "    count([\n" + "".join(f"    nope_{i},\n" for i in range(4000)) + "    ]) > 0\n"),
        "depth_yaml_block_3000.yaml": "game: H\nplayers: {min: 2, max: 2}\nconstants:\n"
                                      + "".join(" " * i + "a:\n" for i in range(1, 3000)) + "flow: pass\n",
        "long_text_literal.yaml": spec('g = "' + "a" * 2_000_000 + '"'),
    }
    paths = []
    for name, text in texts.items():
        path = folder / name
        path.write_text(text, encoding="utf-8")
        paths.append(path)
    return paths


if __name__ == "__main__":
    write()
