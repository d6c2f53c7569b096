"""The fenced code blocks of README.md and docs/*.md, for the tests that run them.

A block's info string is its language, optionally followed by one marker:

    ```yaml overlay-on: tests/games/market.yaml   a spec fragment, checked laid over that spec
    ```sh checked-by: tests/test_quickstart.py    another test runs it (that file reads the doc)
    ```yaml skip: REASON                          cannot run; the reason is shown in the source

tests/test_docs.py says what is done with each language.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from tests.paths import ROOT

DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
FENCE = re.compile(r"^```([^\n`]*)\n(.*?)^```[ \t]*$\n?", re.S | re.M)
MARKER = re.compile(r"^(skip|checked-by|overlay-on):\s*(.*)$")


@dataclass
class Block:
    doc: Path
    line: int             # of the opening fence, from 1
    language: str
    body: str
    follows: bool         # nothing but blank lines between the previous block and this one
    marker: dict = field(default_factory=dict)   # {"skip": reason} and the like

    @property
    def where(self) -> str:
        return f"{self.doc.relative_to(ROOT)}:{self.line}"


def blocks(doc: Path) -> list[Block]:
    """Every fenced block of a Markdown file, in order."""
    text = doc.read_text(encoding="utf-8")
    out, end = [], 0
    for m in FENCE.finditer(text):
        language, _, rest = m.group(1).strip().partition(" ")
        marker = MARKER.match(rest.strip())
        out.append(Block(doc, text.count("\n", 0, m.start()) + 1, language, m.group(2),
                         text[end:m.start()].strip() == "",
                         {marker.group(1): marker.group(2).strip()} if marker else
                         ({"unknown": rest.strip()} if rest.strip() else {})))
        end = m.end()
    return out


def commands(body: str) -> list[str]:
    """Split a shell block into commands, keeping a here-document with its command."""
    out, lines = [], body.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        i += 1
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        command = [line]
        m = re.search(r"<<'?(\w+)'?", line)
        if m:
            while i < len(lines):
                command.append(lines[i])
                i += 1
                if lines[i - 1] == m.group(1):
                    break
        out.append("\n".join(command))
    return out
