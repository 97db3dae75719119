"""scoring/quick.py: a frozen dataclass made quickly is still the same frozen dataclass."""

from dataclasses import FrozenInstanceError, dataclass, field
from types import MappingProxyType

import pytest

from scoring.hand import Hand
from scoring.quick import quick


@quick
@dataclass(frozen=True)
class Pung:
    tile: int
    called: bool = False
    notes: list[str] = field(default_factory=list)
    tiles: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.__dict__["tiles"] = (self.tile,) * 3


def test_it_takes_the_same_arguments_defaults_and_factories():
    assert Pung(5) == Pung(tile=5, called=False, notes=[])
    assert Pung(5, True).called and Pung(5).notes is not Pung(5).notes  # a fresh list each time, as the factory says
    assert Pung(5).tiles == (5, 5, 5)  # __post_init__ ran
    with pytest.raises(TypeError):
        Pung()
    with pytest.raises(TypeError):
        Pung(5, tiles=(1,))  # not a parameter: worked out in __post_init__


def test_it_stays_frozen_and_compares_as_the_dataclass_does():
    p = Pung(5)
    with pytest.raises(FrozenInstanceError):
        p.tile = 6
    assert Pung(5) != Pung(6) and repr(Pung(5)) == "Pung(tile=5, called=False, notes=[])"


def test_a_hand_is_made_with_its_worked_out_counts():
    h = Hand("taiwan", (0, 0, 27))
    assert h.standing[0] == 2 and h.held[27] == 1 and h.options == MappingProxyType({}) and h.seat == "E"
    with pytest.raises(FrozenInstanceError):
        h.seat = "S"


def test_it_refuses_a_class_it_would_break():
    @dataclass
    class Open:
        tile: int

    @dataclass(frozen=True, slots=True)
    class Slotted:
        tile: int

    @dataclass(frozen=True)
    class Defaulted:
        tile: int
        tiles: tuple[int, ...] = field(init=False, default=())

    for cls in (Open, Slotted, Defaulted):
        with pytest.raises(TypeError):
            quick(cls)
