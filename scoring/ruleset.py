"""Rule sets are data: a table of items (pattern, value, what it replaces) plus
typed house options. A new rule set is a JSON file in `rulesets/` and at most a few
new patterns (see `registry.py`); everything in it is checked when it is loaded,
so a typo is refused by name instead of silently giving a fallback."""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import MISSING, dataclass, fields
from functools import cache, cached_property
from pathlib import Path
from types import MappingProxyType
from typing import Any, NamedTuple

from .facts import NEEDS
from .hand import HandError, Stakes
from .patterns import Pattern
from .registry import PATTERNS
from .special import SHAPES

RULESET_DIR = Path(__file__).parent / "rulesets"
COMMON_OPTIONS = Path(__file__).parent / "options.json"  # options several rule sets share, documented once
SEED_REF = re.compile(r"(\d{3}):(\d+)")  # an item's seed line: "003:45" is line 45 of seed 003_...
PAID_BY = ("eighth_flower",)
RESOLUTION_CACHE = 1 << 12  # distinct sets of found ids kept a rule set; random hands make a few hundred


class RulesetError(HandError):
    """Unknown rule set or option: the caller asked for rules we do not have."""


@dataclass(frozen=True)
class ItemRule:
    """One row of a table; its pattern is the function named as its id (registry.py)."""

    id: str
    name: str
    name_en: str
    value: int
    seed: str  # where the seed states it: "003:45", line 45 of the seed file starting 003_
    pattern: Pattern
    replaces: tuple[str, ...] = ()
    dealer: bool = False  # 莊家/連莊: added only to payments that involve the dealer
    needs_hand: bool = True  # False: also scores a win without five sets and a pair (flower wins, 四槓牌)
    alone: bool = False  # when it applies, no other hand item counts (七搶一)
    option: str | None = None  # the house option that switches it on
    immediate: int = 0  # 底 each other player pays at once, per occurrence (暗槓, 一台花)
    when_total: int | None = None  # paid instead of a hand whose items come to exactly this (大雞: 1)
    at_once: bool = False  # the hand's payments are made at once, never chained (大雞)
    as_self_drawn: bool = False  # a win paid as self-drawn by all three: the hand must say self_drawn (四槓牌)
    paid_by: str | None = None  # "eighth_flower": added to that holder's payment only (七搶一 情況一)
    value_option: str | None = None  # a house option that sets the value (天胡 16 or 24 ...)
    stack_option: str | None = None  # a house option under which it replaces nothing (花槓 on top of 正花)


class Plan(NamedTuple):
    """The rows a payment group calls, with their patterns beside them, so that the
    scorer calls every pattern in one `map` instead of a Python loop over the rows."""

    rules: tuple[ItemRule, ...]
    patterns: tuple[Pattern, ...]


OPTION_TYPES = ("bool", "int", "choice")


@dataclass(frozen=True)
class Option:
    """A house-rule switch: its type and range are checked wherever a value comes in."""

    name: str
    type: str  # bool, int or choice
    default: Any
    label: str  # Chinese, for the app
    label_en: str
    doc: str
    min: int | None = None  # int: inclusive range
    max: int | None = None
    choices: tuple[str, ...] = ()  # choice: the allowed strings

    def check(self, value: Any, where: str) -> Any:
        """`value` when it fits the option; a RulesetError naming the option otherwise."""
        if self.type == "bool":
            ok, wants = isinstance(value, bool), "a bool (true or false)"
        elif self.type == "int":
            ok = isinstance(value, int) and not isinstance(value, bool) and self.min <= value <= self.max
            wants = f"a whole number from {self.min} to {self.max}"
        else:
            ok, wants = isinstance(value, str) and value in self.choices, "one of " + ", ".join(repr(c) for c in self.choices)
        if not ok:
            raise RulesetError(f"option {self.name} of {where} takes {wants}, got {value!r}")
        return value


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

    def resolve_options(self, given: Any) -> Mapping[str, Any]:
        """Defaults overridden by the table's choices; an unknown option, a wrong type
        or a value out of range is refused by name."""
        if type(given) is MappingProxyType and not given:  # what the hand reader gives a hand that names no option
            return self.defaults
        if not isinstance(given, Mapping):
            raise RulesetError(f"options must be an object of house-rule switches, got {given!r}")
        if not given:
            return self.defaults
        unknown = sorted(set(given) - set(self.options))
        if unknown:
            known = ", ".join(self.options) or "none"
            raise RulesetError(f"unknown option(s) {', '.join(map(str, unknown))} for rule set {self.id}; known: {known}")
        where = f"rule set {self.id}"
        return MappingProxyType({n: opt.check(given[n], where) if n in given else opt.default for n, opt in self.options.items()})

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
    def flagged(self) -> Mapping[str, frozenset[str]]:
        """The ids of the items each payment flag of `ItemRule` is set on: `alone` (七搶一),
        `at_once` (大雞), `immediate` (暗槓, 一台花), `as_self_drawn` (四槓牌)."""
        flags = ("alone", "at_once", "immediate", "as_self_drawn")
        return MappingProxyType({f: frozenset(i.id for i in self.items if getattr(i, f)) for f in flags})

    @cached_property
    def unlinked(self) -> frozenset[str]:
        """Items that replace nothing and that nothing replaces: found, they are kept as they are."""
        return frozenset(i.id for i in self.items if not i.replaces and i.id not in self.replaced_by)

    @cached_property
    def defaults(self) -> Mapping[str, Any]:
        """Every option at its default: the options of a hand that names none."""
        return MappingProxyType({n: opt.default for n, opt in self.options.items()})

    @cached_property
    def instead_of_total(self) -> ItemRule | None:
        """The item paid instead of a hand of one exact total (大雞), if the table has one."""
        return next((i for i in self.items if i.when_total is not None), None)

    @property
    def seed_files(self) -> tuple[str, ...]:
        """The seed files named in `seed` ("003_... + 007_...")."""
        return seed_files(self.seed)

    @cached_property
    def groups(self) -> Mapping[tuple[bool, str | None], tuple[ItemRule, ...]]:
        """The items of each payment group, (dealer, paid_by) -> rows in table order; the
        item paid instead of a total (大雞) is in none. Found once: the scorer asks per reading."""
        out: dict[tuple[bool, str | None], list[ItemRule]] = {}
        for i in self.items:
            if i.when_total is None:
                out.setdefault((i.dealer, i.paid_by), []).append(i)
        return MappingProxyType({k: tuple(v) for k, v in out.items()})

    @cached_property
    def replaced_by(self) -> Mapping[str, tuple[ItemRule, ...]]:
        """Item id -> the rows that list it in `replaces`, so that resolving a reading's
        items looks up who may replace one instead of searching every row found."""
        out: dict[str, list[ItemRule]] = {}
        for i in self.items:
            for gone in i.replaces:
                out.setdefault(gone, []).append(i)
        return MappingProxyType({k: tuple(v) for k, v in out.items()})

    @cached_property
    def _plans(self) -> dict[tuple[bool, str | None, bool, tuple[bool, ...]], Plan]:
        return {}

    def plan(self, group: tuple[bool, str | None], whole: bool, present: tuple[bool, ...], options: Mapping[str, Any]) -> Plan:
        """The rows of a payment group worth calling a pattern for: switched on by the
        options, needing five sets and a pair only for a `whole` reading, and a pattern
        marked as needing events, an honour, a flower or three pungs (`facts.NEEDS`) only where
        `present` says the hand has it. Kept for the usual options: each reading asks."""
        key = (*group, whole, present)
        if options is self.defaults and key in self._plans:
            return self._plans[key]
        absent = {fact for fact, there in zip(NEEDS, present, strict=True) if not there}
        rows = tuple(
            rule
            for rule in self.groups.get(group, ())
            if (whole or not rule.needs_hand)
            and (not rule.option or options[rule.option])
            and getattr(rule.pattern, "needs", None) not in absent
        )
        plan = Plan(rows, tuple(rule.pattern for rule in rows))
        if options is self.defaults:
            self._plans[key] = plan
        return plan

    def replaces(self, rule: ItemRule, options: Mapping[str, Any]) -> tuple[str, ...]:
        """What a row replaces; nothing under its stack option (花槓 on top of 正花)."""
        return () if rule.stack_option and options[rule.stack_option] else rule.replaces

    @cached_property
    def _resolutions(self) -> dict[tuple[str, ...], tuple[tuple[str, tuple[str, ...]], ...]]:
        return {}

    def resolution(self, found: tuple[str, ...], options: Mapping[str, Any]) -> tuple[tuple[str, tuple[str, ...]], ...]:
        """The ids `found` keeps, in table order, each with the found ids it replaced (RULINGS 7).

        An item replaced only by items that were themselves replaced stays: 天胡
        replaces 門清自摸, so the 自摸 that 門清自摸 would have absorbed is kept. Kept for
        the usual options: a few hundred sets of ids recur across hands.
        """
        if options is self.defaults and found in self._resolutions:
            return self._resolutions[found]
        out = self._resolve(found, options)
        if options is self.defaults and len(self._resolutions) < RESOLUTION_CACHE:
            self._resolutions[found] = out
        return out

    def _resolve(self, found: tuple[str, ...], options: Mapping[str, Any]) -> tuple[tuple[str, tuple[str, ...]], ...]:
        alone = self.flagged["alone"]
        if not alone.isdisjoint(found):
            return ((next(i for i in found if i in alone), ()),)
        if self.unlinked.issuperset(found):  # nothing found replaces or is replaced: the usual dealer items
            return tuple((i, ()) for i in found)
        kept: dict[str, bool] = {}

        def keep(i: str) -> bool:
            if i not in kept:
                kept[i] = not any(r.id in found and self.replaces(r, options) and keep(r.id) for r in self.replaced_by.get(i, ()))
            return kept[i]

        return tuple(
            (i, tuple(x for x in self.replaces(self.by_id[i], options) if x in found))
            for i in found
            if i not in self.replaced_by or keep(i)
        )

    def item(self, item_id: str) -> ItemRule:
        return self.by_id[item_id]


def seed_files(seed: str) -> tuple[str, ...]:
    return tuple(s.strip() for s in seed.split("+"))


def _required(cls: type) -> set[str]:
    """The fields of a dataclass that a data file must give (those without a default)."""
    return {f.name for f in fields(cls) if f.default is MISSING and f.default_factory is MISSING}


def _option(name: str, raw: Any, common: Mapping[str, Any], where: str) -> Option:
    """An option of a data file: a common one (options.json) may only change its default."""
    if not isinstance(raw, dict):
        raise RulesetError(f"{where}: option {name} must be an object")
    if name in common:
        if set(raw) - {"default"}:
            raise RulesetError(f"{where}: option {name} is common (options.json); a rule set sets only its default")
        raw = {**common[name], **raw}
    keys = {f.name for f in fields(Option)} - {"name"}
    unknown, missing = set(raw) - keys, _required(Option) - {"name"} - set(raw)
    if unknown or missing:
        raise RulesetError(f"{where}: option {name}: unknown key(s) {sorted(unknown)}, missing {sorted(missing)}")
    if raw["type"] not in OPTION_TYPES:
        raise RulesetError(f"{where}: option {name}: type must be one of {', '.join(OPTION_TYPES)}")
    if raw["type"] == "int" and not (isinstance(raw.get("min"), int) and isinstance(raw.get("max"), int)):
        raise RulesetError(f"{where}: option {name}: an int option declares min and max")
    if raw["type"] == "choice" and not raw.get("choices"):
        raise RulesetError(f"{where}: option {name}: a choice option declares its choices")
    option = Option(name=name, **{**raw, "choices": tuple(raw.get("choices", ()))})
    option.check(option.default, where)
    return option


def _item(raw: dict[str, Any], seeds: tuple[str, ...], where: str) -> ItemRule:
    """One row of a data file; a key the table does not know is a typo, refused."""
    item_id = raw.get("id")
    if item_id not in PATTERNS:
        raise RulesetError(f"{where}: item {item_id}: no pattern named {item_id} (registry.py)")
    unknown = set(raw) - {f.name for f in fields(ItemRule)} | ({"pattern"} & set(raw))
    if unknown:
        raise RulesetError(f"{where}: item {item_id}: unknown key(s) {sorted(unknown)}")
    ref = SEED_REF.fullmatch(str(raw.get("seed", "")))
    if not ref or not any(s.startswith(ref[1] + "_") for s in seeds):
        raise RulesetError(f"{where}: item {item_id}: seed must name a line of its rule set's seeds, as \"003:45\"")
    if raw.get("paid_by") not in (None, *PAID_BY):
        raise RulesetError(f"{where}: item {item_id}: paid_by must be one of {', '.join(PAID_BY)}")
    missing = _required(ItemRule) - {"pattern"} - set(raw)
    if missing:
        raise RulesetError(f"{where}: item {item_id}: missing key(s) {sorted(missing)}")
    if type(raw["value"]) is not int:
        raise RulesetError(f"{where}: item {item_id}: value must be a whole number, got {raw['value']!r}")
    return ItemRule(**{**raw, "pattern": PATTERNS[item_id], "replaces": tuple(raw.get("replaces", ()))})


def names() -> list[str]:
    return sorted(p.stem for p in RULESET_DIR.glob("*.json"))


@cache
def _common_options() -> Mapping[str, Any]:
    return json.loads(COMMON_OPTIONS.read_text(encoding="utf-8"))


def _check_references(items: tuple[ItemRule, ...], options: Mapping[str, Option], where: str) -> None:
    """What an item names must exist: the items it replaces, and options of the right type.
    An id listed twice would score twice (a row copied and not renamed); an item whose
    value an option sets must show that option's default, or editing it would change nothing."""
    ids = {i.id for i in items}
    twice = sorted(i for i, n in Counter(x.id for x in items).items() if n > 1)
    if twice:
        raise RulesetError(f"{where}: item(s) {twice} listed twice")
    for i in items:
        missing = set(i.replaces) - ids
        if missing:
            raise RulesetError(f"{where}: item {i.id} replaces unknown {sorted(missing)}")
        for key, wants in (("option", "bool"), ("stack_option", "bool"), ("value_option", "int")):
            name = getattr(i, key)
            if name and (name not in options or options[name].type != wants):
                raise RulesetError(f"{where}: item {i.id}: {key} {name} must be a {wants} option of the rule set")
        if i.value_option and options[i.value_option].default != i.value:
            default = options[i.value_option].default
            raise RulesetError(f"{where}: item {i.id}: value {i.value} differs from its value_option {i.value_option}'s default {default}")


@cache
def load(ruleset_id: str) -> Ruleset:
    path = RULESET_DIR / f"{ruleset_id}.json"
    if ruleset_id not in names():  # a name from the list, never a path: `../rulesets/taiwan` is refused
        raise RulesetError(f"unknown rule set {ruleset_id!r}; known: {', '.join(names())}")
    raw = json.loads(path.read_text(encoding="utf-8"))
    where = f"rule set {ruleset_id}"
    unknown = set(raw) - {f.name for f in fields(Ruleset)} - {"ledger"}  # the ledger block: ledger/policy.py
    if unknown:
        raise RulesetError(f"{where}: unknown key(s) {sorted(unknown)}")
    missing = _required(Ruleset) - set(raw)
    if missing:
        raise RulesetError(f"{where}: missing key(s) {sorted(missing)}")
    seeds = seed_files(raw["seed"])
    options = MappingProxyType({k: _option(k, v, _common_options(), where) for k, v in raw["options"].items()})
    items = tuple(_item(i, seeds, where) for i in raw["items"])
    _check_references(items, options, where)
    events = raw["events"]
    bad = {e: o for e, o in events.items() if o is not None and (o not in options or options[o].type != "bool")}
    if bad:
        raise RulesetError(f"{where}: event(s) {sorted(bad)} need a bool option of the rule set")
    unknown_shapes = sorted(set(raw.get("shapes", ())) - set(SHAPES))
    if unknown_shapes:
        raise RulesetError(f"{where}: unknown shape(s) {unknown_shapes}; known: {', '.join(SHAPES)}")
    return Ruleset(
        id=raw["id"],
        name=raw["name"],
        seed=raw["seed"],
        unit=raw["unit"],
        stakes=Stakes(**raw["stakes"]),
        minimum=raw["minimum"],
        events=MappingProxyType(events),
        options=options,
        items=items,
        shapes=tuple(raw.get("shapes", ())),
    )
