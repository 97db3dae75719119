"""End to end in a real browser: Playwright drives Debian's chromium against `streamlit run app.py`."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from conftest import ROOT
from render import render_hand

CHROMIUM = Path("/usr/bin/chromium")
pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is installed by `make test`")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    port = _free_port()
    env = {**os.environ, "TAISCORE_DB": str(tmp_path_factory.mktemp("ledger") / "ledger.sqlite3")}
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


@pytest.fixture
def page(server):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS)
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.set_default_timeout(60_000)
        page.goto(server)
        page.get_by_text("taiscore 台灣麻將算台").wait_for()
        yield page
        browser.close()


def _settle(page) -> None:
    """Wait for the script rerun that the last interaction started."""
    page.wait_for_timeout(300)
    page.locator('[data-testid="stStatusWidget"]').wait_for(state="hidden")


def _choose(page, label: str, option: str) -> None:
    """Open a selectbox, type to filter its options, take the first."""
    _settle(page)
    box = page.get_by_label(label, exact=False).first
    box.scroll_into_view_if_needed()
    box.click()
    page.keyboard.type(option)
    page.get_by_role("option").filter(has_text=option).first.click()
    _settle(page)


def test_typed_hand_then_one_fixed_tile_changes_the_payout(page):
    _choose(page, "Winner's seat", "南 S")
    _choose(page, "Discarder", "西 W")
    page.get_by_label("Concealed tiles, winning tile included").fill("123m456m789p234s678s55p")
    page.get_by_label("Winning tile 胡牌", exact=True).fill("4m")
    page.get_by_label("Winning tile 胡牌", exact=True).press("Enter")
    _settle(page)
    page.get_by_role("button", name="Use these tiles").click()
    page.get_by_text("Total 合計: 3 台").first.wait_for()
    _choose(page, "Tile to fix", "6m (concealed")
    _choose(page, "Is really", "3m")
    page.get_by_role("button", name="Apply", exact=True).click()
    page.get_by_text("Total 合計: 2 台").first.wait_for()  # 345m on a closed wait: 獨聽 replaces 平胡
    assert page.get_by_text("獨聽").count() >= 1


def _payout_text(page) -> str:
    """The payout section once the rerun is over: a redraw keeps stale copies of elements until it ends."""
    from playwright.sync_api import expect

    _settle(page)
    expect(page.get_by_text("3 · Payout")).to_have_count(1)
    return page.locator('[data-testid="stMainBlockContainer"]').inner_text().split("3 · Payout", 1)[1]


@pytest.mark.shared("art")
def test_uploaded_photo_is_read_boxed_and_one_fixed_tile_changes_the_payout(page, tmp_path):
    photo = render_hand("1m 2m 3m 4m 5m 6m 7p 8p 9p 2s 3s 4s 6s 7s 8s 5p".split(), "5p", tmp_path / "hand.png")
    page.locator("input[type=file]").set_input_files(str(photo))
    page.get_by_text("Check the reading").first.wait_for()
    page.get_by_text("Boxes coloured by group").first.wait_for()
    before = _payout_text(page)
    _choose(page, "Tile to fix", "(concealed")
    _choose(page, "In group", "winning")  # mark the winning tile: whatever was read, the payout changes
    page.get_by_role("button", name="Apply", exact=True).click()
    for _ in range(40):  # the page redraws after the click
        after = _payout_text(page)
        if after != before:
            break
    assert after != before
