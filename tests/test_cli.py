"""The `taiscore score` and `taiscore rules` contract, run as a user runs them."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

BASE = {"concealed": "123m456m789p234s678s55p", "winning_tile": "4m", "seat": "S", "discarder": "W"}


def taiscore(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "taiscore_cli", *args], input=stdin, capture_output=True, text=True)


def test_score_one_hand_from_stdin_prints_the_contract_keys():
    r = taiscore("score", "-", stdin=json.dumps(BASE))
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert {"ruleset", "total", "items", "dealer_items", "sets", "pair", "waits", "payments"} <= set(out)
    assert out["ruleset"] == "taiwan" and out["total"] == 3
    assert {i["id"] for i in out["items"]} == {"concealed_hand", "pinghu"}
    assert all({"id", "name", "name_en", "value"} <= set(i) for i in out["items"])
    assert out["waits"] == ["4m", "7m"] and out["pair"] == "55p"
    assert out["payments"] == [{"from": "W", "to": "S", "points": 3, "amount": 160, "kind": "win"}]


def test_score_an_array_gives_an_array(tmp_path):
    f = tmp_path / "hands.json"
    f.write_text(json.dumps([BASE, {**BASE, "seat": "N", "discarder": "W"}]))
    r = taiscore("score", str(f))
    assert r.returncode == 0 and len(json.loads(r.stdout)) == 2


def test_invalid_hand_exits_2_with_one_line_on_stderr_and_nothing_on_stdout():
    r = taiscore("score", "-", stdin=json.dumps({**BASE, "concealed": "11111m456m789p234s678s"}))
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.count("\n") == 1 and "fifth copy" in r.stderr


def test_unreadable_file_and_bad_json_exit_2(tmp_path):
    assert taiscore("score", str(tmp_path / "missing.json")).returncode == 2
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    r = taiscore("score", str(bad))
    assert r.returncode == 2 and "not JSON" in r.stderr


def test_text_output_is_an_itemised_table():
    r = taiscore("score", "--text", "-", stdin=json.dumps(BASE))
    assert r.returncode == 0
    assert "平胡" in r.stdout and "門清" in r.stdout and "W -> S" in r.stdout


def test_rules_prints_the_table_and_refuses_an_unknown_rule_set():
    r = taiscore("rules", "taiwan")
    assert r.returncode == 0 and "門清自摸" in r.stdout and "replaces" in r.stdout
    bad = taiscore("rules", "riichi")
    assert bad.returncode == 2 and "unknown rule set" in bad.stderr


def test_the_reference_page_is_generated_from_the_data(root):
    r = taiscore("rules", "--markdown")
    assert r.returncode == 0
    assert (root / "docs" / "rulesets.md").read_text() == r.stdout, "run: taiscore rules --markdown > docs/rulesets.md"


def refused(r: subprocess.CompletedProcess, text: str) -> None:
    """The contract for bad input: exit 2, one line on stderr naming the problem, nothing on stdout."""
    assert (r.returncode, r.stdout) == (2, ""), r.stderr
    assert r.stderr.count("\n") == 1 and text in r.stderr, r.stderr


def test_a_batch_gives_one_array_one_hand_a_line(tmp_path):
    hands = [BASE, {**BASE, "seat": "N"}, {**BASE, "seat": "E", "discarder": "S"}]
    r = taiscore("score", "-", stdin=json.dumps(hands))
    one_by_one = [json.loads(taiscore("score", "-", stdin=json.dumps(h)).stdout) for h in hands]
    assert r.returncode == 0 and json.loads(r.stdout) == one_by_one
    lines = r.stdout.splitlines()
    assert lines[0] == "[" and lines[-1] == "]" and [json.loads(x.rstrip(",")) for x in lines[1:-1]] == one_by_one
    assert taiscore("score", "-", stdin="[]").stdout == "[]\n"


def test_a_bad_hand_deep_in_a_batch_leaves_stdout_empty():
    hands = [BASE] * 56 + [{**BASE, "discarder": ""}] + [BASE] * 10
    refused(taiscore("score", "-", stdin=json.dumps(hands)), 'hand 57: discarder: must be one of E S W N, not ""')


def test_a_typo_in_a_batch_names_the_hand_and_the_key():
    refused(taiscore("score", "-", stdin=json.dumps([BASE, {**BASE, "flowers": 0}])), 'hand 2: flowers: must be a string in tile notation such as "15f", not 0')
    refused(taiscore("score", "-", stdin=json.dumps({**BASE, "discarer": "W"})), "discarer: unknown key")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (json.dumps([BASE, {**BASE, "seat": "N"}]), None),
        (json.dumps([BASE] * 3)[:-1] + ', {"seat": }]', "not JSON: Expecting value in hand 4 at line 1"),
        ("[" + json.dumps(BASE) + ', {"seat": "N", "seat": "S"}]', "hand 2: the key 'seat' is given twice"),
        (json.dumps([{**BASE, "discarder": ""}]) + " and more", 'hand 1: discarder: must be one of E S W N, not ""'),
        ("\ufeff" + json.dumps(BASE), None),
    ],
)
def test_a_batch_file_reads_as_the_same_batch_on_stdin(tmp_path, text, message):
    """A batch file is parsed in one call, stdin hand by hand: the same output, and the
    same refusal (the hand it names first, its words), the file read again to name it."""
    f = tmp_path / "hands.json"
    f.write_text(text, encoding="utf-8")
    from_file, from_stdin = taiscore("score", str(f)), taiscore("score", "-", stdin=text)
    assert (from_file.returncode, from_file.stdout) == (from_stdin.returncode, from_stdin.stdout)
    assert from_file.stderr == from_stdin.stderr.replace("stdin", str(f))
    if message:
        refused(from_file, message)
    else:
        assert from_file.returncode == 0 and json.loads(from_file.stdout)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"[" * 1000 + b"]" * 1000, "hand 1 is nested too deeply"),
        (b'{"streak": ' + b"9" * 5000 + b"}", "a number of 5000 digits"),
        ('{"seat": "É"}'.encode("latin-1"), "not UTF-8 text"),
        (b"", "is empty"),
    ],
)
def test_score_refuses_json_it_cannot_read_safely(tmp_path, data, message):
    f = tmp_path / "hands.json"
    f.write_bytes(data)
    refused(taiscore("score", str(f)), message)


def test_score_refuses_devices_fifos_and_folders(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    refused(subprocess.run([sys.executable, "-m", "taiscore_cli", "score", str(fifo)], capture_output=True, text=True, timeout=60), "is empty")
    refused(taiscore("score", str(tmp_path)), "is a folder")
    if os.path.exists("/dev/zero"):
        refused(taiscore("score", "/dev/zero"), "/dev/zero: not JSON")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("score",), "taiscore score: the following arguments are required: file"),
        (("bench", "--hands", "-5"), "argument --hands: must be 1 or more, not -5"),
        (("bench", "--hands", "lots"), "argument --hands: must be a whole number, not 'lots'"),
        (("shuffle",), "invalid choice: 'shuffle'"),
        (("ledger", "new", "--players", "Amy", "Ben"), "--players: expected 4 arguments"),
    ],
)
def test_argument_errors_are_one_line(args, message):
    refused(taiscore(*args), message)


def test_rule_sets_are_named_only_from_the_list():
    refused(taiscore("rules", "../rulesets/taiwan"), "unknown rule set '../rulesets/taiwan'; known: hk-taiwan, star31, taiwan, taiwan-basic")
    refused(taiscore("score", "-", stdin=json.dumps({**BASE, "ruleset": "../rulesets/taiwan"})), "unknown rule set")


PLAYERS = ["Amy", "Ben", "Cat", "Dan"]
WIN = {"type": "win", "winners": [{"player": "Ben", "points": 3}], "discarder": "Amy"}


@pytest.mark.parametrize(
    ("night", "message"),
    [
        ({"players": PLAYERS, "hands": [{**WIN, "discarer": "Amy"}]}, "hand 1: discarer: unknown key"),
        ({"players": PLAYERS, "hand": [WIN]}, "hand: unknown key"),
        ({"players": PLAYERS, "hands": [{"type": "draw", "winners": WIN["winners"]}]}, "hand 1: winners: unknown key"),
        ({"players": PLAYERS, "stakes": {"base": True, "point": 20}, "hands": [WIN]}, "stakes: base: must be a whole number, not true"),
        ({"players": PLAYERS, "options": 5}, "options: must be an object, not 5"),
    ],
)
def test_ledger_audit_refuses_a_typo_by_name(tmp_path, night, message):
    f = tmp_path / "night.json"
    f.write_text(json.dumps(night))
    refused(taiscore("ledger", "audit", str(f)), message)


def test_ledger_reads_are_bounded(tmp_path):
    deep = tmp_path / "deep.json"
    deep.write_bytes(b"[" * 1000 + b"]" * 1000)
    refused(taiscore("ledger", "audit", str(deep)), "nested too deeply")
    latin = tmp_path / "hand.json"
    latin.write_bytes('{"type": "draw", "note": "É"}'.encode("latin-1"))
    db = str(tmp_path / "l.sqlite3")
    sid = taiscore("ledger", "new", "--players", *PLAYERS, "--db", db).stdout.strip()
    refused(taiscore("ledger", "add", sid, str(latin), "--db", db), "not UTF-8 text")
    refused(taiscore("ledger", "add", sid, "-", "--db", db, stdin=json.dumps({**WIN, "discarer": "Amy"})), "discarer: unknown key")
    if os.path.exists("/dev/zero"):
        refused(taiscore("ledger", "audit", "/dev/zero"), "/dev/zero: larger than the 16 MB limit")


def test_a_photo_is_refused_by_size_before_it_is_read(tmp_path):
    if not os.path.exists("/dev/zero"):
        pytest.skip("no /dev/zero on this system")
    refused(taiscore("detect", "/dev/zero"), "/dev/zero: larger than the 40 MB limit")
