"""Every pattern by name: the modules listed here are the only place patterns live.

A data row's `id` names its pattern (`"id": "hidden_pungs_3"` is
`patterns_hk.hidden_pungs_3`). A pattern module holds patterns as its public
functions and nothing else public; its helpers start with an underscore or live in
`facts.py`. A new rule set with new patterns adds its module to `PATTERN_MODULES`.
"""

from __future__ import annotations

import inspect
from collections.abc import Mapping
from types import MappingProxyType, ModuleType

from . import patterns, patterns_hk
from .patterns import Pattern

PATTERN_MODULES: tuple[ModuleType, ...] = (patterns, patterns_hk)


def _patterns_of(module: ModuleType) -> dict[str, Pattern]:
    return {
        n: f for n, f in vars(module).items() if inspect.isfunction(f) and f.__module__ == module.__name__ and not n.startswith("_")
    }


def _collect(modules: tuple[ModuleType, ...]) -> Mapping[str, Pattern]:
    out: dict[str, Pattern] = {}
    for module in modules:
        for n, f in _patterns_of(module).items():
            if n in out:
                raise RuntimeError(f"pattern {n} is defined in both {out[n].__module__} and {module.__name__}")
            out[n] = f
    return MappingProxyType(out)


PATTERNS: Mapping[str, Pattern] = _collect(PATTERN_MODULES)
