"""Rule sets are data: a table of items (pattern, value, what it replaces) plus
house options. A new rule set is a JSON file in `rulesets/` and at most a few new
patterns."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, fields
from functools import cache, cached_property
from pathlib import Path
from types import MappingProxyType
from typing import Any

from . import patterns_hk  # noqa: F401  (registers the hk-taiwan patterns)
from .hand import HandError, Stakes
from .patterns import PATTERNS, Pattern

RULESET_DIR = Path(__file__).parent / "rulesets"


class RulesetError(HandError):
    """Unknown rule set or option: the caller asked for rules we do not have."""


@dataclass(frozen=True)
class ItemRule:
    id: str
    name: str
    name_en: str
    value: int
    pattern: Pattern
    replaces: tuple[str, ...] = ()
    dealer: bool = False  # 莊家/連莊: added only to payments that involve the dealer
    needs_hand: bool = True  # False: also scores a flower win without five sets and a pair
    alone: bool = False  # when it applies, no other hand item counts (七搶一)
    option: str | None = None  # the house option that switches it on
    immediate: int = 0  # 底 each other player pays at once, per occurrence (暗槓, 一台花)
    fallback: bool = False  # scores only when no other hand item does (大雞), but those it replaces
    at_once: bool = False  # the hand's payments are made at once, never chained (大雞)
    value_option: str | None = None  # a house option that sets the value (天胡 16 or 24 ...)
    stack_option: str | None = None  # a house option under which it replaces nothing (花槓 on top of 正花)


@dataclass(frozen=True)
class Option:
    name: str
    default: Any
    doc: str


@dataclass(frozen=True)
class Ruleset:
    id: str
    name: str
    seed: str
    unit: str
    stakes: Stakes
    minimum: int
    events: Mapping[str, str | None]  # event -> option it needs (None: always known)
    options: Mapping[str, Option]
    items: tuple[ItemRule, ...]
    shapes: tuple[str, ...] = ()  # special winning shapes beyond five sets and a pair

    def resolve_options(self, given: Mapping[str, Any]) -> Mapping[str, Any]:
        """Defaults overridden by the table's choices; an unknown option is refused."""
        unknown = sorted(set(given) - set(self.options))
        if unknown:
            known = ", ".join(self.options) or "none"
            raise RulesetError(f"unknown option(s) {', '.join(unknown)} for rule set {self.id}; known: {known}")
        out = {}
        for name, opt in self.options.items():
            value = given.get(name, opt.default)
            if type(value) is not type(opt.default):
                raise RulesetError(f"option {name} takes a {type(opt.default).__name__}, got {value!r}")
            out[name] = value
        return MappingProxyType(out)

    def check_events(self, events: frozenset[str], options: Mapping[str, Any]) -> None:
        for event in sorted(events):
            if event not in self.events:
                raise RulesetError(f"event {event} has no meaning in rule set {self.id}")
            needs = self.events[event]
            if needs and not options[needs]:
                raise RulesetError(f"event {event} needs house option {needs} in rule set {self.id}")

    @cached_property
    def by_id(self) -> Mapping[str, ItemRule]:
        return MappingProxyType({i.id: i for i in self.items})

    @cached_property
    def fallback(self) -> ItemRule | None:
        """The item that scores only when nothing else does (大雞), if the table has one."""
        return next((i for i in self.items if i.fallback), None)

    def item(self, item_id: str) -> ItemRule:
        return self.by_id[item_id]


def _item(raw: dict[str, Any]) -> ItemRule:
    """One row of a data file; a key the table does not know is a typo, refused."""
    pattern_name = raw.get("pattern", raw["id"])
    if pattern_name not in PATTERNS:
        raise ValueError(f"item {raw['id']}: no pattern named {pattern_name}")
    unknown = set(raw) - {f.name for f in fields(ItemRule)}
    if unknown:
        raise ValueError(f"item {raw['id']}: unknown key(s) {sorted(unknown)}")
    return ItemRule(**{**raw, "pattern": PATTERNS[pattern_name], "replaces": tuple(raw.get("replaces", ()))})


def names() -> list[str]:
    return sorted(p.stem for p in RULESET_DIR.glob("*.json"))


@cache
def load(ruleset_id: str) -> Ruleset:
    path = RULESET_DIR / f"{ruleset_id}.json"
    if not path.is_file():
        raise RulesetError(f"unknown rule set {ruleset_id!r}; known: {', '.join(names())}")
    raw = json.loads(path.read_text(encoding="utf-8"))
    items = tuple(_item(i) for i in raw["items"])
    ids = {i.id for i in items}
    for i in items:
        missing = set(i.replaces) - ids
        if missing:
            raise ValueError(f"{ruleset_id}: item {i.id} replaces unknown {sorted(missing)}")
        unknown = {o for o in (i.option, i.value_option, i.stack_option) if o} - set(raw["options"])
        if unknown:
            raise ValueError(f"{ruleset_id}: item {i.id} names unknown option(s) {sorted(unknown)}")
    return Ruleset(
        id=raw["id"],
        name=raw["name"],
        seed=raw["seed"],
        unit=raw["unit"],
        stakes=Stakes(**raw["stakes"]),
        minimum=raw["minimum"],
        events=MappingProxyType(raw["events"]),
        options=MappingProxyType({k: Option(k, v["default"], v["doc"]) for k, v in raw["options"].items()}),
        items=items,
        shapes=tuple(raw.get("shapes", ())),
    )
