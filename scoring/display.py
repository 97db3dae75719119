"""Names a player reads on the page: items a payout replaced, house options, a hand in short.

Ids (`concealed_pungs_4`, `pinghu_strict`) are for files and the command line; at the
table a player reads 四暗刻 Four concealed pungs.
"""

from __future__ import annotations

from .ruleset import Option, Ruleset
from .scorer import Item


def item_name(rs: Ruleset, item_id: str) -> str:
    """`四暗刻 Four concealed pungs` for an item id of the rule set."""
    rule = rs.by_id.get(item_id)
    return f"{rule.name} {rule.name_en}" if rule else item_id


def replaced_names(rs: Ruleset, item: Item) -> str:
    return ", ".join(item_name(rs, i) for i in item.replaced)


def option_label(opt: Option) -> str:
    """`平胡從嚴 Strict all-chows`: the option's Chinese and English labels."""
    return f"{opt.label} {opt.label_en}"


def hand_summary(hand: dict) -> str:
    """`123456m55789p234678s · 胡 4m · pon 555p · 花 2f`: the tiles of a hand object in one line."""
    parts = [hand.get("concealed", "")]
    if hand.get("winning_tile"):
        parts.append(f"胡 {hand['winning_tile']}")
    parts += hand.get("melds", [])
    if hand.get("flowers"):
        parts.append(f"花 {hand['flowers']}")
    return " · ".join(p for p in parts if p)
