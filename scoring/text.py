"""Readable itemised tables for the terminal (`--text`)."""

from __future__ import annotations

import unicodedata

from .reading import WAIT_NAMES
from .ruleset import Ruleset
from .scorer import Item, Score


def width(s: str) -> int:
    """Terminal columns: CJK characters take two."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in s)


def pad(s: str, n: int) -> str:
    return s + " " * max(0, n - width(s))


def _item_line(item: Item, unit: str) -> str:
    label = item.name + (f"（{item.note}）" if item.note else "")
    line = f"  {pad(label, 18)} {pad(item.name_en, 38)} {item.value:>3} {unit}"
    if item.replaced:
        line += f"   replaces {', '.join(item.replaced)}"
    return line


def score_text(s: Score) -> str:
    r, unit = s.reading, s.ruleset.unit
    lines = [f"rule set {s.ruleset.id}: {s.ruleset.name}"]
    if r.complete:
        sets = " ".join(("" if x.concealed else "*") + "".join(str(t % 9 + 1) for t in x.tiles) + "mpsz"[x.tile // 9] for x in r.sets)
        pair = f"{r.pair % 9 + 1}{r.pair % 9 + 1}{'mpsz'[r.pair // 9]}"
        waits = " ".join(f"{k % 9 + 1}{'mpsz'[k // 9]}" for k in r.waits)
        lines.append(f"reading: {sets} + {pair}   (* exposed)   wait {WAIT_NAMES[r.wait]} {r.wait}; waits: {waits}")
    lines += [_item_line(i, unit) for i in s.items]
    lines.append(f"  {pad('合計', 18)} {pad('Hand total', 38)} {s.total:>3} {unit}")
    if s.dealer_items:
        lines.append("dealer items (only in payments that involve the dealer, seat E):")
        lines += [_item_line(i, unit) for i in s.dealer_items]
    lines.append("payments:")
    lines += [f"  {p.payer} -> {p.payee}: {p.points} {unit} = {p.amount}" for p in s.payments]
    return "\n".join(lines)


def ruleset_text(rs: Ruleset) -> str:
    lines = [f"{rs.id}: {rs.name} (seed {rs.seed}, unit {rs.unit}, minimum {rs.minimum})"]
    lines.append(f"  {pad('id', 22)} {pad('名稱', 16)} {pad('English', 40)} value  replaces")
    for i in rs.items:
        tags = [t for t, on in (("dealer item", i.dealer), ("alone", i.alone), (f"option {i.option}", bool(i.option))) if on]
        extra = f"  [{'; '.join(tags)}]" if tags else ""
        lines.append(f"  {pad(i.id, 22)} {pad(i.name, 16)} {pad(i.name_en, 40)} {i.value:>5}  {', '.join(i.replaces)}{extra}")
    lines.append("options:")
    lines += [f"  {o.name} (default {o.default!r}): {o.doc}" for o in rs.options.values()]
    return "\n".join(lines)
