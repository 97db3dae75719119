"""Every bad input is refused with one message naming the problem: hands, ledger
sessions and hands, JSON files, photos."""

from __future__ import annotations

import io
import json
import os
import struct
import warnings
import zlib

import numpy as np
import pytest
from conftest import play

from ledger.session import SessionError, hand_from_record, session_from_json, table_from_json
from scoring import inputs
from scoring.hand import HandError, hand_from_json
from scoring.inputs import MAX_ITEM_BYTES, Batch, InputError, Parsed, batch, read_json
from scoring.ruleset import RulesetError, load
from scoring.scorer import score

BASE = "123m456m789p234s678s55p"
HAND = {"concealed": BASE, "winning_tile": "4m", "seat": "S", "discarder": "W"}
PLAYERS = ["Amy", "Ben", "Cat", "Dan"]
WIN = {"type": "win", "winners": [{"player": "Ben", "points": 3}], "discarder": "Amy"}


@pytest.mark.parametrize(
    ("kw", "message"),
    [
        (dict(concealed="11111m456m789p234s678s", win="4m"), "fifth copy of 1m"),
        (dict(concealed=BASE, win="4m", pool="4444m"), "fifth copy of 4m"),
        (dict(concealed=BASE, win="4m", flowers="11f"), "second copy of flower 1f"),
        (dict(concealed="123m456m789p234s55p", win="4m"), "17 tiles"),
        (dict(concealed=BASE, win="4m", discarder=None), "discarder: must be one of E S W N, not null"),
        (dict(concealed=BASE, win="4m", discarder="S"), "cannot be the winner"),
        (dict(concealed=BASE, win="9s"), "not among the concealed"),
        (dict(concealed=BASE, win="4m", self_drawn=True, events=["robbing_kong"]), "robbing"),
        (dict(concealed=BASE, win="4m", events=["replacement"]), "replacement tile is self-drawn"),
        (dict(concealed=BASE, win="4m", events=["last_tile"]), "last_tile"),
        (dict(concealed=BASE, win="4m", events=["heavenly"]), "dealer"),
        (dict(concealed=BASE, win="4m", events=["teleport"]), 'event 1: must be one of last_tile .*, not "teleport"'),
        (dict(concealed="456m789p234s678s55p", melds=["chi 124m"], win="4m"), "consecutive"),
        (dict(concealed="456m789p234s678s55p", melds=["pon 1111m"], win="4m"), "3 identical"),
        (dict(concealed="456m789p234s678s55p", melds=["steal 111m"], win="4m"), 'meld 1: "steal 111m": write it as'),
        (dict(concealed="123m456m789p234s679s55p", win="4m"), "not a winning hand"),
        (dict(concealed=BASE, win="4m", ruleset="mahjong-soul"), "unknown rule set"),
        (dict(concealed=BASE, win="4m", ruleset="../rulesets/taiwan"), "unknown rule set '../rulesets/taiwan'"),
        (dict(concealed=BASE, win="4m", options={"dragons_fly": True}), "unknown option"),
        (dict(concealed=BASE, win="4m", options={"migi": "yes"}), "takes a bool"),
        (dict(concealed=BASE, win="4m", events=["ready"]), "needs house option migi"),
        (dict(concealed="12x3m", win="4m"), "not tile notation"),
        (dict(concealed=BASE, win="4m", seat="X"), 'seat: must be one of E S W N, not "X"'),
        (dict(concealed=BASE, win="4m", streak=-1), "streak: must be 0 or more, not -1"),
        (dict(concealed=BASE, win="4m", stakes={"base": 1}), "stakes: point: missing"),
    ],
)
def test_refused_with_a_message_naming_the_problem(kw, message):
    kw = dict(kw)
    with pytest.raises(HandError, match=message):
        play(kw.pop("concealed"), kw.pop("win"), **kw)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        # cause 1: seats and winds are exactly one of E S W N, not substrings of "ESWN"
        ({"discarder": ""}, 'discarder: must be one of E S W N, not ""'),
        ({"discarder": "WN"}, 'discarder: must be one of E S W N, not "WN"'),
        ({"discarder": 3}, "discarder: must be one of E S W N, not 3"),
        ({"seat": ""}, 'seat: must be one of E S W N, not ""'),
        ({"round": None}, "round: must be one of E S W N, not null"),
        # cause 2: tile fields are strings in tile notation
        ({"concealed": 5}, "concealed: must be a string in tile notation"),
        ({"concealed": None}, "concealed: must be a string in tile notation"),
        ({"pool": None}, "pool: must be a string"),
        ({"winning_tile": None}, "winning_tile: must be a string"),
        ({"winning_tile": 4}, "winning_tile: must be a string"),
        ({"flowers": 0}, 'flowers: must be a string in tile notation such as "15f", not 0'),
        ({"flowers": False}, 'flowers: must be a string in tile notation such as "15f", not false'),
        ({"melds": "pon 555p"}, 'melds: must be a list, not "pon 555p"'),
        ({"melds": [555]}, "meld 1: must be a string"),
        # stakes are whole amounts, never booleans
        ({"stakes": {"base": True, "point": 20}}, "stakes: base: must be a whole number, not true"),
        ({"stakes": {"base": 100, "point": 20, "dealer": 1}}, "stakes: dealer: unknown key"),
        ({"stakes": {"base": 10**12, "point": 20}}, "stakes: base: must be 1000000000 or less"),
        ({"streak": 10**40}, "streak: must be 99 or less"),
        ({"self_drawn": 1}, "self_drawn: must be true or false, not 1"),
        ({"options": 5}, "options: must be an object, not 5"),
        ({"ruleset": ["taiwan"]}, 'ruleset: must be a string, not \\["taiwan"\\]'),
        ({"winner": "me"}, "winner: unknown key \\(known: concealed, discarder, eighth_flower, events"),
        ({"eighth_flower": ""}, 'eighth_flower: must be one of E S W N, not ""'),
    ],
)
def test_every_hand_field_is_checked_by_type_and_range(change, message):
    with pytest.raises(HandError, match=message):
        hand_from_json({**HAND, **change})


def test_a_hand_must_be_an_object():
    with pytest.raises(HandError, match=r"a hand must be an object, not \[1\]"):
        hand_from_json([1])


def test_missing_flowers_and_events_mean_none():
    s = score(hand_from_json({"concealed": BASE, "winning_tile": "4m", "seat": "S", "discarder": "W"}))
    assert s.hand.flowers == () and s.hand.events == frozenset()


def test_rule_sets_are_named_only_from_the_known_list():
    with pytest.raises(RulesetError, match="known: hk-taiwan, star31, taiwan, taiwan-basic"):
        load("../rulesets/taiwan")
    with pytest.raises(RulesetError, match="unknown rule set"):
        load("/etc/passwd")


def session(*hands, **table):
    return session_from_json({"players": PLAYERS, **table, "hands": list(hands)})


@pytest.mark.parametrize(
    ("doc", "message"),
    [
        # cause 6: a typo is refused by name, not read as something else
        ({"hands": [{**WIN, "discarer": "Amy"}]}, r"hand 1: discarer: unknown key \(known: discarder, paid, type, winners\)"),
        ({"hand": [WIN]}, r"^hand: unknown key \(known: first_dealer, hands,"),
        ({"hands": [{"type": "draw", "winners": WIN["winners"]}]}, r"hand 1: winners: unknown key \(known: paid, type\)"),
        ({"hands": [{**WIN, "winners": [{"player": "Ben"}]}]}, "hand 1: winner 1: give either points or a hand"),
        ({"hands": [{**WIN, "winners": [{"player": "Ben", "pts": 3}]}]}, r"hand 1: winner 1: pts: unknown key \(known: hand, player, points\)"),
        ({"hands": [{**WIN, "winners": [{"player": "Ben", "points": 3, "pts": 3}]}]}, "hand 1: winner 1: pts: unknown key"),
        (
            {"hands": [{**WIN, "winners": [{"player": "Ben", "hand": {**HAND, "discarer": "W"}}]}]},
            "hand 1: winner 1: hand: discarer: unknown key",
        ),
        # cause 7: every value's type
        ({"hands": [{**WIN, "paid": [1]}]}, "hand 1: paid 1: must be an object, not 1"),
        (
            {"hands": [{**WIN, "paid": [{"from": "Amy", "to": "Ben", "amount": True}]}]},
            "hand 1: paid 1: amount: must be a whole number, not true",
        ),
        ({"hands": [{**WIN, "winners": [{"player": "Ben", "hand": "123m"}]}]}, 'hand 1: winner 1: hand: must be an object, not "123m"'),
        (
            {"hands": [{**WIN, "winners": [{"player": "Ben", "points": True}]}]},
            "hand 1: winner 1: points: must be a whole number, not true",
        ),
        ({"players": [["Amy"], "Ben", "Cat", "Dan"]}, r'player 1: must be a string, not \["Amy"\]'),
        ({"players": ["Amy", "Amy", "Cat", "Dan"]}, "four different names"),
        ({"players": PLAYERS[:3]}, "players: must have at least 4 items, not 3"),
        ({"options": 5}, "options: must be an object, not 5"),
        ({"stakes": {"base": True, "point": 20}}, "stakes: base: must be a whole number, not true"),
        ({"stakes": {"base": 100, "point": False}}, "stakes: point: must be a whole number, not false"),
        ({"hands": [{"type": "tea"}]}, 'hand 1: needs a type, one of win draw false_win cut, not "tea"'),
        ({"hands": [{"winners": []}]}, "hand 1: needs a type, one of win draw false_win cut"),
        ({"hands": [WIN, {**WIN, "discarder": "Eve"}]}, "hand 2: discarder 'Eve' is not at the table"),
        ({"hands": {"type": "draw"}}, "hands: must be a list"),
    ],
)
def test_ledger_json_is_checked_strictly(doc, message):
    with pytest.raises(SessionError, match=message):
        session_from_json({"players": PLAYERS, **doc})


def test_a_session_names_its_rule_set_from_the_known_list():
    with pytest.raises(RulesetError, match="unknown rule set '../rulesets/taiwan'"):
        session_from_json({"players": PLAYERS, "ruleset": "../rulesets/taiwan"})


def test_a_stored_hand_is_checked_the_same_way():
    table = table_from_json({"players": PLAYERS})
    with pytest.raises(SessionError, match="^discarer: unknown key"):
        hand_from_record({**WIN, "discarer": "Amy"}, table)
    with pytest.raises(SessionError, match="^a hand must be an object, not 5"):
        hand_from_record(5, table)
    assert hand_from_record({"type": "win", "winners": [{"player": "Ben", "points": 3}], "discarder": None}, table).discarder is None


def test_a_session_is_read_whole():
    table, records = session(WIN, {"type": "draw"}, {"type": "false_win", "offender": "Cat"})
    assert table.players == tuple(PLAYERS) and [r.type for r in records] == ["win", "draw", "false_win"]
    assert records[0].winners[0].points == 3 and records[2].offender == "Cat"


def write(tmp_path, data: bytes, name: str = "in.json") -> str:
    path = tmp_path / name
    path.write_bytes(data)
    return str(path)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"[" * 1000 + b"]" * 1000, "nested too deeply"),  # cause 3: no RecursionError
        (b'{"streak": ' + b"9" * 5000 + b"}", "a number of 5000 digits"),
        (b"[1e999]", "1e999 is out of range"),
        (b"[NaN]", "NaN is not a JSON number"),
        ('{"seat": "É"}'.encode("latin-1"), "not UTF-8 text \\(byte 11\\)"),
        (b"", "is empty"),
        (b" \n ", "is empty"),
        (b'{"a": 1', "not JSON: Expecting ',' delimiter at line 1 column 8"),
        (b'{"a": 1}\n{"b": 2}', "not JSON: Extra data at line 2 column 1"),
        (b'{"seat": "S", "winners": [{"player": "A", "points": 1, "points": 3}]}', "the key 'points' is given twice"),
    ],
)
def test_json_documents_are_bounded(tmp_path, data, message):
    with pytest.raises(InputError, match=message):
        read_json(write(tmp_path, data))


def test_a_byte_order_mark_is_taken_as_utf8(tmp_path):
    assert read_json(write(tmp_path, '\ufeff{"a": "東"}'.encode())) == {"a": "東"}


def test_files_are_refused_by_size_before_they_are_read_whole(tmp_path):
    with pytest.raises(InputError, match="larger than the 1 MB limit"):
        read_json(write(tmp_path, b" " * (2**20 + 1)), limit=2**20)
    if os.path.exists("/dev/zero"):  # a file with no size: refused while reading, at the limit
        with pytest.raises(InputError, match="/dev/zero: larger than the 1 MB limit"):
            read_json("/dev/zero", limit=2**20)


def test_a_fifo_with_no_writer_reads_as_empty_instead_of_hanging(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(InputError, match="is empty"):
        read_json(str(fifo))


def test_a_folder_is_refused(tmp_path):
    with pytest.raises(InputError, match="is a folder"):
        read_json(str(tmp_path))


def hands_of(data: bytes) -> list:
    b = Batch(io.BytesIO(data), "in.json")
    return [b.many, *b]


def test_a_small_batch_file_is_parsed_in_one_call_and_a_bad_one_read_again(tmp_path, monkeypatch):
    f = tmp_path / "hands.json"
    f.write_bytes(b' [ {"a": 1} ,\n {"b": [2]} ] \n')
    with batch(str(f)) as hands:
        assert isinstance(hands, Parsed) and [hands.many, *hands] == [True, {"a": 1}, {"b": [2]}]
    f.write_bytes(b'[{"a": 1}, {"b": [2]]')
    with batch(str(f)) as hands, pytest.raises(InputError, match="delimiter in hand 2 at line 1 column 21"):
        assert isinstance(hands, Batch)
        list(hands)
    monkeypatch.setattr(inputs, "WHOLE_BYTES", 10)
    f.write_bytes(b'[{"a": 1}, {"b": 2}]')
    with batch(str(f)) as hands:
        assert isinstance(hands, Batch) and list(hands) == [{"a": 1}, {"b": 2}]


def test_a_batch_gives_its_hands_one_at_a_time():
    assert hands_of(b' [ {"a": 1} ,\n {"b": [2]} ] \n') == [True, {"a": 1}, {"b": [2]}]
    assert hands_of(b"[]") == [True]
    assert hands_of(b'\xef\xbb\xbf{"a": 1}') == [False, {"a": 1}]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b'[{"a": 1},\n {"a": 2}\n {"a": 3}]', "',' or ']' expected after hand 2 at line 3 column 2"),
        (b'[{"a": 1},\n {"a": }]', "not JSON: Expecting value in hand 2 at line 2 column 8"),
        (b'[{"a": 1}', "',' or ']' expected after hand 1"),
        (b'[{"a": 1}] []', "more after the end at line 1 column 12"),
        (b"[" + b"[" * 1000, "hand 1 is nested too deeply"),
        (b'[{"streak": ' + b"9" * 5000 + b"}]", "hand 1: a number of 5000 digits"),
        (b'[{"a": "\xe9"}]', "not UTF-8 text \\(byte 9\\)"),
        (b"\0" * 10, "not JSON"),
        (b"", "is empty"),
    ],
)
def test_a_bad_batch_names_where(data, message):
    with pytest.raises(InputError, match=message):
        hands_of(data)


def test_a_batch_holds_one_hand_at_a_time_whatever_its_length():
    n = 30_000
    data = b"[" + b",\n".join(json.dumps({**HAND, "streak": i % 99}).encode() for i in range(n)) + b"]"
    b = Batch(io.BytesIO(data), "in.json")
    held, count = 0, 0
    for hand in b:
        count += 1
        held = max(held, len(b.buf))
        assert hand["streak"] == (count - 1) % 99
    assert count == n and len(data) > 2**21 and held < 4 * 2**16


def test_a_hand_larger_than_its_limit_is_refused_unread():
    data = b'[{"concealed": "' + b"1m" * MAX_ITEM_BYTES + b'"}]'
    with pytest.raises(InputError, match="hand 1 is larger than the 1 MB a hand may take"):
        hands_of(data)


# photos (causes 12, 13): refused by size from the header, decoded strictly, no library lines


def _png(w: int, h: int, rows: bytes = b"\0" * 100) -> bytes:
    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
        + chunk(b"IDAT", zlib.compress(rows))
        + chunk(b"IEND", b"")
    )


def _jpeg() -> bytes:
    import cv2

    rng = np.random.default_rng(0)
    img = cv2.GaussianBlur((rng.random((480, 640, 3)) * 255).astype(np.uint8), (31, 31), 0)
    return cv2.imencode(".jpg", img)[1].tobytes()


def _corrupted(data: bytes) -> bytes:
    """2,000 bytes changed in the middle of the stream, as in the issue."""
    mid = len(data) // 2
    return data[:mid] + np.random.default_rng(1).integers(0, 256, 2000, dtype=np.uint8).tobytes() + data[mid + 2000 :]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (lambda: _corrupted(_jpeg()), "corrupt or cut short"),
        (lambda: _jpeg()[:15000], "corrupt or cut short"),
        (lambda: _png(100, 100), "corrupt or cut short"),  # a header that promises more than the data holds
        (lambda: _png(10000, 10000), "10000x10000 is 100 MP, above the 50 MP limit"),
        (lambda: _png(20000, 20000), "more than 178 MP, above the 50 MP limit"),
        (lambda: b"not an image at all", "not an image"),
    ],
)
def test_photos_are_decoded_strictly_and_refused_by_size_from_the_header(data, message, capfd):
    from vision.image import ImageError, load

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no library warning escapes: it is the message or nothing
        with pytest.raises(ImageError, match=message):
            load(data())
    assert capfd.readouterr() == ("", "")


def test_a_huge_file_is_refused_before_it_is_read_whole(tmp_path):
    from vision.image import MAX_BYTES, ImageError, load

    path = tmp_path / "big.jpg"
    with open(path, "wb") as f:
        f.truncate(MAX_BYTES + 1)  # sparse: nothing to read, the size says it all
    with pytest.raises(ImageError, match="larger than the 40 MB limit"):
        load(path)
    if os.path.exists("/dev/zero"):
        with pytest.raises(ImageError, match="/dev/zero: larger than the 40 MB limit"):
            load("/dev/zero")


def test_heic_photos_are_read_upright(tmp_path):
    from PIL import Image

    from vision.image import load

    img = Image.new("RGB", (60, 30), (255, 0, 0))
    exif = Image.Exif()
    exif[0x0112] = 6  # rotate 90 degrees clockwise to view, as a phone held upright writes it
    path = tmp_path / "turned.heic"
    img.save(path, format="HEIF", exif=exif.tobytes())
    photo = load(path)
    assert photo.shape == (60, 30, 3)
    assert photo[30, 15].tolist() == pytest.approx([0, 0, 255], abs=8)  # BGR: red


def test_a_good_jpeg_decodes_as_before():
    import cv2

    from vision.image import load

    data = _jpeg()
    assert np.array_equal(load(data), cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR))


@pytest.mark.parametrize("orientation", range(1, 9))
def test_every_exif_orientation_is_applied_as_opencv_applies_it(orientation):
    import cv2
    from PIL import Image

    from vision.image import load

    gradient = np.zeros((30, 60, 3), np.uint8)
    gradient[:, :, 0] = np.arange(60)[None, :] * 4
    gradient[:, :, 1] = np.arange(30)[:, None] * 8
    exif = Image.Exif()
    exif[0x0112] = orientation
    out = io.BytesIO()
    Image.fromarray(gradient).save(out, format="JPEG", quality=100, exif=exif.tobytes())
    data = out.getvalue()
    assert np.array_equal(load(data), cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR))


def test_a_cut_heic_is_refused_on_one_line(tmp_path):
    from PIL import Image

    from vision.image import ImageError, load

    out = io.BytesIO()
    Image.effect_noise((256, 256), 50).convert("RGB").save(out, format="HEIF")
    with pytest.raises(ImageError, match="corrupt or cut short") as e:
        load(out.getvalue()[: len(out.getvalue()) // 2])
    assert "\n" not in str(e.value)


def test_a_key_given_twice_in_a_batch_names_its_hand(tmp_path):
    one = b'{"concealed": "123m456m789p234s678s55p", "winning_tile": "4m", "seat": "S", "discarder": "W"}'
    twice = one[:-1] + b', "discarder": "N"}'
    hands = iter(Batch(io.BytesIO(b"[" + one + b", " + twice + b"]"), "in.json"))
    assert next(hands)["discarder"] == "W"
    with pytest.raises(InputError, match="hand 2: the key 'discarder' is given twice"):
        next(hands)
