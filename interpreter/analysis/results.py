"""A results store: one row per simulated game, in a Parquet file.

`simulate --out results.parquet` writes the rows; `rulespec report` summarises
them and `rulespec compare A.parquet B.parquet` compares two runs, neither
replaying a game. Any Parquet reader loads them: pandas
(`pd.read_parquet`), DuckDB (`SELECT * FROM 'results.parquet'`), Polars.

Columns (one row per game, in seed order):
    seed: int64                    the game's seed (replay it: `play --seed`)
    variant: string | null         the spec's variant
    agents: list<string>           one per seat
    winner: list<int64>            winning seats (several on a full tie; empty: none)
    scores: list<int64>            final score per seat
    tiebreaks: list<list<double>>  per seat, the value of each tie-break, in order
    ended_by: string | null        the end condition (null when cut off or failed)
    cut_off: bool                  still running at the simulator's cut-off
    decisions: int64, rounds: int64 | null
    coverage: map<string, int64>   how often each rule fired ("action:sell", "menu:...")
    seconds: double                wall time of the game (differs between runs)
    error: string | null           the game's first error, if any
The file's key-value metadata holds `rulespec_results` (the format version),
the game's name, the spec's path and identity, the players and the rule keys
that coverage counts, so a summary needs no spec.

pyarrow is the optional extra `results` (`pip install -e '.[results]'`).
"""
from __future__ import annotations

import json
import math
import os

RESULTS_FORMAT = 1


class ResultsMissing(Exception):
    """pyarrow is not installed: the message says how to install it."""


def _pyarrow():
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        raise ResultsMissing("results files need pyarrow: pip install -e '.[results]'") from None
    return pa, pq


def need_pyarrow() -> None:
    """Raise ResultsMissing unless pyarrow can be imported."""
    _pyarrow()


def _schema(pa):
    return pa.schema([
        ("seed", pa.int64()), ("variant", pa.string()), ("agents", pa.list_(pa.string())),
        ("winner", pa.list_(pa.int64())), ("scores", pa.list_(pa.int64())),
        ("tiebreaks", pa.list_(pa.list_(pa.float64()))), ("ended_by", pa.string()),
        ("cut_off", pa.bool_()), ("decisions", pa.int64()), ("rounds", pa.int64()),
        ("coverage", pa.map_(pa.string(), pa.int64())), ("seconds", pa.float64()),
        ("error", pa.string()),
    ])


def _number(x):
    """A tie-break value as a float column can hold it (none, text: NaN)."""
    if isinstance(x, bool):
        return float(x)
    if isinstance(x, (int, float)):
        return float(x) if math.isfinite(float(x)) else float("nan")
    return float("nan")


def row(record: dict, variant, agents) -> dict:
    """One game's record (simulate.play_one) as a row of the columns above."""
    return {"seed": record["seed"], "variant": variant, "agents": list(agents),
            "winner": record.get("winner") or [], "scores": record.get("scores") or [],
            "tiebreaks": [[_number(v) for v in seat] for seat in record.get("tiebreaks") or []],
            "ended_by": record.get("ended_by"), "cut_off": bool(record.get("cut_off")),
            "decisions": record.get("decisions", 0),
            "rounds": record["rounds"] if isinstance(record.get("rounds"), int) else None,
            "coverage": sorted((record.get("fired") or {}).items()),
            "seconds": float(record.get("seconds", 0.0)), "error": record.get("error")}


def metadata(game, players: int, coverage_keys: list[str]) -> dict:
    """What a summary needs beside the rows: the game's name, seats and rule keys
    (simulate.coverage_keys)."""
    return {"rulespec_results": RESULTS_FORMAT, "game": game.name, "spec": str(game.file),
            "spec_id": getattr(game, "spec_id", None) or getattr(game, "spec_hash", None),
            "variant": game.variant, "players": players,
            "seat_names": [game.seat_name(s) for s in range(players)],
            "coverage_keys": list(coverage_keys)}


def write(path: str, game, players: int, agents: list, records: list,
          coverage_keys: list[str]) -> None:
    """Write one row per record to a Parquet file at `path`; coverage_keys: every rule
    the coverage counts (simulate.coverage_keys). Raises ResultsMissing without
    pyarrow, tools.output.CannotWrite when the file cannot be written."""
    from ..tools.output import write_file
    pa, pq = _pyarrow()
    table = pa.Table.from_pylist([row(r, game.variant, agents) for r in records], schema=_schema(pa))
    meta = {"rulespec": json.dumps(metadata(game, players, coverage_keys))}
    # Built in memory, written by us: pyarrow's write_table deletes the path when a
    # write fails, which as root removed /dev/full itself (--out /dev/full).
    buffer = pa.BufferOutputStream()
    pq.write_table(table.replace_schema_metadata(meta), buffer)
    write_file(path, buffer.getvalue().to_pybytes())


class StoredGame:
    """What `summarize` reads of a game, rebuilt from a results file's metadata."""

    def __init__(self, meta: dict):
        self.name, self.variant = meta["game"], meta.get("variant")
        self.file = meta.get("spec")
        self._seats = meta.get("seat_names") or []
        self.coverage_keys = list(meta.get("coverage_keys") or [])

    def seat_name(self, seat: int) -> str:
        return self._seats[seat] if seat < len(self._seats) else f"P{seat + 1}"


def read(path: str) -> tuple[StoredGame, int, list[dict]]:
    """(game, players, records) from a results file, records shaped as simulate's.

    Raises ResultsMissing without pyarrow; CorruptFile when the file is not a
    rulespec results file of a format this version reads."""
    from rulespec.errors import CorruptFile
    pa, pq = _pyarrow()
    if not os.path.isfile(path):      # pyarrow words a missing file as an unreadable one
        raise CorruptFile(f"{path}: no such results file")
    try:
        table = pq.read_table(path)
    except (OSError, pa.ArrowException) as e:
        raise CorruptFile(f"{path}: not a Parquet results file ({e})") from None
    raw = (table.schema.metadata or {}).get(b"rulespec")
    try:
        meta = json.loads(raw) if raw else None
    except ValueError:
        meta = None
    if not isinstance(meta, dict) or meta.get("rulespec_results") != RESULTS_FORMAT:
        raise CorruptFile(f"{path}: not a rulespec results file (format {RESULTS_FORMAT})")
    records = []
    for r in table.to_pylist():
        record = {"seed": r["seed"], "decisions": r["decisions"], "rounds": r["rounds"],
                  "fired": dict(r["coverage"] or []), "seconds": r["seconds"]}
        if r["error"] is not None:
            record["error"] = r["error"]
        elif r["cut_off"]:
            record["cut_off"] = True
        else:
            record.update(winner=r["winner"], scores=r["scores"], ended_by=r["ended_by"],
                          tiebreaks=r["tiebreaks"])
        records.append(record)
    return StoredGame(meta), int(meta["players"]), records
