"""The one strict check of every JSON input (hand, batch, session, ledger event).

Each input is a msgspec Struct converted in strict mode with unknown keys forbidden: a
typo (`discarer`) is refused by name instead of silently meaning something else,
`true` is never a number and `0` never a tile string. A key that may be left out but
never given as null defaults to `UNSET`. A failed check becomes one line naming the
field: `discarder: must be one of E S W N, not ""`.
"""

from __future__ import annotations

import json
import re
import types
from dataclasses import dataclass
from typing import Annotated, Any, Literal, TypeVar, Union, get_args, get_origin

import msgspec
from msgspec import Meta, Struct

MAX_AMOUNT = 1_000_000_000  # 底, 台值, amounts paid: no table plays for more, and sums stay exact
Amount = Annotated[int, Meta(ge=0, le=MAX_AMOUNT)]
Wind = Literal["E", "S", "W", "N"]

S = TypeVar("S", bound=Struct)
_AT = re.compile(r"^(?P<text>.*?)(?: - at `\$(?P<path>[^`]*)`)?$", re.S)
_STEP = re.compile(r"\.([^.\[]+)|\[(\d+)\]")
_FOUND = re.compile(r"Object (missing required|contains unknown) field `(.+)`")
_EXPECTED = re.compile(r"Expected `(\w+)`(?:, got `\w+`| (>=|<=) (\d+)| of length (>=|<=) (\d+))")
_SIMPLE = {"str": "must be a string", "int": "must be a whole number", "bool": "must be true or false", "array": "must be a list", "object": "must be an object"}


class Strict(Struct, forbid_unknown_fields=True, frozen=True, kw_only=True):
    """Base of every input model: exact JSON types, no unknown keys, read-only."""


def notation(example: str) -> Meta:
    """A string field in tile notation; `example` goes into the message when it is not a string."""
    return Meta(examples=[example])


def shown(value: Any) -> str:
    """A value as the user wrote it in JSON, cut short: `""`, `null`, `5`, `"WN"`."""
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= 40 else text[:37] + "..."


def check(model: type[S] | Any, obj: Any, error: type[Exception], what: str) -> S:
    """Convert `obj` to `model`; raise `error` with the first problem on one line.

    `what` names the whole input ("a hand") when the problem is the input itself."""
    try:
        return msgspec.convert(obj, model, strict=True)
    except msgspec.ValidationError as e:
        raise error(problem(str(e), model, obj, what)) from None


def problem(message: str, model: Any, obj: Any, what: str) -> str:
    """msgspec's "Expected `str`, got `int` - at `$.seat`" as the user reads it: `seat: must be ...`."""
    m = _AT.match(message)
    text, loc = m["text"], tuple(int(i) if i else key for key, i in _STEP.findall(m["path"] or ""))
    found = _FOUND.fullmatch(text)
    if found:
        loc += (found[2],)
    parent, holder = _walk(model, obj, loc[:-1])
    parent = _chosen(parent, holder)
    if isinstance(parent, _Untagged) and loc[-1:] == (parent.field,):
        loc, given = loc[:-1], "" if found else f", not {shown(holder[parent.field])}"
        said = f"needs a type, one of {' '.join(parent.tags)}{given}"
    else:
        said = _message(text, found, loc, parent, holder)
    return f"{_path(loc)}: {said}" if loc else f"{what} {said}"


def _message(text: str, found: re.Match | None, loc: tuple, parent: Any, holder: Any) -> str:
    """The problem at the last step of `loc`, in the object `holder` of type `parent`."""
    if found:
        if found[1] == "missing required":
            return "missing"
        keys = [f.encode_name for f in msgspec.structs.fields(parent)] + [parent.__struct_config__.tag_field or ""]
        return f"unknown key (known: {', '.join(sorted(filter(None, keys)))})"
    kind, value = _walk(parent, holder, loc[-1:]) if loc else (parent, holder)
    examples = [e for meta in get_args(kind)[1:] for e in (getattr(meta, "examples", None) or ())] if get_origin(kind) is Annotated else []
    if examples and text.startswith("Expected `str`, got"):
        return f"must be a string in tile notation such as {shown(examples[0])}, not {shown(value)}"
    kind = _chosen(kind, value)
    if get_origin(kind) is Literal:
        return f"must be one of {' '.join(map(str, get_args(kind)))}, not {shown(value)}"
    expected = _EXPECTED.fullmatch(text)
    if expected is None:
        return text  # a model's own refusal, written for the user
    name, bound, n, length, size = expected.groups()
    if bound:
        return f"must be {n} {'or more' if bound == '>=' else 'or less'}, not {shown(value)}"
    words = "at least" if length == ">=" else "at most"
    if length and name == "str":
        return f"must be {words} {size} characters"
    if length:
        return f"must have {words} {size} items, not {len(value)}"
    return f"{_SIMPLE.get(name, f'must be {name}')}, not {shown(value)}"


def _walk(t: Any, obj: Any, loc: tuple) -> tuple[Any, Any]:
    """The declared type at `loc` and the value there (msgspec names only places that exist)."""
    for step in loc:
        t = _chosen(t, obj)
        if isinstance(step, int):
            t, obj = get_args(t)[0], obj[step]
        else:
            t, obj = next(f.type for f in msgspec.structs.fields(t) if f.encode_name == step), obj[step]
    return t, obj


def _chosen(t: Any, obj: Any) -> Any:
    """Through Annotated and unions to the type `obj` is checked as: the model its type tag
    names, or the one member that is neither null nor left out."""
    while get_origin(t) is Annotated:
        t = get_args(t)[0]
    if get_origin(t) not in (Union, types.UnionType):
        return t
    kinds = [k for k in get_args(t) if k not in (type(None), msgspec.UnsetType)]
    tagged = [k for k in kinds if isinstance(k, type) and issubclass(k, Struct) and k.__struct_config__.tag_field]
    if tagged:
        field = tagged[0].__struct_config__.tag_field
        named = [k for k in tagged if isinstance(obj, dict) and obj.get(field) == k.__struct_config__.tag]
        return named[0] if named else _Untagged(field, [k.__struct_config__.tag for k in tagged])
    return _chosen(kinds[0], obj) if len(kinds) == 1 else t


@dataclass(frozen=True)
class _Untagged:
    """A union of models whose type tag the object did not name."""

    field: str
    tags: list[str]


def _path(loc: tuple) -> str:
    """`("hands", 2, "winners", 0, "pts")` -> `hand 3: winner 1: pts` (counted from 1)."""
    parts: list[str] = []
    for step in loc:
        if isinstance(step, int) and parts:
            name = parts.pop()
            parts.append(f"{name[:-1] if name.endswith('s') else name} {step + 1}")
        else:
            parts.append(str(step))
    return ": ".join(parts)
