"""The `taiscore score` and `taiscore rules` contract, run as a user runs them."""

from __future__ import annotations

import json
import subprocess
import sys

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
