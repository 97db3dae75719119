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
    assert s.total == sum(i.value for i in s.items)
    wins = [p for p in s.payments if p.kind != "immediate"]
    assert len(wins) == (3 if obj["self_drawn"] else 1)
    assert all(p.payee == obj["seat"] and p.payer != p.payee for p in s.payments)


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_the_best_reading_is_at_least_every_other_reading(seed):
    """RULINGS 1: the score is the maximum over every split and every completed set."""
    from scoring.reading import readings
    from scoring.scorer import _items

    hand = hand_from_json(random_hand(random.Random(seed)))
    s = score(hand)
    rs = load(hand.ruleset)
    options = rs.resolve_options(hand.options)
    for r in readings(hand, options):
        assert sum(i.value for i in _items(rs, r, dealer=False)) <= s.total
