"""The page logic through Streamlit's AppTest: typed hands, corrections, payouts, the ledger."""

from __future__ import annotations

import importlib
import tomllib

import cv2
import numpy as np
import pytest
from conftest import ROOT
from render import SHEET, render_sheet_photo
from streamlit.testing.v1 import AppTest

from vision import tileset
from vision.image import MAX_BYTES


@pytest.fixture(autouse=True)
def own_folders(tmp_path, monkeypatch):
    """Each test's page keeps its ledger and its tile sets in the test's own folder, never the user's."""
    monkeypatch.setenv("TAISCORE_DB", str(tmp_path / "ledger.sqlite3"))
    monkeypatch.setenv("TAISCORE_TILESETS", str(tmp_path / "tilesets"))


def _app() -> AppTest:
    return AppTest.from_file(str(ROOT / "app.py"), default_timeout=60).run()


def _type_hand(at: AppTest, concealed: str, winning: str, melds: str = "", flowers: str = "") -> AppTest:
    """Type the tiles, then winner S, discarder W (no dealer involved)."""
    at.text_input(key="typed_concealed").input(concealed)
    at.text_input(key="typed_winning").input(winning)
    at.text_input(key="typed_melds").input(melds)
    at.text_input(key="typed_flowers").input(flowers)
    at.button(key="use_typed").click().run()
    if "correction" in at.session_state:
        at.selectbox(key="seat").set_value("S").run()
        at.selectbox(key="discarder-S").set_value("W").run()
    return at


def _total(at: AppTest) -> str:
    return next(m.value for m in at.markdown if "Hand 牌型" in m.value)


def test_importing_the_app_draws_nothing():
    app = importlib.import_module("app")
    assert callable(app.main)
    assert {"heic", "heif"} <= set(app.PHOTO_TYPES)  # the iPhone's default photos are offered to vision.image


def test_the_uploader_states_the_size_limit_the_app_enforces():
    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())
    assert config["server"]["maxUploadSize"] * 2**20 == MAX_BYTES


def test_typed_hand_gets_an_itemised_payout():
    at = _type_hand(_app(), "123m456m789p234s678s55p", "4m")
    assert not at.exception
    assert _total(at) == "**Hand 牌型: 3 台**"
    assert set(at.table[0].value["名稱"]) == {"門清", "平胡"}
    assert list(at.table[1].value["Amount 金額"]) == [160]


def test_dealer_items_stand_apart_so_the_numbers_add_up():
    at = _type_hand(_app(), "123m456m789p234s678s55p", "4m")
    at.toggle(key="self_drawn").set_value(True).run()
    assert _total(at) == "**Hand 牌型: 3 台**"  # 門清自摸 3; 平胡 needs a discard
    items = at.table[0].value
    assert list(items["名稱"]) == ["門清自摸"] and sum(items["台"]) == 3
    assert set(items["Replaces 取代"][0].split(", ")) >= {"門清 Concealed hand"}
    assert list(at.table[1].value["名稱"]) == ["莊家"]  # the dealer pays too: its items in their own table
    assert any("Dealer 莊家: +1 台" in m.value for m in at.markdown)
    assert sorted(at.table[2].value["Amount 金額"]) == [160, 160, 180]


def test_house_options_read_in_chinese_and_english():
    at = _app()
    labels = [c.label for c in at.sidebar.checkbox]
    assert "平胡從嚴 Strict all-chows" in labels
    assert all(not label.replace("_", "").isascii() for label in labels)
    assert all(c.help for c in at.sidebar.checkbox)
    at.selectbox(key="ruleset").set_value("hk-taiwan").run()
    assert not at.exception
    assert at.selectbox(key="opt-hk-taiwan-false_win").options == ["20 bases", "30 fan"]


def test_invalid_hand_says_exactly_why():
    at = _type_hand(_app(), "123m456m789p234s678s5p", "4m")
    assert any("17 tiles" in e.value for e in at.error)
    assert any("16 tiles read" in w.value for w in at.warning)


@pytest.mark.parametrize(
    ("winning", "melds", "message"),
    [("4m", "ankong 11z", "ankong 11z"), ("45m", "", "expected one tile, got '45m'"), ("4m", "steal 123m", "write it as 'chi 234m'")],
)
def test_typed_mistakes_are_refused_not_guessed(winning, melds, message):
    at = _type_hand(_app(), "123m456m789p234s678s55p", winning, melds=melds)
    assert not at.exception
    assert any(message in e.value for e in at.error)
    assert "correction" not in at.session_state


def test_melds_and_flowers_are_typed_too():
    at = _type_hand(_app(), "456m789p234s678s55p", "4m", melds="ankong 1111z", flowers="2f")
    names = set(at.table[0].value["名稱"])
    assert "門清" in names and any(n.startswith("正花") for n in names)


def test_deleting_and_regrouping_a_tile_keeps_the_others_and_refreshes_the_doubts():
    at = _type_hand(_app(), "123m456m789p234s678s55p", "4m")
    corr = at.session_state.correction
    six = next(t for t in corr.tiles if t.code == "6m")
    at.session_state.selected = six.id
    at.run()
    at.button(key="delete_tile").click().run()
    after = at.session_state.correction
    assert [t for t in corr.tiles if t.id != six.id] == list(after.tiles)
    assert any("16 tiles read" in w.value for w in at.warning)
    nine = next(t for t in after.tiles if t.code == "9p")
    at.session_state.selected = nine.id
    at.run()
    at.button_group(key=f"group_{nine.id}_concealed").set_value("winning").run()
    assert [t.code for t in at.session_state.correction.tiles if t.group == "winning"] == ["9p"]


def test_one_tap_marks_the_winning_tile():
    at = _type_hand(_app(), "123m456m789p234s678s55p", "")
    assert any("winning tile is not set apart" in w.value for w in at.warning)
    at.button(key="won_4m").click().run()
    assert _total(at) == "**Hand 牌型: 3 台**"
    assert not any("winning tile is not set apart" in w.value for w in at.warning)


def test_a_typed_hand_clears_the_old_photo():
    at = _app()
    at.session_state.photo = np.zeros((10, 10, 3), np.uint8)
    at = _type_hand(at, "123m456m789p234s678s55p", "4m")
    assert "photo" not in at.session_state
    assert at.session_state.upload_generation == 1


def _ledger(at: AppTest) -> AppTest:
    at.radio(key="page").set_value("Ledger 帳本").run()
    for i, name in enumerate(["Amy", "Ben", "Cat", "Dan"]):
        at.text_input(key=f"player_{i}").input(name)
    return at.button(key="new_session").click().run()


def _stray(at: AppTest) -> list[str]:
    """Bare values the page printed: magic output of an expression, such as an event id."""
    return [m.value for m in at.markdown if m.value.strip("` \n").isdigit()]  # magic writes 3 as `3`


def test_ledger_records_the_scored_hand_with_its_seats_and_stays_on_the_page():
    at = _ledger(_type_hand(_app(), "123m456m789p234s678s55p", "4m"))
    assert at.radio(key="page").value == "Ledger 帳本"
    assert any("Ben (南 S) wins on Cat's discard (西 W), 3 台" in i.value for i in at.info)  # Amy deals: Ben sits S, Cat W
    assert "Add win books 加胡記入: Cat→Ben 160" in [c.value for c in at.caption]  # what the ledger will book, before it does
    at.button(key="add_win").click().run()
    assert not at.exception and not at.error and not _stray(at)
    assert at.radio(key="page").value == "Ledger 帳本"
    hands = at.table[0].value.to_dict("records")
    assert hands[0]["Hand 局"] == 1 and hands[0]["Winner 胡"] == "Ben" and hands[0]["From 放槍"] == "Cat" and hands[0]["Hand 牌型 台"] == "3"
    assert hands[0]["Amounts 金額"] == "Cat→Ben 160"
    balances = {r["player"]: r["balance"] for r in at.table[-1].value.to_dict("records")}
    assert balances == {"Amy": 0, "Ben": 160, "Cat": -160, "Dan": 0}
    at.button(key="add_draw").click().run()
    at.button(key="undo_last").click().run()
    assert not at.exception and not _stray(at)
    assert at.radio(key="page").value == "Ledger 帳本"
    assert len(at.table[0].value) == 1


def test_a_hand_booked_in_the_ledger_is_not_offered_again():
    at = _ledger(_type_hand(_app(), "123m456m789p234s678s55p", "4m"))
    at.button(key="add_win").click().run()
    assert not any("Hand to add" in i.value for i in at.info)  # the seats moved on: offered again, it would be the next seat's win
    at.button(key="add_win").click().run()  # a second tap books a win of the points typed (none), not the hand again
    assert [r["Hand 牌型 台"] for r in at.table[0].value.to_dict("records")] == ["3", "0"]
    at.radio(key="page").set_value("Score 算台").run()  # the same reading, its payout shown again: still booked
    assert any(i.value.startswith("In the ledger 已記入帳本") for i in at.info) and "scored_hand" not in at.session_state
    at.radio(key="page").set_value("Ledger 帳本").run()
    assert not any("Hand to add" in i.value for i in at.info)


def test_the_winner_offered_is_the_one_the_hand_to_add_names_after_the_deal_passes():
    at = _ledger(_type_hand(_app(), "123m456m789p234s678s55p", "4m"))  # Ben (S) wins on Cat's discard (W): Amy loses the deal
    at.button(key="add_win").click().run()
    at.radio(key="page").set_value("Score 算台").run()
    at = _type_hand(at, "123m456m789p234s678s55p", "4m")  # the next hand, scored as S winning on W's discard
    at.radio(key="page").set_value("Ledger 帳本").run()
    assert any("Cat (南 S) wins on Dan's discard (西 W)" in i.value for i in at.info)  # Ben deals now: Cat sits S, Dan W
    assert "Add win books 加胡記入: Dan→Cat 160" in [c.value for c in at.caption]
    winner = next(s for s in at.selectbox if s.label == "Winner 胡牌")
    discarder = next(s for s in at.selectbox if s.label == "Discarder 放槍")
    assert (winner.value, discarder.value) == ("Cat", "Dan")


def test_a_new_session_is_the_one_shown():
    at = _ledger(_app())
    first = at.session_state.ledger_pick
    for i, name in enumerate(["Eve", "Fay", "Gus", "Hal"]):
        at.text_input(key=f"player_{i}").input(name)
    at.button(key="new_session").click().run()
    assert at.session_state.ledger_pick != first
    assert "Eve" in at.selectbox(key="ledger_pick").format_func(at.selectbox(key="ledger_pick").value)


@pytest.fixture(scope="module")
def sheet(tmp_path_factory) -> bytes:
    return render_sheet_photo(tmp_path_factory.mktemp("sheet") / "sheet.png").read_bytes()


def _my_tiles(at: AppTest) -> AppTest:
    return at.radio(key="page").set_value("My tiles 我的牌").run()


def _learn(at: AppTest, photo: bytes, tiles: str, name: str = "home") -> AppTest:
    at.file_uploader(key=f"sheet_upload-{at.session_state.sheet_generation}").set_value(("sheet.png", photo, "image/png")).run()
    at.text_input(key="sheet_tiles").input(tiles)
    at.text_input(key="set_name").input(name)
    return at.button(key="learn_sheet").click().run()


def _active_choice(at: AppTest):
    return next(r for r in at.radio if r.key.startswith("active_set"))


@pytest.mark.shared("art")
def test_my_tiles_learns_a_sheet_and_the_active_set_is_kept_between_visits(sheet, tmp_path):
    at = _my_tiles(_app())
    assert at.text_input(key="sheet_tiles").value == SHEET  # filled in, editable
    at = _learn(at, sheet, SHEET)
    assert not at.exception and not at.error
    assert [s.value for s in at.success] == ["Learnt 學會 home: 42 of 42 kinds, 42 examples"]
    assert any(m.value == "**home: 42 of 42 kinds 種, 42 examples 張**" for m in at.markdown) and not at.warning
    assert _no_flowers(at, "home").disabled  # shown its flowers
    assert _active_choice(at).value is None  # learnt, not yet chosen
    _active_choice(at).set_value("home").run()
    again = _my_tiles(_app())  # a new visit
    assert _active_choice(again).value == "home" and [e.label for e in again.expander] == ["home · active 使用中"]
    assert tileset.active(tmp_path / "tilesets") == "home"


@pytest.mark.shared("art")
def test_a_mislabelled_sheet_shows_its_doubts(sheet):
    swapped = "213456789m" + SHEET[10:]  # the player swapped 1m and 2m learning the sheet a second time
    at = _learn(_learn(_my_tiles(_app()), sheet, SHEET), sheet, swapped)
    assert [s.value for s in at.success] == ["Learnt 學會 home: 42 of 42 kinds, 84 examples"]
    assert sorted(w.value for w in at.warning) == [f"Doubt 疑問: example {n} of {a} looks more like {b} than like the other {a}"
                                                   for n in (1, 2) for a, b in (("1m", "2m"), ("2m", "1m"))]


@pytest.mark.shared("art")
def test_a_sheet_showing_another_count_than_named_is_refused_and_nothing_stored(sheet, tmp_path):
    at = _learn(_my_tiles(_app()), sheet, SHEET[:-2] + "f")  # 8f left out: 41 named
    assert [e.value for e in at.error] == ["Nothing learnt 未學習: sheet.png: 42 tiles found, 41 named (rows found, top to bottom: 9 + 9 + 9 + 7 + 8)"]
    assert not at.success and tileset.names(tmp_path / "tilesets") == []
    assert "No set yet 尚無牌組" in [c.value for c in at.caption]
    at = _learn(at, sheet, SHEET, name="../home")
    assert at.error[0].value.startswith("Nothing learnt 未學習: '../home' is not a tile-set name")
    assert tileset.names(tmp_path / "tilesets") == []


def _no_flowers(at: AppTest, name: str):
    return next(c for c in at.checkbox if c.key.startswith(f"no_flowers-{name}-"))


def test_a_set_is_told_on_its_page_that_it_has_no_flowers_and_kept_so(tmp_path):
    folder = tmp_path / "tilesets"
    tileset.empty("home").save(folder)
    at = _my_tiles(_app())
    assert not _no_flowers(at, "home").value and not _no_flowers(at, "home").disabled
    _no_flowers(at, "home").check().run()
    assert not at.exception and not at.error and not tileset.load("home", where=folder).flowers
    assert any(m.value == "**home: 0 of 34 kinds 種, 0 examples 張**" for m in at.markdown)
    again = _my_tiles(_app())  # a new visit
    assert _no_flowers(again, "home").value
    _no_flowers(again, "home").uncheck().run()
    assert tileset.load("home", where=folder).flowers and any(m.value == "**home: 0 of 42 kinds 種, 0 examples 張**" for m in again.markdown)
    tileset.tell_flowers("home", False, where=folder)  # told elsewhere, on the command line
    assert _no_flowers(again.run(), "home").value


@pytest.mark.shared("art")
def test_a_set_without_flowers_lays_out_four_rows_and_is_learnt_so(tmp_path):
    at = _my_tiles(_app())
    at.checkbox(key="sheet_no_flowers").check().run()
    assert at.text_input(key="sheet_tiles").value == SHEET[: SHEET.index("z") + 1]  # the first four rows
    four_rows = render_sheet_photo(tmp_path / "sheet34.png", flowers=False).read_bytes()
    at.file_uploader(key=f"sheet_upload-{at.session_state.sheet_generation}").set_value(("sheet34.png", four_rows, "image/png")).run()
    at = at.button(key="learn_sheet").click().run()
    assert not at.exception and not at.error
    assert [s.value for s in at.success] == ["Learnt 學會 home: 34 of 34 kinds, 34 examples"]
    assert not tileset.load("home", where=tmp_path / "tilesets").flowers and _no_flowers(at, "home").value
    at.checkbox(key="sheet_no_flowers").uncheck().run()
    assert at.text_input(key="sheet_tiles").value == SHEET


def test_the_teaching_form_lays_out_the_sheet_as_the_set_named_has_it(tmp_path):
    folder = tmp_path / "tilesets"
    tileset.empty("home").with_flowers(False).save(folder)
    tileset.empty("club").save(folder)
    at = _my_tiles(_app())  # a visit: "home", the name first shown, has no flowers
    assert at.checkbox(key="sheet_no_flowers").value and at.text_input(key="sheet_tiles").value == SHEET[: SHEET.index("z") + 1]
    at.text_input(key="set_name").input("club").run()
    assert not at.checkbox(key="sheet_no_flowers").value and at.text_input(key="sheet_tiles").value == SHEET
    at.text_input(key="set_name").input("new-set").run()  # no such set yet: the form as it was
    assert not at.checkbox(key="sheet_no_flowers").value and at.text_input(key="sheet_tiles").value == SHEET
    assert not at.exception


def test_learn_without_a_photo_says_so():
    at = _my_tiles(_app()).button(key="learn_sheet").click().run()
    assert [e.value for e in at.error] == ["Nothing learnt 未學習: take or upload a photo of the sheet first"]


@pytest.mark.shared("art")
def test_deleting_the_active_set_takes_a_second_tap_and_leaves_none_active(sheet, tmp_path):
    at = _learn(_my_tiles(_app()), sheet, SHEET)
    _active_choice(at).set_value("home").run()
    at.button(key="delete_set-home").click().run()
    assert tileset.names(tmp_path / "tilesets") == ["home"]  # one tap only asks
    at.button(key="keep_set-home").click().run()
    assert tileset.names(tmp_path / "tilesets") == ["home"] and not any(b.key == "confirm_delete-home" for b in at.button)
    at.button(key="delete_set-home").click().run()
    at.button(key="confirm_delete-home").click().run()
    assert not at.exception and tileset.names(tmp_path / "tilesets") == [] and tileset.active(tmp_path / "tilesets") is None
    assert "No set yet 尚無牌組" in [c.value for c in at.caption]


def test_a_corrupt_active_set_is_named_on_both_pages_and_the_photo_read_without_it(tmp_path):
    folder = tmp_path / "tilesets"
    folder.mkdir()
    (folder / "home.npz").write_bytes(b"not a tile set")
    tileset.choose("home", folder)
    at = _my_tiles(_app())
    assert not at.exception and any("'home'" in e.value and "corrupt" in e.value for e in at.error)
    at.radio(key="page").set_value("Score 算台").run()
    at.file_uploader[0].set_value(("faces.png", (ROOT / "tests" / "golden" / "faces.png").read_bytes(), "image/png")).run()
    assert not at.exception
    assert any(w.value.startswith("Read without your tile set 未用我的牌: tile set 'home'") for w in at.warning)
    assert at.session_state.correction.tiles  # read all the same
    assert not any(c.value.startswith("Read with your tile set") for c in at.caption)


def test_the_check_says_which_tile_set_read_the_photo(tmp_path):
    folder = tmp_path / "tilesets"
    tileset.empty("home").save(folder)
    tileset.choose("home", folder)
    at = _app()
    at.file_uploader[0].set_value(("faces.png", (ROOT / "tests" / "golden" / "faces.png").read_bytes(), "image/png")).run()
    assert not at.exception and "Read with your tile set home 使用我的牌組 (chosen on My tiles)" in [c.value for c in at.caption]


def test_a_photo_with_no_tile_says_so_and_leaves_no_hand_for_the_ledger():
    at = _type_hand(_app(), "123m456m789p234s678s55p", "4m")
    assert "scored_hand" in at.session_state
    blank = cv2.imencode(".png", np.full((480, 640, 3), 128, np.uint8))[1].tobytes()
    at.file_uploader(key="upload-1").set_value(("grey.png", blank, "image/png")).run()
    assert not at.exception and not at.session_state.correction.tiles
    assert any(w.value.startswith("No tile found in this photo") for w in at.warning)
    assert "scored_hand" not in at.session_state


def test_a_file_that_is_no_photo_takes_the_last_photos_reading_away_and_the_same_photo_reads_again_after_typing():
    at = _app()
    photo = ("faces.png", (ROOT / "tests" / "golden" / "faces.png").read_bytes(), "image/png")
    at.file_uploader(key="upload-0").set_value(photo).run()
    read = len(at.session_state.correction.tiles)
    assert read
    at.file_uploader(key="upload-0").set_value(("notes.jpg", b"these are notes, not a photo", "image/jpeg")).run()
    assert [e.value for e in at.error] == ["notes.jpg: not an image taiscore can read (JPEG, PNG, WebP, HEIC)"]
    assert "correction" not in at.session_state and "photo" not in at.session_state
    at.file_uploader(key="upload-0").set_value(photo).run()
    at = _type_hand(at, "123m456m789p234s678s55p", "4m")
    assert "photo" not in at.session_state
    at.file_uploader(key="upload-1").set_value(photo).run()  # the same photo again: read again, in place of the typed hand
    assert "photo" in at.session_state and len(at.session_state.correction.tiles) == read


def test_taking_the_photo_away_takes_its_reading_with_it():
    at = _app()
    at.file_uploader(key="upload-0").set_value(("faces.png", (ROOT / "tests" / "golden" / "faces.png").read_bytes(), "image/png")).run()
    assert "correction" in at.session_state
    at.file_uploader(key="upload-0").set_value(None).run()
    assert "correction" not in at.session_state and "scored_hand" not in at.session_state


def test_another_page_visited_keeps_the_photos_reading():
    at = _app()
    at.file_uploader(key="upload-0").set_value(("faces.png", (ROOT / "tests" / "golden" / "faces.png").read_bytes(), "image/png")).run()
    read = at.session_state.correction
    at.radio(key="page").set_value("Ledger 帳本").run()
    at.radio(key="page").set_value("Score 算台").run()  # the uploader was not drawn meanwhile, and comes back empty
    assert at.session_state.correction == read and "photo" in at.session_state
    (uploader,) = at.file_uploader
    assert uploader.key != "upload-0"  # drawn anew under a new key: a browser's remounted uploader may report itself emptied
    at.file_uploader(key=uploader.key).set_value(("faces.png", (ROOT / "tests" / "golden" / "faces.png").read_bytes(), "image/png")).run()
    at.file_uploader(key=uploader.key).set_value(None).run()  # the same photo put in this uploader and taken out of it
    assert "correction" not in at.session_state
