"""Frozen dataclasses that are quick to make.

A frozen dataclass's generated `__init__` sets each field through `object.__setattr__`,
about 1,500 instructions a field on CPython 3.11: making a 15-field `Hand` cost more
than checking it. `quick` gives the class an `__init__` with the same parameters,
defaults and `__post_init__` that fills the instance's `__dict__` in one call;
the rest (no assignment afterwards, equality, hashing, repr) stays the dataclass's.
"""

from __future__ import annotations

from dataclasses import MISSING, fields, is_dataclass
from typing import TypeVar

T = TypeVar("T")


def quick(cls: type[T]) -> type[T]:
    """Apply above `@dataclass(frozen=True)` on a class without slots."""
    if not is_dataclass(cls) or not cls.__dataclass_params__.frozen or hasattr(cls, "__slots__"):
        raise TypeError(f"{cls.__name__}: quick is for frozen dataclasses without slots")
    env: dict[str, object] = {"MISSING": MISSING}
    params, values = [], []
    for f in fields(cls):
        if not f.init:
            if f.default is not MISSING or f.default_factory is not MISSING:
                raise TypeError(f"{cls.__name__}.{f.name}: a field set outside __init__ is set in __post_init__, not by a default")
            continue
        if f.kw_only:
            raise TypeError(f"{cls.__name__}.{f.name}: keyword-only fields are not supported")
        if f.default_factory is not MISSING:
            env[f"_factory_{f.name}"] = f.default_factory
            params.append(f"{f.name}=MISSING")
            values.append(f"{f.name!r}: _factory_{f.name}() if {f.name} is MISSING else {f.name}")
            continue
        if f.default is not MISSING:
            env[f"_default_{f.name}"] = f.default
            params.append(f"{f.name}=_default_{f.name}")
        else:
            params.append(f.name)
        values.append(f"{f.name!r}: {f.name}")
    post = "\n    self.__post_init__()" if hasattr(cls, "__post_init__") else ""
    exec(f"def __init__(self, {', '.join(params)}):\n    self.__dict__.update({{{', '.join(values)}}}){post}", env)
    init = env["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"  # type: ignore[attr-defined]
    cls.__init__ = init  # type: ignore[misc]
    return cls
