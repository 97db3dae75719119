"""The one strict check of every JSON input (hand, batch, session, ledger event).

Each input is a pydantic v2 model in strict mode with unknown keys forbidden: a
typo (`discarer`) is refused by name instead of silently meaning something else,
`true` is never a number and `0` never a tile string. A failed check becomes one
line naming the field: `discarder: must be one of E S W N, not ""`.
"""

from __future__ import annotations

import json
import re
import types
from typing import Annotated, Any, Literal, TypeVar, Union, get_args, get_origin

from pydantic import BaseModel, ConfigDict, Field, RootModel, ValidationError
from pydantic_core import ErrorDetails, PydanticCustomError

MAX_AMOUNT = 1_000_000_000  # 底, 台值, amounts paid: no table plays for more, and sums stay exact
Amount = Annotated[int, Field(ge=0, le=MAX_AMOUNT)]
Wind = Literal["E", "S", "W", "N"]

M = TypeVar("M", bound=BaseModel)
_QUOTED = re.compile(r"'([^']*)'")


class Strict(BaseModel):
    """Base of every input model: exact JSON types, no unknown keys, read-only."""

    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)


def shown(value: Any) -> str:
    """A value as the user wrote it in JSON, cut short: `""`, `null`, `5`, `"WN"`."""
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= 40 else text[:37] + "..."


def refuse(kind: str, message: str) -> PydanticCustomError:
    """A check's own refusal inside a model; `message` is used as written."""
    return PydanticCustomError(kind, "{message}", {"message": message})


def check(model: type[M], obj: Any, error: type[Exception], what: str, tags: tuple[str, ...] = ()) -> M:
    """Validate `obj` against `model`; raise `error` with the first problem on one line.

    `what` names the whole input ("a hand") when the problem is the input itself;
    `tags` are the values of a discriminator (a ledger hand's type), left out of the path."""
    try:  # the model's own validator, as `model_validate(obj)` calls it: that wrapper's keywords cost a batch a tenth of reading a hand
        return model.__pydantic_validator__.validate_python(obj)
    except ValidationError as e:
        raise error(problem(e.errors()[0], model, obj, what, tags)) from None


def problem(err: ErrorDetails, model: type[BaseModel], obj: Any, what: str, tags: tuple[str, ...]) -> str:
    loc = tuple(step for step in err["loc"] if step not in tags)
    message = _message(err, _value_at(obj, err["loc"]), model, err["loc"], tags)
    return f"{_path(loc)}: {message}" if loc else f"{what} {message}"


def _message(err: ErrorDetails, value: Any, model: type[BaseModel], loc: tuple, tags: tuple[str, ...]) -> str:
    kind, ctx = err["type"], err.get("ctx", {})
    if kind == "missing":
        return "missing"
    if kind == "extra_forbidden":
        return f"unknown key (known: {', '.join(_keys_at(model, loc[:-1]))})"
    if kind == "literal_error":
        return f"must be one of {' '.join(_QUOTED.findall(ctx['expected']))}, not {shown(value)}"
    if kind in ("union_tag_invalid", "union_tag_not_found"):
        given = f", not {shown(ctx['tag'])}" if "tag" in ctx else ""
        return f"needs a type, one of {' '.join(tags)}{given}"
    simple = {
        "string_type": "must be a string",
        "int_type": "must be a whole number",
        "bool_type": "must be true or false",
        "list_type": "must be a list",
        "dict_type": "must be an object",
        "model_type": "must be an object",
        "model_attributes_type": "must be an object",
    }
    if kind in simple:
        return f"{simple[kind]}, not {shown(value)}"
    bounds = {"greater_than_equal": ("ge", "or more"), "less_than_equal": ("le", "or less")}
    if kind in bounds:
        key, words = bounds[kind]
        return f"must be {ctx[key]} {words}, not {shown(value)}"
    if kind == "too_short":
        return f"must have at least {ctx['min_length']} items, not {ctx['actual_length']}"
    if kind == "too_long":
        return f"must have at most {ctx['max_length']} items" + (f", not {ctx['actual_length']}" if ctx.get("actual_length") else "")
    if kind == "string_too_long":
        return f"must be at most {ctx['max_length']} characters"
    if kind == "string_too_short":
        return f"must be at least {ctx['min_length']} characters"
    return err["msg"]


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


def _value_at(obj: Any, loc: tuple) -> Any:
    for step in loc:
        try:
            obj = obj[step]
        except (KeyError, IndexError, TypeError):
            continue  # a discriminator tag: the value itself is the member
    return obj


def _keys_at(model: type[BaseModel], loc: tuple) -> list[str]:
    """The keys the object at `loc` may have, for an 'unknown key' message."""
    t: Any = model
    for step in loc:
        if isinstance(step, str):
            t = _step(t, step)
    return sorted((f.alias or n) for m in _models(t) for n, f in m.model_fields.items())


def _step(t: Any, key: str) -> Any:
    """The type under `key`: a field of the model at `t`, or the union member whose type tag it is."""
    for m in _models(t):
        for n, f in m.model_fields.items():
            if (f.alias or n) == key:
                return f.annotation
    for m in _models(t):
        tag = m.model_fields.get("type")
        if tag is not None and key in get_args(tag.annotation):
            return m
    return None


def _models(t: Any) -> list[type[BaseModel]]:
    """The models `t` holds directly: through Annotated, unions, lists and optionals, not into fields."""
    if isinstance(t, type) and issubclass(t, RootModel):
        return _models(t.model_fields["root"].annotation)
    if isinstance(t, type) and issubclass(t, BaseModel):
        return [t]
    if get_origin(t) in (Annotated, Union, types.UnionType, list, tuple, dict):
        return [m for a in get_args(t) for m in _models(a)]
    return []
