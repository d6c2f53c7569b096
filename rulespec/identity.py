"""A spec's identity by what it says, not how it is written.

Logs and saves name the spec they were made with by this id, so an edit that
changes only comments, quoting, indentation of the YAML, flow or block style,
or blank lines and comments inside rule text keeps old logs and saves valid;
any edit that can change a game (a value, a rule's words, a key) changes it.
"""
from __future__ import annotations

import hashlib
import json
import re

_SPACES = re.compile(r"[ \t]+")


def spec_id(data) -> str:
    """16 hex digits of SHA-256 over the normalised data (dict order kept: the
    order of rules is part of a game, e.g. the order of a turn's options)."""
    text = json.dumps(_normal(data), ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _normal(value):
    if isinstance(value, dict):
        return [[str(k), _normal(v)] for k, v in value.items()]
    if isinstance(value, list):
        return [_normal(v) for v in value]
    if isinstance(value, str):
        return normal_text(value)
    return value


def normal_text(text: str) -> str:
    """Rule text without comments, blank lines, trailing or repeated spaces, and
    with its indentation made relative (a block's indent is what it means)."""
    lines = []
    for line in text.split("\n"):
        code = _strip_comment(line).rstrip()
        if code.strip():
            body = code.lstrip(" \t")
            lines.append((len(code) - len(body), _squeeze(body)))
    if not lines:
        return ""
    # indentation levels, not widths: `if` blocks indented by 2 or 4 mean the same
    widths = sorted({w for w, _ in lines})
    return "\n".join("\t" * widths.index(w) + body for w, body in lines)


def _strip_comment(line: str) -> str:
    """The line up to a `#` that starts a word outside double quotes (the rules
    language's comments; `spice#2`, a card's id, is no comment)."""
    quoted = False
    for i, ch in enumerate(line):
        if ch == '"':
            quoted = not quoted
        elif ch == "#" and not quoted and (i == 0 or line[i - 1] in " \t"):
            return line[:i]
    return line


def _squeeze(body: str) -> str:
    """Runs of spaces outside double quotes become one."""
    parts = body.split('"')
    return '"'.join(_SPACES.sub(" ", p) if i % 2 == 0 else p for i, p in enumerate(parts))
