"""The web table in a real browser: whole games by clicking, and what a seat's page holds."""
from __future__ import annotations

import os
import random

import pytest

from interpreter import load_game
from interpreter.web.session import Session
from tests.paths import ROOT

pytestmark = pytest.mark.browser   # .ci/run: pip install -e '.[browser]', pytest -m browser

GAMES = ["siena", "zena", "castles"]
SHOTS = ROOT / "docs" / "img"


def click_one(page, rng: random.Random) -> None:
    """Answer the question on the page as a person would: a button, a number, boxes."""
    question = page.locator("#question")
    before = page.evaluate("document.body.dataset.version")
    with page.expect_response(lambda r: "/act" in r.url):
        number = question.locator("form.choose-number")
        several = question.locator("form.choose-several")
        if number.count():
            passes = number.locator("button.option")
            if passes.count() and rng.random() < 0.5:
                passes.first.click()
            else:
                box = number.locator("input[type=number]")
                low, high = int(box.get_attribute("min")), int(box.get_attribute("max"))
                box.fill(str(rng.randint(low, min(high, low + 3))))
                number.locator("button.submit").click()
        elif several.count():
            boxes = several.locator("input[type=checkbox]")
            for i in range(boxes.count()):
                if rng.random() < 0.5:
                    boxes.nth(i).check()
            several.locator("button.submit").click()
        else:
            buttons = question.locator("button.option")
            buttons.nth(rng.randrange(buttons.count())).click()
    page.wait_for_function(f"document.body.dataset.version != '{before}'")


@pytest.mark.parametrize("name", GAMES)
def test_a_whole_two_player_game_by_clicking(browser, serve, name, tmp_path):
    game = load_game(str(ROOT / "games" / f"{name}.yaml"))
    session = Session(game, 2, 7, ["human", "random"])
    served = serve(session)
    page = browser.new_page(viewport={"width": 420, "height": 860})   # a phone
    page.goto(served.url(0))
    rng, clicks, shot = random.Random(7), 0, False
    while not page.locator("#end").count():
        page.wait_for_selector("#question, #end", timeout=15000)
        if page.locator("#end").count():
            break
        if clicks >= 12 and not shot:   # the README's picture: a question mid-game
            target = SHOTS if os.environ.get("UPDATE_SCREENSHOTS") else tmp_path
            target.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(target / f"{name}.png"), full_page=True,
                            clip={"x": 0, "y": 0, "width": 420, "height": 1100})
            shot = True
        click_one(page, rng)
        clicks += 1
        assert clicks < 600, "the game does not end"
    end = page.locator("#end").inner_text()
    assert "Game over" in end and "Winner" in end
    scores = session.state.scores()
    for seat in range(2):
        assert f"P{seat + 1}\t{scores[seat]}" in end.replace(" ", "\t") or str(scores[seat]) in end
    assert session.state.is_terminal()
    log = page.locator(".log-entries li")
    assert log.count() > 10
    assert page.locator(".log-entries .where").count() > 0   # rule and spec line shown
    # the page fits a phone: nothing wider than the screen but the boards' own scroll boxes
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 430, width
    page.close()


def test_seat_one_never_receives_seat_twos_secrets(browser, serve):
    """A canary in seat 2's owner-only value and seat 2's unique hand cards never
    reach seat 1's page: neither the DOM nor any response the page received."""
    game = load_game(str(ROOT / "games" / "zena.yaml"))
    session = Session(game, 2, 10, ["human", "human"])   # seat 2 is dealt two cards with texts of their own
    state = session.state
    canary = "CANARY-5ee2b9"
    state.pv["gift"][1] = canary      # owner-only: only seat 2 may ever see it
    session.version += 1
    pres = session.pres
    all_texts = [pres.card_text(c) for c in game.cards]
    secret = [pres.card_text(c) for c in state.zones["hand@1"]
              if all_texts.count(pres.card_text(c)) == 1 and len(pres.card_text(c)) > 6]
    assert secret, "seat 2 holds no card with a text of its own: choose another seed"
    served = serve(session)
    bodies = []
    page = browser.new_page()
    page.on("response", lambda r: bodies.append(r.text()) if r.ok else None)
    page.goto(served.url(0))
    rng = random.Random(3)
    for _ in range(6):   # seat 1 plays while seat 2's cards stay in seat 2's hand
        if state.current_player() == 1:
            session.act(1, [state.legal_actions()[0].label])
            page.wait_for_timeout(150)
            continue
        if not page.locator("#question").count():
            page.wait_for_selector("#question", timeout=5000)
        click_one(page, rng)
    still_hidden = [t for t in secret if t in {pres.card_text(c) for c in state.zones["hand@1"]}]
    assert still_hidden
    dom = page.content()
    assert canary not in dom and all(t not in dom for t in still_hidden)
    assert bodies and all(canary not in b for b in bodies)
    assert all(t not in b for b in bodies for t in still_hidden)
    # the same check can fail: seat 2's own page holds both
    page2 = browser.new_page()
    page2.goto(served.url(1))
    own = page2.content()
    assert canary in own and all(t in own for t in still_hidden)
    page.close()
    page2.close()
