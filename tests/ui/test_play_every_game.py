"""Every game played to its end in the browser, by a human seat against random bots: at a phone's
size by touch (390×844) and at a desktop's by keyboard only.

Before each move every legal move's control of the table (an enabled button of the game's section)
must be visible and not covered (``elementFromPoint`` at its centre is the control or inside it),
nothing scrolls sideways, and the shell's own controls are at least 44 px tall. axe-core reports no
violation on the match page at the start, in the middle and at the end; moves, the turn and the
result are announced in the page's ``aria-live`` region; after each move the focus stays on the
board.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from playwright.sync_api import Page, expect
from tabletop.games import load
from tabletop_fixtures.axe import axe_violations
from tabletop_fixtures.browser import Seat, Server, tid
from tabletop_fixtures.game_uis import UI_GAMES

pytestmark = pytest.mark.browser

MOVE = "button:not(:disabled):not([aria-disabled=true])"
"""A legal move's control in a game's table: an enabled button (the kit keeps a board's unplayable
cells focusable and marks them ``aria-disabled``)."""

MULTI_STEP_GAMES: dict[str, str] = {
    "backgammon": "a move is a checker, then its destination: tests/ui/test_backgammon.py plays it at 320 px",
    "hearts": "three cards, then Pass: tests/ui/test_hearts.py plays a deal by keyboard at 320 px",
    "hex": "its board scrolls inside its area and has a Fit button: tests/ui/test_hex.py plays it at 390x844",
}
"""Games whose moves take more than one press (their own browser tests play them to the end)."""

MAX_MOVES = 400
"""Every shipped game ends well before this many moves of the human seat."""

# The legal moves' controls of the table, each checked: visible, inside the viewport's width, and
# the element at its centre is the control or inside it (nothing lies on top of it).
CONTROLS = """(game) => {
  const MOVE = 'button:not(:disabled):not([aria-disabled=true])';
  const section = document.querySelector(`[data-testid=game-${game}]`)
    ?? document.querySelector('[data-testid=game-generic]');
  if (!section) return {controls: 0, problems: ['no table']};
  const controls = [...section.querySelectorAll(MOVE)];
  const problems = [];
  const width = document.documentElement.clientWidth;
  for (const control of controls) {
    control.scrollIntoView({block: 'center', inline: 'center'});
    const box = control.getBoundingClientRect();
    const name = control.dataset.testid || control.textContent.trim();
    if (box.width === 0 || box.height === 0) {
      problems.push(`${name}: not visible`);
      continue;
    }
    if (box.left < 0 || box.right > width + 0.5) {
      problems.push(`${name}: outside the screen's width`);
      continue;
    }
    const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    if (!hit || !(hit === control || control.contains(hit))) {
      problems.push(`${name}: covered by ${hit ? hit.outerHTML.slice(0, 80) : 'nothing'}`);
    }
  }
  return {controls: controls.length, problems};
}"""

SIDEWAYS = "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"

# The shell's own controls (outside the game's table): at least 44 px tall.
SMALL_SHELL_CONTROLS = """() => [
  ...document.querySelectorAll('button, select, input:not([type=checkbox]):not([type=radio]), a.button'),
].filter((el) => !el.closest('[data-testid=board]') && el.getClientRects().length > 0)
  .filter((el) => el.getBoundingClientRect().height < 43.5)
  .map((el) => el.dataset.testid || el.outerHTML.slice(0, 60))"""

READY = """() => {
  const page = document.querySelector('[data-testid=match-page]');
  if (!page) return false;
  if (page.dataset.status !== 'in_progress') return true;
  return page.dataset.myTurn === 'true' && page.dataset.busy !== 'true';
}"""

FOCUS_ON_BOARD = "() => !!document.activeElement?.closest('[data-testid=board]')"


@dataclass
class Player:
    """The human seat's page and what it measured."""

    seat: Seat
    game: str
    device: str

    @property
    def page(self) -> Page:
        return self.seat.page

    def status(self) -> str:
        return self.page.locator(tid("match-page")).get_attribute("data-status") or ""

    def wait_ready(self) -> None:
        self.page.wait_for_function(READY, timeout=60_000)

    def check_controls(self) -> int:
        found: dict[str, object] = self.page.evaluate(CONTROLS, self.game)
        problems = found["problems"]
        assert problems == [], f"{self.game} on a {self.device}: {problems}"
        assert self.page.evaluate(SIDEWAYS) <= 0, f"{self.game} on a {self.device} scrolls sideways"
        count = found["controls"]
        assert isinstance(count, int)
        return count


def create_match_against_bots(server: Server, game: str) -> str:
    """A public match with seat p1 free for the browser and random bots in the others."""
    definition = load(game)
    seats: list[dict[str, object]] = [{}]
    bots = range(2, max(2, definition.min_players) + 1)
    seats += [{"name": f"Bot {n}", "bot": {"kind": "random"}} for n in bots]
    response = server.api.post("/api/matches", json={"game": game, "seats": seats, "config": {}, "seed": 7})
    assert response.status_code == 201, response.text
    match_id: str = response.json()["id"]
    return match_id


def tap_a_move(player: Player, rng: random.Random) -> None:
    """Taps one of the table's enabled controls (a touch on the phone)."""
    section = player.page.locator(f"{tid('board')} {MOVE}")
    choice = rng.randrange(section.count())
    section.nth(choice).tap()


def key_a_move(player: Player, rng: random.Random) -> None:
    """Reaches one of the table's enabled controls with Tab only and presses Enter."""
    page = player.page
    count = page.locator(f"{tid('board')} {MOVE}").count()
    target = rng.randrange(count)
    where = """(move) => {
      const active = document.activeElement;
      const moves = [...document.querySelectorAll(`[data-testid=board] ${move}`)];
      const buttons = [...document.querySelectorAll('[data-testid=board] button')];
      return [moves.indexOf(active), buttons.indexOf(active)];
    }"""
    walked = False
    for _ in range(400):
        page.keyboard.press("Tab")
        at, button = page.evaluate(where, MOVE)
        if at == target:
            page.keyboard.press("Enter")
            return
        if button < 0 or walked:
            continue
        walked = True
        # A board that is one tab stop (the kit's BoardGrid, roving tabindex): walk it row by row
        # with the arrow keys (once; a board of tab stops is walked by Tab).
        page.keyboard.press("Control+Home")
        for _ in range(400):
            at, moved_from = page.evaluate(where, MOVE)
            if at == target:
                page.keyboard.press("Enter")
                return
            page.keyboard.press("ArrowRight")
            if page.evaluate(where, MOVE)[1] == moved_from:  # the row's end: the next row
                page.keyboard.press("ArrowDown")
                page.keyboard.press("Home")
                if page.evaluate(where, MOVE)[1] == moved_from:
                    break
    raise AssertionError(f"{player.game}: control {target} of {count} is not reachable with Tab")


def assert_no_violations(player: Player, moment: str) -> None:
    """axe-core finds nothing wrong with the app's shell (the game's own table is checked in
    test_accessibility.py, where a game UI's known violations are marked)."""
    found = axe_violations(player.page, exclude=tid("board"))
    assert found == [], f"{player.game} on a {player.device} at the {moment}: {found}"


@pytest.mark.parametrize("device", ["phone", "desktop"])
@pytest.mark.parametrize("game", [game for game in UI_GAMES if game not in MULTI_STEP_GAMES])
def test_a_human_plays_every_game_to_its_end(
    game: str, device: str, server: Server, open_device: Callable[[str, str], Seat]
) -> None:
    rng = random.Random(f"{game}/{device}")
    match_id = create_match_against_bots(server, game)
    player = Player(seat=open_device("ann", device), game=game, device=device)
    player.seat.join(f"#/match/{match_id}/join/p1", name="Ann")
    expect(player.page.locator(tid("whoami"))).to_have_text("You play seat p1")
    player.seat.wait_live()
    assert player.page.locator("h1").count() == 1
    assert player.page.evaluate(SMALL_SHELL_CONTROLS) == []
    assert_no_violations(player, "start")

    moves = 0
    while True:
        player.wait_ready()
        if player.status() != "in_progress":
            break
        assert player.check_controls() > 0, f"{game}: my turn, and no control to play it"
        before = player.seat.index()
        if device == "phone":
            tap_a_move(player, rng)
        else:
            key_a_move(player, rng)
        player.page.wait_for_function(
            "(n) => { const p = document.querySelector('[data-testid=match-page]');"
            " return Number(p.dataset.index) > n || p.dataset.status !== 'in_progress'; }",
            arg=before,
            timeout=30_000,
        )
        moves += 1
        assert moves < MAX_MOVES, f"{game} did not end"
        if device == "desktop":  # the focus comes back to the board within a frame or two
            player.page.wait_for_function(FOCUS_ON_BOARD, timeout=10_000)
        if moves == 2:
            expect(player.page.locator(tid("announcer"))).not_to_be_empty()
            assert_no_violations(player, "middle")
            if device == "phone":
                player.seat.screenshot(f"{game}-phone")  # the README's and the docs' phone shots

    assert player.status() == "finished"
    assert server.match(match_id)["status"] == "finished"
    expect(player.page.locator(tid("match-result"))).to_contain_text("Game over")
    winners = server.match(match_id)["winners"]
    assert isinstance(winners, list)
    if winners:
        names = {"p1": "you"} | {f"p{n}": f"Bot {n}" for n in range(2, 5)}
        for winner in winners:
            expect(player.page.locator(tid("match-result"))).to_contain_text(names[winner])
    expect(player.page.locator(tid("announcer"))).to_contain_text("Game over")
    assert player.page.evaluate(SIDEWAYS) <= 0
    assert_no_violations(player, "end")
