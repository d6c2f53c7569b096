"""Jinja2 templates for the web table and the replay viewer (templates/ beside this file)."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from .svg import boards_svg

TEMPLATES = Path(__file__).parent / "templates"


@lru_cache(maxsize=1)
def environment():
    """The Jinja2 environment; HTML-escapes every value (spec text is data)."""
    import jinja2
    return jinja2.Environment(loader=jinja2.FileSystemLoader(str(TEMPLATES)),
                              autoescape=jinja2.select_autoescape(["html"]),
                              trim_blocks=True, lstrip_blocks=True)


def page_fragment(state, table: dict, pres) -> str:
    """The changing part of a seat's page: status, question, hand, boards, zones, log."""
    boards = boards_svg(state, table["view"], table, pres)
    return environment().get_template("table.html").render(t=table, boards=boards)


def fault_fragment(fault: str) -> str:
    """A seat's page when only the fault that stopped the game can be shown."""
    return environment().get_template("fault.html").render(fault=fault)


def full_page(title: str, fragment: str, config: dict) -> str:
    """A whole seat page around `fragment`; config goes to the page's script as JSON."""
    import json
    return environment().get_template("seat.html").render(
        title=title, fragment=fragment, config=json.dumps(config).replace("</", "<\\/"))


def static(name: str) -> str:
    return (TEMPLATES / name).read_text(encoding="utf-8")
