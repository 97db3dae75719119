"""What the rule-set data promises a newcomer: every item findable by grep, every
option typed and checked by name, every item traced to the seed line it comes from."""

from __future__ import annotations

import inspect
import json
import os
import random
import re
import shutil
from pathlib import Path

import pytest

from scoring import ruleset as rulesets
from scoring.hand import hand_from_json
from scoring.random_hands import random_hand
from scoring.reading import readings
from scoring.registry import PATTERN_MODULES, PATTERNS
from scoring.ruleset import RulesetError, load, names

ROOT = Path(__file__).resolve().parents[1]
SEEDS = ROOT.parent / "shared" / "seeds"
NUMERALS = {1: "一", 2: "二", 3: "三", 4: "四", 5: "五", 8: "八", 16: "十六"}


def _seed_lines(file: str) -> list[str]:
    """The seed's lines; a missing ../shared fails in CI and skips elsewhere."""
    if not SEEDS.is_dir():
        if os.environ.get("CI") == "true":
            pytest.fail(f"{SEEDS} is missing")
        pytest.skip(f"no seeds at {SEEDS}")
    return (SEEDS / file).read_text(encoding="utf-8").splitlines()


ITEMS = [(rs, item) for rs in names() for item in load(rs).items]


@pytest.mark.parametrize("rs_item", ITEMS, ids=[f"{rs}-{i.id}" for rs, i in ITEMS])
def test_every_item_is_one_def_named_as_its_id(rs_item):
    _, item = rs_item
    sources = "\n".join(Path(m.__file__).read_text(encoding="utf-8") for m in PATTERN_MODULES)
    assert len(re.findall(rf"^def {item.id}\(", sources, flags=re.M)) == 1
    assert item.pattern is PATTERNS[item.id]


def test_patterns_are_top_level_functions_not_made_in_loops():
    for name, fn in PATTERNS.items():
        assert fn.__qualname__ == fn.__name__ == name, name


def test_a_pattern_defined_twice_is_refused():
    from scoring import patterns, registry

    with pytest.raises(RuntimeError, match="pattern dealer is defined in both"):
        registry._collect((patterns, patterns))


def test_every_pattern_is_used_by_some_rule_set():
    used = {i.id for rs in names() for i in load(rs).items}
    assert set(PATTERNS) == used


def test_a_pattern_reads_the_events_exactly_when_it_is_marked_on_event():
    """The scorer leaves out patterns marked on_event for a hand without events: a
    pattern that reads them unmarked would still be called, a marked one that reads
    anything else would be skipped wrongly."""
    marked = {n for n, fn in PATTERNS.items() if getattr(fn, "needs", None) == "events"}
    reads = {n for n, fn in PATTERNS.items() if ".events" in inspect.getsource(fn)}
    assert marked == reads
    assert {"heavenly", "robbing_kong", "last_tile", "kong_bloom", "migi", "double_win"} <= marked


def test_a_hand_without_events_is_not_asked_the_event_patterns():
    rs = load("taiwan")
    without = {r.id for r in rs.plan((False, None), True, (False, True, True, True), rs.defaults).rules}
    with_events = {r.id for r in rs.plan((False, None), True, (True, True, True, True), rs.defaults).rules}
    events = {"heavenly", "earthly", "ready_dealt", "ready_first_discard", "robbing_kong", "last_tile", "kong_bloom", "eight_flowers"}
    assert with_events - without == events | {"seven_rob_one"}  # 七搶一: its house option is on in taiwan
    assert "self_drawn" in without and "migi" not in with_events  # MIGI needs its house option, off by default


@pytest.mark.parametrize("ruleset", names())
def test_a_pattern_marked_as_needing_honours_flowers_or_pungs_is_0_without_them(ruleset):
    """The scorer leaves such a pattern out for a reading without an honour or three
    pungs, or a hand without a flower (`facts.on_honour`, `on_pungs`, `on_flowers`);
    that is only right if it would have said 0. Every reading of 200 real hands, with their flowers and without."""
    rs = load(ruleset)
    marked = {n: fn.needs for n, fn in PATTERNS.items() if n in rs.by_id and getattr(fn, "needs", None) in ("honour", "flowers", "pungs")}
    asked = {"honour": 0, "flowers": 0, "pungs": 0}
    for seed in range(200):
        rng = random.Random(seed)
        obj = random_hand(rng, ruleset)
        obj["flowers"] = "".join(f"{n}f" for n in sorted(rng.sample(range(1, 9), rng.randint(0, 3))))
        for flowers in (obj["flowers"], ""):
            hand = hand_from_json(obj | {"flowers": flowers})
            for r in readings(hand, rs.resolve_options(hand.options), rs.shapes):
                for pattern_id, needs in marked.items():
                    lacking = {"honour": not r.has_honour, "flowers": not hand.flowers, "pungs": len(r.pungs) < 3}
                    if lacking[needs]:
                        assert PATTERNS[pattern_id](r) == 0, (pattern_id, obj | {"flowers": flowers})
                        asked[needs] += 1
    assert min(asked.values()) > 100, asked


def test_the_marks_leave_out_what_most_hands_lack():
    rs = load("taiwan")
    everything = {r.id for r in rs.plan((False, None), True, (False, True, True, True), rs.defaults).rules}
    plain = {r.id for r in rs.plan((False, None), True, (False, False, False, False), rs.defaults).rules}
    assert everything - plain == {
        "dragon_pung", "seat_wind", "round_wind", "small_dragons", "big_dragons", "small_winds", "big_winds", "half_flush",
        "seat_flower_seasons", "seat_flower_plants", "flower_kong_seasons", "flower_kong_plants",
        "concealed_pungs_3", "concealed_pungs_4", "concealed_pungs_5", "all_pungs",
    }  # fmt: skip


# Options: typed, ranged, checked by name.


def test_defaults_come_back_for_an_empty_mapping():
    assert dict(load("star31").resolve_options({})) == {
        "seven_rob_one": True, "heavenly_value": 24, "flower_kong_stacks": False, "pinghu_strict": True, "rounds": 4,
        "seat_round_wind_three": False,
    }
    assert load("taiwan-basic").resolve_options({"rounds": 8}) == {"pinghu_strict": False, "rounds": 8}


@pytest.mark.parametrize(
    ("ruleset", "options", "message"),
    [
        ("taiwan", {"mgi": True}, "unknown option.* mgi"),
        ("taiwan", {"migi": 1}, "option migi .* a bool \\(true or false\\)"),
        ("taiwan", {"heavenly_value": True}, "option heavenly_value .* whole number"),
        ("taiwan", {"heavenly_value": 16.0}, "option heavenly_value"),
        ("taiwan", {"heavenly_value": 0}, "option heavenly_value .* from 1 to 1000"),
        ("taiwan", {"rounds": 1001}, "option rounds .* from 1 to 1000"),
        ("hk-taiwan", {"false_win": "30 bases"}, "option false_win .* '20 bases', '30 fan'"),
        ("taiwan-basic", {"migi": True}, "unknown option.* migi for rule set taiwan-basic"),
        ("taiwan", ["migi"], "options must be an object"),
    ],
)
def test_a_bad_option_is_refused_by_name(ruleset, options, message):
    with pytest.raises(RulesetError, match=message):
        load(ruleset).resolve_options(options)


def test_a_hand_with_a_bad_option_is_refused_when_scored():
    from conftest import play

    with pytest.raises(RulesetError, match="option rounds"):
        play("123m456m789p234s678s55p", "4m", options={"rounds": "4"})


def test_common_options_are_documented_once():
    common = json.loads((ROOT / "scoring" / "options.json").read_text(encoding="utf-8"))
    for rs in names():
        raw = json.loads((rulesets.RULESET_DIR / f"{rs}.json").read_text(encoding="utf-8"))
        for name, spec in raw["options"].items():
            if name in common:
                assert set(spec) <= {"default"}, (rs, name)
        for opt in load(rs).options.values():
            assert opt.label and opt.label_en and opt.doc


# The loader refuses a data file with a typo, by name.


@pytest.fixture
def data_dir(tmp_path, monkeypatch):
    """A copy of the taiwan data file to break, loaded uncached."""
    shutil.copy(rulesets.RULESET_DIR / "taiwan.json", tmp_path / "taiwan.json")
    monkeypatch.setattr(rulesets, "RULESET_DIR", tmp_path)

    def load_broken(edit) -> None:
        raw = json.loads((tmp_path / "taiwan.json").read_text(encoding="utf-8"))
        edit(raw)
        (tmp_path / "taiwan.json").write_text(json.dumps(raw, ensure_ascii=False), encoding="utf-8")
        rulesets.load.__wrapped__("taiwan")

    return load_broken


def _item(raw, item_id):
    return next(i for i in raw["items"] if i["id"] == item_id)


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda raw: raw["options"]["migi"].update(defualt=True), "option migi: unknown key.*defualt"),
        (lambda raw: raw["options"]["migi"].update(type="flag"), "option migi: type must be"),
        (lambda raw: raw["options"]["migi"].update(default="no"), "option migi .* a bool \\(true or false\\)"),
        (lambda raw: raw["options"]["rounds"].update(doc="copied again"), "option rounds is common"),
        (lambda raw: raw["options"]["heavenly_value"].update(default=2000), "option heavenly_value .* from 1 to 1000"),
        (lambda raw: raw["options"].pop("migi"), "item migi: option migi must be a bool option"),
        (lambda raw: _item(raw, "heavenly").update(value_option="migi"), "item heavenly: value_option migi must be a int option"),
        (lambda raw: _item(raw, "heavenly").update(value=20), "item heavenly: value 20 differs from its value_option heavenly_value's default 16"),
        (lambda raw: _item(raw, "pinghu").update(pattern="all_chows"), r"item pinghu: unknown key\(s\) \['pattern'\]"),
        (lambda raw: _item(raw, "pinghu").update(id="ping_hu"), "no pattern named ping_hu"),
        (lambda raw: _item(raw, "pinghu").pop("seed"), "item pinghu: seed must name a line"),
        (lambda raw: _item(raw, "pinghu").update(seed="002:45"), "item pinghu: seed must name a line"),
        (lambda raw: _item(raw, "pinghu").update(replaces=["pinhu"]), "item pinghu replaces unknown"),
        (lambda raw: raw["events"].update(ready="migii"), "event.*ready.* need a bool option"),
        (lambda raw: raw.update(streak_on_drwa="up"), "unknown key.*streak_on_drwa"),
        (lambda raw: raw["items"].append(dict(_item(raw, "pinghu"))), r"item\(s\) \['pinghu'\] listed twice"),
        (lambda raw: raw.update(shapes=["seven_pairs"]), r"unknown shape\(s\) \['seven_pairs'\]; known: thirteen_orphans"),
        (lambda raw: raw.pop("events"), r"rule set taiwan: missing key\(s\) \['events'\]"),
        (lambda raw: _item(raw, "pinghu").pop("name_en"), r"item pinghu: missing key\(s\) \['name_en'\]"),
        (lambda raw: _item(raw, "pinghu").update(value="2"), "item pinghu: value must be a whole number, got '2'"),
        (lambda raw: raw["options"]["migi"].pop("label_en"), r"option migi: unknown key\(s\) \[\], missing \['label_en'\]"),
    ],
)
def test_a_broken_data_file_is_refused_by_name(data_dir, edit, message):
    with pytest.raises(RulesetError, match=message):
        data_dir(edit)


# Each item names the seed line it comes from, and that line says its value.

SAYS_NO_VALUE = {
    ("taiwan", "half_melded"),  # 003:42 names 半求; its 1 is in the worked example on line 43
    ("star31", "seat_and_round_wind"),  # 002:24 says 东风东为两台有地方算三台: this is the third 台
}


def _says_value(file: str, line: str, value: int) -> bool:
    """000 ends each table row with its 番; the others write 1台, (1台), 一台 or 五番."""
    if file.startswith("000"):
        return line.rstrip().endswith(f"\t{value}")
    if file.startswith("001") and f"| {value} |" in line:
        return True
    return any(f"{v}{unit}" in line for v in (value, f"({value}", NUMERALS.get(value, "-")) for unit in ("台", "番"))


@pytest.mark.parametrize("rs_item", ITEMS, ids=[f"{rs}-{i.id}" for rs, i in ITEMS])
def test_the_seed_line_of_each_item_states_its_value(rs_item):
    rs, item = rs_item
    number, line_no = item.seed.split(":")
    file = next(s.strip() for s in load(rs).seed.split("+") if s.strip().startswith(number + "_"))
    lines = _seed_lines(file)
    assert 1 <= int(line_no) <= len(lines) and lines[int(line_no) - 1].strip()
    if item.dealer or (rs, item.id) in SAYS_NO_VALUE:
        return
    assert _says_value(file, lines[int(line_no) - 1], item.value), lines[int(line_no) - 1]


@pytest.mark.parametrize("ruleset", names())
def test_ready_events_mean_the_same_in_every_rule_set(ruleset):
    """RULINGS 10: ready_dealt is 天聽 (天叮), ready_first_discard is 地聽, wherever they score."""
    rs = load(ruleset)
    says = {"ready_dealt": ("天聽", "天听", "天叮"), "ready_first_discard": ("地聽", "地听")}
    for event, names_ in says.items():
        if event in rs.by_id:
            assert any(n in rs.item(event).name for n in names_), (event, rs.item(event).name)
            assert event in rs.events
