"""Speed of the language server (`rulespec lsp`), measured as an editor sees it.

    python benchmarks/lsp_bench.py [SPEC ...] [--edits 20] [--json]

For each spec (default: the three games and the test game) a real LSP client
(pygls's, tests/lsp/client.py) starts the server over stdio with no debounce,
opens the spec, then times, from the request to the answer:

- diagnostics after an edit: one rule string edited (a number changed in
  place), until publishDiagnostics arrives; the whole pipeline (load, schema,
  names, parse of the changed strings only, check, every variant, index);
- completion inside a rule string (names in scope), and after `p.`;
- hover on a name in a rule.

Questions are asked half a second after the last edit, as a person would; the
server indexes the names right after it sends the diagnostics.

Medians and 95th percentiles in milliseconds. Targets (issue 17): diagnostics
under 300 ms after an edit for games/siena.yaml; completion and hover under
50 ms. A script, not a test: timings depend on the machine and its load.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from tests.lsp.client import Client  # noqa: E402

GAMES = ["games/siena.yaml", "games/zena.yaml", "games/castles.yaml", "tests/games/market.yaml"]


def timed(fn, *args) -> float:
    start = time.perf_counter()
    fn(*args)
    return (time.perf_counter() - start) * 1000


def edit_sites(text: str) -> list[tuple[int, int]]:
    """(line, char) of numbers inside `do: |` rule blocks: places to edit in place."""
    sites, in_rule, indent = [], False, 0
    for n, line in enumerate(text.split("\n")):
        if re.match(r"^\s*(do|flow): \|", line):
            in_rule, indent = True, len(line) - len(line.lstrip())
            continue
        if in_rule and line.strip() and len(line) - len(line.lstrip()) <= indent:
            in_rule = False
        if in_rule:
            for m in re.finditer(r"(?<![\w.])\d+(?![\w.])", line):
                sites.append((n, m.start()))
    return sites


def rule_site(text: str, pattern: str) -> tuple[int, int]:
    m = re.search(pattern, text, re.M)
    line = text.count("\n", 0, m.start(1))
    return line, m.start(1) - (text.rfind("\n", 0, m.start(1)) + 1)


def bench(client: Client, path: str, edits: int) -> dict:
    text = open(path, encoding="utf-8").read()
    lines = text.split("\n")
    opened = timed(client.open, path, text)
    sites = edit_sites(text)
    step = max(1, len(sites) // max(1, edits))
    diag = []
    for line, char in sites[::step][:edits]:
        changed = lines[:]
        changed[line] = changed[line][:char] + "7" + changed[line][char:]   # 3 -> 73
        diag.append(timed(client.change, path, "\n".join(changed)))
    client.change(path, text)
    time.sleep(0.5)   # a person moves the mouse: the server indexes the names meanwhile
    hover_at = rule_site(text, r"^\s+\w+\s*=\s*[^=\n]*?\b(count)\(")
    dot_at = rule_site(text, r"\b(?:p|player)\.(\w)")
    word_at = rule_site(text, r"^\s+(?:if|while) (\w)")
    hover, complete, complete_dot = [], [], []
    for _ in range(edits):
        hover.append(timed(client.hover, path, *hover_at))
        complete.append(timed(client.completion, path, *word_at))
        complete_dot.append(timed(client.completion, path, *dot_at))
    return {"spec": path, "lines": len(lines), "open_ms": round(opened, 1),
            "diagnostics_after_edit_ms": _summary(diag), "completion_ms": _summary(complete),
            "completion_after_dot_ms": _summary(complete_dot), "hover_ms": _summary(hover)}


def _summary(samples: list[float]) -> dict:
    ordered = sorted(samples)
    return {"median": round(statistics.median(ordered), 1),
            "p95": round(ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))], 1),
            "n": len(ordered)}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("specs", nargs="*", default=GAMES)
    parser.add_argument("--edits", type=int, default=20, help="edits (and questions) per spec")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    client = Client(debounce=0)
    try:
        results = [bench(client, spec, args.edits) for spec in args.specs]
    finally:
        client.stop()
    if args.json:
        print(json.dumps(results, indent=1))
        return 0
    print(f"{'spec':28} {'lines':>5} {'open':>7}  {'diagnostics after edit':>22}  "
          f"{'completion':>12}  {'after p.':>12}  {'hover':>12}")
    for r in results:
        cells = [f"{r[k]['median']:>5} / {r[k]['p95']:<5}" for k in (
            "completion_ms", "completion_after_dot_ms", "hover_ms")]
        d = r["diagnostics_after_edit_ms"]
        print(f"{r['spec']:28} {r['lines']:>5} {r['open_ms']:>7}  {d['median']:>10} / {d['p95']:<9}  "
              + "  ".join(cells))
    print("ms, median / p95; diagnostics include the JSON-RPC round trip")
    return 0


if __name__ == "__main__":
    sys.exit(main())
