"""End to end in a real browser, as a player at the table: Playwright drives Debian's chromium
against `streamlit run app.py`, on a desktop and on a 390x844 phone screen.

Every correction is made with taps on the pictures the page shows, and counted; after
each one the photo shown must be the photo the library draws for the corrected tiles
(labels included), and the doubts and the payout must be the ones the corrected hand gives.
A player teaches the page their own tile set from a photo of the sheet, and a correction
teaches it more.
"""

from __future__ import annotations

import base64
import io
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import numpy as np
import pytest
from conftest import ROOT
from render import SHEET, render_hand, render_sheet_photo

CHROMIUM = Path("/usr/bin/chromium")
pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is installed by `make test`")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
SCREENS = {"desktop": {"width": 1400, "height": 1000}, "phone": {"width": 390, "height": 844}}
HAND = "1m 2m 3m 4m 5m 6m 7p 8p 9p 2s 3s 4s 6s 7s 8s 5p".split()
STRAY = """[...document.querySelectorAll('[data-testid="stMarkdownContainer"]')]
    .filter(e => !e.closest('[data-testid="stTable"]') && /^\\s*\\d+\\s*$/.test(e.innerText)).map(e => e.innerText)"""
PICTURES = 'iframe[title="streamlit_image_coordinates.streamlit_image_coordinates"]'


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def tilesets(tmp_path_factory) -> Path:
    """The server's folder of tile sets, never the user's."""
    return tmp_path_factory.mktemp("tilesets")


@pytest.fixture(scope="module")
def server(tmp_path_factory, tilesets):
    port = _free_port()
    env = {**os.environ, "TAISCORE_DB": str(tmp_path_factory.mktemp("ledger") / "ledger.sqlite3"), "TAISCORE_TILESETS": str(tilesets)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", str(ROOT / "app.py"), "--server.port", str(port),
         "--server.headless", "true", "--browser.gatherUsageStats", "false", "--server.address", "127.0.0.1"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    for _ in range(120):
        try:
            urllib.request.urlopen(f"{url}/_stcore/health", timeout=1)
            break
        except OSError:
            time.sleep(0.5)
    yield url
    proc.terminate()
    proc.wait(timeout=10)


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS)
        yield b
        b.close()


def _open(browser, server, screen: str):
    page = browser.new_page(viewport=SCREENS[screen])
    page.set_default_timeout(60_000)
    page.goto(server)
    page.get_by_text("taiscore 台灣麻將算台").wait_for()
    return page


def _settle(page) -> None:
    """Wait for the script rerun that the last interaction started: stApp's run state
    leaves notRunning when the server starts the run (a loaded host may take a while)
    and comes back when it ends. The status widget shows only after 500 ms of running."""
    from playwright.sync_api import TimeoutError as NotSeen

    state = "document.querySelector('[data-testid=\"stApp\"]').dataset.testScriptState"
    try:
        page.wait_for_function(f"() => {state} !== 'notRunning'", timeout=2000, polling="raf")
    except NotSeen:
        pass  # a run too short to see, or none
    page.locator('[data-testid="stApp"][data-test-script-state="notRunning"]').wait_for()
    page.wait_for_timeout(200)


class Player:
    """Taps as a thumb would, counting them."""

    def __init__(self, page):
        self.page = page
        self.taps = 0

    def tap_picture(self, index: int, view, value) -> None:
        """Tap the middle of what means `value` in the index-th picture, drawn as `view`."""
        rect = next(r for r, v in view.targets if v == value)
        img = self.page.frame_locator(PICTURES).nth(index).locator("#image")
        img.wait_for()
        shown = img.evaluate("e => e.width")
        k = shown / view.image.shape[1]
        img.click(position={"x": (rect[0] + rect[2]) / 2 * k, "y": (rect[1] + rect[3]) / 2 * k})
        self.taps += 1
        _settle(self.page)

    def tap_button(self, name: str) -> None:
        self.page.get_by_role("button", name=name, exact=True).click()
        self.taps += 1
        _settle(self.page)


def _shown_photo(page) -> bytes:
    src = page.frame_locator(PICTURES).nth(0).locator("#image").get_attribute("src")
    return base64.b64decode(src.split(",", 1)[1])


def _jpeg(image: np.ndarray) -> bytes:
    """A picture as the page sends it (JPEG, quality 88, by Pillow)."""
    from PIL import Image

    out = io.BytesIO()
    Image.fromarray(image).save(out, format="JPEG", quality=88)
    return out.getvalue()


def _main_text(page) -> str:
    return page.locator('[data-testid="stMainBlockContainer"]').inner_text()


def _expected_total(corr) -> int | None:
    """The payout the page must show: the scorer's total for the corrected tiles, winner 東 on 南's discard (the page's defaults)."""
    from scoring.hand import HandError, hand_from_json
    from scoring.scorer import score

    try:
        return score(hand_from_json({"seat": "E", "discarder": "S", **corr.hand()})).total
    except HandError:
        return None


def _check(page, img, corr, selected) -> None:
    """The page follows the corrected tiles: the photo as drawn, each doubt, the payout.
    Polled: on a busy host the rerun may start late and draw the page top to bottom."""
    from vision import overlay

    expected = _jpeg(overlay.photo(img, corr, selected).image)
    total = _expected_total(corr)
    payout = f"Hand 牌型: {total} 台" if total is not None else "Cannot score this hand"
    for _ in range(60):
        _settle(page)
        text = _main_text(page)
        if _shown_photo(page) == expected and all(d in text for d in corr.doubts) and payout in text:
            return
    assert _shown_photo(page) == expected, "the photo shown is not the one drawn for the corrected tiles"
    assert all(d in text for d in corr.doubts), (corr.doubts, text)
    assert payout in text


@pytest.mark.shared("art")
@pytest.mark.parametrize("screen", ["desktop", "phone"])
def test_a_player_corrects_the_photo_in_two_taps_each(browser, server, tmp_path, screen):
    from vision import overlay
    from vision.correction import Correction
    from vision.detector import DEFAULT_MODEL, Detector
    from vision.image import load

    photo = render_hand(HAND, "5p", tmp_path / "hand.png")
    img = load(photo)
    corr = Correction.of_photo(Detector(DEFAULT_MODEL).detect(img))
    assert [t.code for t in corr.tiles] == HAND + ["5p"]
    page = _open(browser, server, screen)
    page.locator("input[type=file]").set_input_files(str(photo))
    page.get_by_text("Check the reading").first.wait_for()
    _settle(page)
    _check(page, img, corr, None)
    player, taps = Player(page), {}

    six = next(t.id for t in corr.tiles if t.code == "6m")  # a misread: 6m should be 3m
    player.tap_picture(0, overlay.photo(img, corr), six)
    player.tap_picture(2, overlay.picker(), "3m")
    corr = corr.set_kind(six, "3m")
    _check(page, img, corr, six)
    taps["fix a misread tile"], player.taps = player.taps, 0

    player.tap_picture(0, overlay.photo(img, corr, six), six)  # the same tile, deleted
    player.tap_button(f"Delete #{six} 刪除")
    corr = corr.delete(six)
    assert "16 tiles read (kongs count 3); a winning hand has 17" in corr.doubts
    _check(page, img, corr, None)
    taps["delete a tile"], player.taps = player.taps, 0

    player.tap_button("Add a missed tile 補一張")
    player.tap_picture(2, overlay.picker(), "6m")
    corr = corr.add("6m")
    _check(page, img, corr, None)
    taps["add a missed tile"], player.taps = player.taps, 0

    winning = next(t.id for t in corr.tiles if t.group == "winning")
    player.tap_picture(0, overlay.photo(img, corr), winning)  # put the winning tile back in the row ...
    page.locator('[data-testid="stButtonGroup"]').get_by_text("手牌 concealed", exact=True).click()
    player.taps += 1
    _settle(page)
    corr = corr.set_group(winning, "concealed")
    _check(page, img, corr, winning)
    taps["change a tile's group"], player.taps = player.taps, 0
    assert "the winning tile is not set apart from the row: mark it" in _main_text(page)

    player.tap_button("5p")  # ... and mark it again: which tile won?
    corr = corr.set_group(next(t.id for t in corr.tiles if t.code == "5p" and t.group == "concealed"), "winning")
    _check(page, img, corr, winning)
    taps["mark the winning tile"] = player.taps
    assert "the winning tile is not set apart" not in _main_text(page)
    print(f"\ntaps on the {screen}: {taps}")
    assert taps == {"fix a misread tile": 2, "delete a tile": 2, "add a missed tile": 2, "change a tile's group": 2, "mark the winning tile": 1}
    page.close()


def test_the_ledger_page_stays_put_through_win_draw_and_undo(browser, server):
    from playwright.sync_api import expect

    page = _open(browser, server, "phone")
    page.get_by_text("Type the hand instead").first.wait_for()
    page.get_by_label("Concealed tiles, winning tile included").fill("123m456m789p234s678s55p")
    page.get_by_label("Winning tile 胡牌", exact=True).fill("4m")
    page.get_by_label("Winning tile 胡牌", exact=True).press("Enter")
    _settle(page)
    page.get_by_role("button", name="Use these tiles").click()
    page.get_by_text("Hand 牌型: 3 台").first.wait_for()  # 東 wins on 南's discard: 門清 + 平胡, dealer items apart
    page.get_by_text("Ledger 帳本").click()
    _settle(page)
    for i, name in enumerate(["阿明", "Ben", "Cat", "Dan"]):
        page.get_by_label(f"Chair {i + 1}").fill(name)
        page.get_by_label(f"Chair {i + 1}").press("Enter")
    _settle(page)
    page.get_by_role("button", name="Start session").click()
    _settle(page)
    page.get_by_text("Hand to add 將加入").wait_for()
    for button, hands in [("Add win 加胡", 1), ("Draw 流局", 2), ("Undo last 撤銷", 1)]:
        page.get_by_role("button", name=button).click()
        _settle(page)
        assert page.get_by_role("radio", name="Ledger 帳本").is_checked()
        rows = page.locator('[data-testid="stTable"]').first.locator("tbody tr")
        expect(rows).to_have_count(hands)  # waits: on a loaded host the rerun may start after _settle's pause
        text = _main_text(page)
        assert text.startswith("taiscore 台灣麻將算台")  # nothing printed above the title
        assert page.evaluate(STRAY) == []  # no event id printed anywhere
        assert "Score 算台" in text and "Check the reading" not in text
    assert "阿明" in rows.first.inner_text() and "Ben" in rows.first.inner_text()
    page.close()


def _learn(page, sheet: Path, tiles: str, name: str, learnt: str) -> None:
    page.locator("input[type=file]").set_input_files(str(sheet))
    _settle(page)
    page.get_by_label("Set name 牌組名").fill(name)
    page.get_by_label("Set name 牌組名").press("Enter")
    _settle(page)
    page.get_by_label("Tiles in the photo").fill(tiles)
    page.get_by_label("Tiles in the photo").press("Enter")
    _settle(page)
    page.get_by_role("button", name="Learn 學習").click()
    page.get_by_text(learnt).wait_for()
    _settle(page)


@pytest.mark.shared("art")
@pytest.mark.parametrize(("screen", "name"), [("desktop", "home"), ("phone", "travel")])
def test_a_player_teaches_their_set_and_a_correction_teaches_it_more_with_an_undo(browser, server, tilesets, tmp_path, screen, name):
    from vision import overlay, tileset
    from vision.correction import Correction
    from vision.detector import Detector
    from vision.image import load

    page = _open(browser, server, screen)
    page.get_by_text("My tiles 我的牌").click()
    _settle(page)
    sheet = render_sheet_photo(tmp_path / "sheet.png")
    _learn(page, sheet, SHEET, name, f"Learnt 學會 {name}: 42 of 42 kinds, 42 examples")
    mine = page.locator('[data-testid="stExpander"]').filter(has_text=f"{name}: 42 of 42 kinds")  # the other screen's set is listed too
    picture = mine.locator('[data-testid="stImage"] img')
    cell, row = 64 + tileset.PICTURE_GAP, 64 + tileset.PICTURE_LABEL
    assert picture.evaluate("e => [e.naturalWidth, e.naturalHeight]") == [9 * cell, 5 * row]  # laid out as the sheet, each kind's one example
    _learn(page, sheet, "213456789m" + SHEET[10:], name, f"Learnt 學會 {name}: 42 of 42 kinds, 84 examples")  # 1m and 2m swapped
    mine.get_by_text("Doubt 疑問: example 2 of 1m looks more like 2m than like the other 1m").wait_for()
    assert picture.evaluate("e => [e.naturalWidth, e.naturalHeight]") == [5 * (cell + 64), 10 * row]  # each kind's two side by side, five kinds a line
    wide = "document.scrollingElement.scrollWidth <= window.innerWidth && [...document.querySelectorAll('img')].every(e => e.getBoundingClientRect().right <= window.innerWidth + 1)"
    assert page.evaluate(f"() => {wide}"), "the tab reads on the screen without scrolling sideways"

    page.locator('[data-testid="stRadio"]').filter(has_text="Read photos with").get_by_text(name, exact=True).click()
    page.get_by_text(f"{name} · active 使用中").wait_for()  # chosen and stored before the visit ends
    page.reload()  # a later visit
    page.get_by_text("taiscore 台灣麻將算台").wait_for()
    page.get_by_text("My tiles 我的牌").click()
    page.get_by_text(f"{name} · active 使用中").wait_for()
    assert page.get_by_role("radio", name=name, exact=True).is_checked()

    page.get_by_text("Score 算台").click()
    page.get_by_text("Teach a set 教我的牌").wait_for(state="detached")  # the sheet's uploader gone: the one file input is the hand's
    photo = render_hand(HAND, "5p", tmp_path / "hand.png")
    img = load(photo)
    before = tileset.load(name, where=tilesets)
    corr = Correction.of_photo(Detector().with_tileset(before).detect(img))  # read with the active set
    page.locator("input[type=file]").set_input_files(str(photo))
    page.get_by_text("Check the reading").first.wait_for()
    _check(page, img, corr, None)
    tile = corr.tiles[5]
    kind = "3m" if tile.code != "3m" else "4m"
    player = Player(page)
    player.tap_picture(0, overlay.photo(img, corr), tile.id)
    player.tap_picture(2, overlay.picker(), kind)
    corr = corr.set_kind(tile.id, kind)
    _check(page, img, corr, tile.id)
    added = f"Added to My tiles 已加入我的牌 · {name}: {tileset.kind_label(kind)}"
    page.get_by_text(added).wait_for()
    assert tileset.load(name, where=tilesets).kinds == before.kinds + (kind,)
    player.tap_button("Undo 撤銷")
    page.get_by_text(added).wait_for(state="detached")  # the rerun that drops the line may end late on a busy host
    assert added not in _main_text(page)
    assert tileset.load(name, where=tilesets).kinds == before.kinds

    page.get_by_text("My tiles 我的牌").click()
    page.locator('[data-testid="stRadio"]').filter(has_text="Read photos with").get_by_text("none 不用", exact=True).click()
    page.get_by_text(f"{name} · active 使用中").wait_for(state="detached")
    page.get_by_text("Score 算台").click()
    _settle(page)
    other = corr.tiles[6]
    player.tap_picture(0, overlay.photo(img, corr, tile.id), other.id)
    player.tap_picture(2, overlay.picker(), "3m" if other.code != "3m" else "4m")
    corr = corr.set_kind(other.id, "3m" if other.code != "3m" else "4m")
    _check(page, img, corr, other.id)  # no set active: nothing added, nothing said
    assert "Added to My tiles" not in _main_text(page) and tileset.load(name, where=tilesets).kinds == before.kinds
    page.close()
