"""The replay viewer: one self-contained page, stepped forward and back in a browser,
showing at each step what the log says the state was."""
from __future__ import annotations

import json
import re

import pytest

from interpreter.cli import main
from tests.paths import ROOT

# The browser tests are the `browser` extra's (.ci/run: pytest -m browser); the page's
# own checks need no browser but share the module's log.


def coins_by_step(log_path, what="coins[P1]") -> dict[int, int]:
    """From the log alone: the value of `what` after each step (a step ends where the
    next decision is taken)."""
    values, step, value = {}, 0, None
    for line in open(log_path, encoding="utf-8"):
        event = json.loads(line)
        if "decision" in event:
            values[step] = value
            step += 1
        change = event.get("change")
        if change and change.get("kind") == "var" and change.get("what") == what:
            value = change["to"]
    values[step] = value
    return values


@pytest.fixture(scope="module")
def viewer(tmp_path_factory):
    out = tmp_path_factory.mktemp("replay")
    log, page = out / "zena.jsonl", out / "zena.html"
    assert main(["play", str(ROOT / "games" / "zena.yaml"), "--players", "2", "--seed", "5",
                 "--log", str(log)]) == 0
    assert main(["replay", str(log), "--html", str(page)]) == 0
    return log, page


def shown_coins(page, seat_index=0) -> int:
    text = page.locator(".player").nth(seat_index).inner_text()
    return int(re.search(r"Coins: \D*(\d+)", text).group(1))


def test_the_page_needs_no_server(viewer):
    _, page = viewer
    html = page.read_text(encoding="utf-8")
    fetched = re.findall(r"(?:src|href)=['\"]?([^'\" >]+)", html)   # nothing is loaded from elsewhere
    assert fetched == [] and "<link" not in html
    assert len(html) < 3_000_000


@pytest.mark.browser
def test_stepping_forward_and_back_shows_the_state_the_log_holds(browser, viewer):
    log, path = viewer
    expected = coins_by_step(log)
    last = max(expected)
    page = browser.new_page()
    page.goto(path.as_uri())
    assert page.locator("#last").inner_text() == str(last)
    points = [min(6, last), min(last, 18), min(last, 11)]
    step = 0
    for target in points:
        button = "#forward" if target > step else "#back"
        while step != target:
            page.click(button)
            step += 1 if button == "#forward" else -1
        assert page.locator("body").get_attribute("data-step") == str(target)
        assert shown_coins(page) == expected[target], target
    page.fill("#slider", str(last))   # the slider jumps to the end
    page.dispatch_event("#slider", "input")
    assert shown_coins(page) == expected[last]
    assert page.locator("#end").count() == 1
    assert page.locator("#log .where").count() > 0   # each change with its rule and line
    page.close()


@pytest.mark.browser
def test_each_seat_view_hides_the_others_hand(browser, viewer):
    _, path = viewer
    page = browser.new_page()
    page.goto(path.as_uri())
    page.click("#forward")
    page.select_option("#view", "1")      # P1
    own = page.locator("section.zone.own").inner_text()
    page.select_option("#view", "2")      # P2
    others = page.content()
    page.select_option("#view", "0")      # everything
    everything = page.content()
    assert "Your hand" in own
    cards = [line for line in own.splitlines()[1:] if line.strip()]
    assert cards and any(c.strip() in everything for c in cards)
    assert "hand of P1" in others and "face down" in others
    page.close()
