"""The page logic through Streamlit's AppTest: typed hands, corrections, payouts."""

from __future__ import annotations

import pytest
from conftest import ROOT
from streamlit.testing.v1 import AppTest


@pytest.fixture(autouse=True)
def ledger_db(tmp_path, monkeypatch):
    """Each test's page keeps its ledger in the test's own database, never the user's."""
    monkeypatch.setenv("TAISCORE_DB", str(tmp_path / "ledger.sqlite3"))


def _app() -> AppTest:
    return AppTest.from_file(str(ROOT / "app.py"), default_timeout=60).run()


def _type_hand(at: AppTest, concealed: str, winning: str, melds: str = "", flowers: str = "") -> AppTest:
    """Winner S, discarder W (no dealer involved), then type the tiles."""
    at.selectbox(key="seat").set_value("S").run()
    at.selectbox(key="discarder-S").set_value("W")
    at.text_input(key="typed_concealed").input(concealed)
    at.text_input(key="typed_winning").input(winning)
    at.text_input(key="typed_melds").input(melds)
    at.text_input(key="typed_flowers").input(flowers)
    return at.button(key="use_typed").click().run()


def _total(at: AppTest) -> str:
    return next(m.value for m in at.markdown if "Total" in m.value)


def test_typed_hand_gets_an_itemised_payout():
    at = _type_hand(_app(), "123m456m789p234s678s55p", "4m")
    assert not at.exception
    assert "3 台" in _total(at)
    items = at.table[0].value
    assert set(items["名稱"]) == {"門清", "平胡"}
    payments = at.table[1].value
    assert list(payments["Amount 金額"]) == [160]


def test_context_changes_the_payout():
    at = _type_hand(_app(), "123m456m789p234s678s55p", "4m")
    at.toggle(key="self_drawn").set_value(True).run()
    assert "3 台" in _total(at)  # 門清自摸 3; 平胡 needs a discard
    assert set(at.table[0].value["名稱"]) == {"門清自摸", "莊家"}  # the dealer pays too
    assert sorted(at.table[1].value["Amount 金額"]) == [160, 160, 180]


def test_fixing_one_tile_changes_the_score():
    at = _type_hand(_app(), "123m456m789p234s678s55p", "4m")
    rows = at.session_state.rows
    n = next(i for i, r in enumerate(rows) if r["tile"] == "5p")
    at.selectbox(key="fix_index").set_value(n).run()
    at.selectbox(key=f"fix_code_{n}").set_value("5z").run()
    at.button(key="fix_apply").click().run()
    other = next(i for i, r in enumerate(at.session_state.rows) if r["tile"] == "5p")
    at.selectbox(key="fix_index").set_value(other).run()
    at.selectbox(key=f"fix_code_{other}").set_value("5z").run()
    at.button(key="fix_apply").click().run()
    assert "1 台" in _total(at)  # a 白 pair: no 平胡 any more, 門清 stays


def test_invalid_hand_says_exactly_why():
    at = _type_hand(_app(), "123m456m789p234s678s5p", "4m")
    assert any("17 tiles" in e.value for e in at.error)


def test_melds_and_flowers_are_typed_too():
    at = _type_hand(_app(), "456m789p234s678s55p", "4m", melds="ankong 1111z", flowers="2f")
    names = set(at.table[0].value["名稱"])
    assert "門清" in names and any(n.startswith("正花") for n in names)


def test_ledger_page_records_the_scored_hand_and_settles():
    at = _type_hand(_app(), "123m456m789p234s678s55p", "4m")
    for i, name in enumerate(["Amy", "Ben", "Cat", "Dan"]):
        at.text_input(key=f"player_{i}").input(name)
    at.button(key="new_session").click().run()
    at.selectbox(key="ledger_winner").set_value("Ben").run()
    at.selectbox(key="ledger_discarder_Ben").set_value("Amy").run()
    at.button(key="add_win").click().run()
    assert not at.exception
    balances = {r["player"]: r["balance"] for r in at.table[-1].value.to_dict("records")}
    hands = [t.value.to_dict("records") for t in at.table]
    assert balances == {"Amy": -180, "Ben": 180, "Cat": 0, "Dan": 0}, hands
    assert balances == {"Amy": -180, "Ben": 180, "Cat": 0, "Dan": 0}  # 門清 + 平胡 + 莊家 (Amy deals)
    assert any("Amy pays Ben 180" in m.value for m in at.markdown)


def test_one_click_marks_the_winning_tile():
    at = _type_hand(_app(), "123m456m789p234s678s55p", "")
    assert any("Cannot score" in e.value for e in at.error)
    at.button(key="won_4m").click().run()
    assert "3 台" in _total(at)
