"""Properties over many random winning hands, for every rule set."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.hand import HandError, hand_from_json
from scoring.random_hands import random_hand
from scoring.ruleset import load, names
from scoring.scorer import _items, score


@pytest.mark.parametrize("ruleset", names())
@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_no_two_listed_items_replace_each_other(ruleset, seed):
    obj = random_hand(random.Random(seed), ruleset)
    try:
        s = score(hand_from_json(obj))
    except HandError as e:
        assert "below the minimum" in str(e)
        return
    rs = load(ruleset)
    listed = {i.id for i in s.items + s.dealer_items}
    for i in listed:
        assert not set(rs.item(i).replaces) & listed, (i, listed)
    wins = [p for p in s.payments if p.kind != "immediate"]
    assert len(wins) == (3 if obj["self_drawn"] else 1)
    assert all(p.payee == obj["seat"] and p.payer != p.payee for p in s.payments)


@pytest.mark.parametrize("ruleset", names())
@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_a_score_line_is_its_json_encoded(ruleset, seed):
    """The batch's one line a hand is put together from encoded parts: it must be the
    very text json.dumps gives for the whole score."""
    try:
        s = score(hand_from_json(random_hand(random.Random(seed), ruleset)))
    except HandError:
        return
    assert s.to_json_line() == json.dumps(s.to_json(), ensure_ascii=False).encode()


def test_a_score_line_keeps_the_eighth_flower_holders_items():
    hand = {"concealed": "123m456m789p234s678s55p", "winning_tile": "4m", "self_drawn": True, "flowers": "1234567f", "eighth_flower": "N"}
    s = score(hand_from_json(hand))
    assert s.payer_items and s.to_json_line() == json.dumps(s.to_json(), ensure_ascii=False).encode()


@pytest.mark.parametrize("ruleset", names())
@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), streak=st.integers(0, 5))
def test_dealer_items_read_only_the_streak(ruleset, seed, streak):
    """The scorer keeps dealer items per streak (and the ledger reads them so for a hand
    given as points): a dealer pattern that read more of the hand would fail here."""
    obj = random_hand(random.Random(seed), ruleset) | {"seat": "E", "streak": streak}
    if not obj["self_drawn"]:
        obj["discarder"] = "S"
    try:
        s = score(hand_from_json(obj))
    except HandError:
        return
    assert s.dealer_items == _items(load(ruleset), s.reading, dealer=True)
    assert [i.value for i in s.dealer_items] == ([1] if streak == 0 else [2 * streak + 1]) or not s.dealer_items
