"""Impossible hands and contradictory events are refused with a message naming the problem."""

from __future__ import annotations

import pytest
from conftest import play

from scoring.hand import HandError, hand_from_json
from scoring.scorer import score

BASE = "123m456m789p234s678s55p"


@pytest.mark.parametrize(
    ("kw", "message"),
    [
        (dict(concealed="11111m456m789p234s678s", win="4m"), "fifth copy of 1m"),
        (dict(concealed=BASE, win="4m", pool="4444m"), "fifth copy of 4m"),
        (dict(concealed=BASE, win="4m", flowers="11f"), "second copy of flower 1f"),
        (dict(concealed="123m456m789p234s55p", win="4m"), "17 tiles"),
        (dict(concealed=BASE, win="4m", discarder=None), "discarder"),
        (dict(concealed=BASE, win="4m", discarder="S"), "cannot be the winner"),
        (dict(concealed=BASE, win="9s"), "not among the concealed"),
        (dict(concealed=BASE, win="4m", self_drawn=True, events=["robbing_kong"]), "robbing"),
        (dict(concealed=BASE, win="4m", events=["replacement"]), "replacement tile is self-drawn"),
        (dict(concealed=BASE, win="4m", events=["last_tile"]), "last_tile"),
        (dict(concealed=BASE, win="4m", events=["heavenly"]), "dealer"),
        (dict(concealed=BASE, win="4m", events=["teleport"]), "unknown event"),
        (dict(concealed="456m789p234s678s55p", melds=["chi 124m"], win="4m"), "consecutive"),
        (dict(concealed="456m789p234s678s55p", melds=["pon 1111m"], win="4m"), "3 identical"),
        (dict(concealed="456m789p234s678s55p", melds=["steal 111m"], win="4m"), "meld"),
        (dict(concealed="123m456m789p234s679s55p", win="4m"), "not a winning hand"),
        (dict(concealed=BASE, win="4m", ruleset="mahjong-soul"), "unknown rule set"),
        (dict(concealed=BASE, win="4m", options={"dragons_fly": True}), "unknown option"),
        (dict(concealed=BASE, win="4m", options={"migi": "yes"}), "takes a bool"),
        (dict(concealed=BASE, win="4m", events=["ready"]), "needs house option migi"),
        (dict(concealed="12x3m", win="4m"), "not tile notation"),
        (dict(concealed=BASE, win="4m", seat="X"), "seat must be"),
        (dict(concealed=BASE, win="4m", streak=-1), "streak"),
        (dict(concealed=BASE, win="4m", stakes={"base": 1}), "stakes"),
    ],
)
def test_refused_with_a_message_naming_the_problem(kw, message):
    kw = dict(kw)
    with pytest.raises(HandError, match=message):
        play(kw.pop("concealed"), kw.pop("win"), **kw)


def test_unknown_input_key_is_refused():
    with pytest.raises(HandError, match="unknown key"):
        hand_from_json({"concealed": BASE, "winning_tile": "4m", "discarder": "W", "seat": "S", "winner": "me"})


def test_missing_flowers_and_events_mean_none():
    s = score(hand_from_json({"concealed": BASE, "winning_tile": "4m", "seat": "S", "discarder": "W"}))
    assert s.hand.flowers == () and s.hand.events == frozenset()
