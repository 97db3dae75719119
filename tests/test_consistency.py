"""Properties over many random winning hands, for every rule set."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.hand import HandError, hand_from_json
from scoring.random_hands import random_hand
from scoring.ruleset import load, names
from scoring.scorer import score


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
