"""Names a player reads on the page: items a payout replaced, house options, a hand in short.

Ids (`concealed_pungs_4`, `pinghu_strict`) are for files and the command line; at the
table a player reads 四暗刻 Four concealed pungs.
"""

from __future__ import annotations

from .ruleset import Option, Ruleset
from .scorer import Item

# Until every rule set's options carry their own labels: the names the options go by at the table.
OPTION_NAMES = {
    "migi": ("咪幾", "MIGI (ready with 8 or fewer wall tiles left)"),
    "seven_rob_one": ("七搶一", "Seven flowers rob the eighth"),
    "heavenly_value": ("天胡台數", "Heavenly hand value"),
    "flower_kong_stacks": ("花槓另計", "Flower kong adds to its flower"),
    "pinghu_strict": ("嚴格平胡", "Strict all-chows hand"),
    "rounds": ("圈數", "Wind rounds in a game"),
    "kong_keeps_concealed": ("明槓算門清", "Any kong keeps the hand concealed"),
    "false_win": ("詐胡罰則", "False win penalty"),
}


def item_name(rs: Ruleset, item_id: str) -> str:
    """`四暗刻 Four concealed pungs` for an item id of the rule set."""
    rule = rs.by_id.get(item_id)
    return f"{rule.name} {rule.name_en}" if rule else item_id


def replaced_names(rs: Ruleset, item: Item) -> str:
    return ", ".join(item_name(rs, i) for i in item.replaced)


def option_label(opt: Option) -> str:
    """`咪幾 MIGI ...`: the option's own labels where the rule set gives them."""
    zh, en = getattr(opt, "label", None), getattr(opt, "label_en", None)
    if not (zh and en):
        zh, en = OPTION_NAMES.get(opt.name, (opt.name, opt.name.replace("_", " ")))
    return f"{zh} {en}"


def hand_summary(hand: dict) -> str:
    """`123456m55789p234678s · 胡 4m · pon 555p · 花 2f`: the tiles of a hand object in one line."""
    parts = [hand.get("concealed", "")]
    if hand.get("winning_tile"):
        parts.append(f"胡 {hand['winning_tile']}")
    parts += hand.get("melds", [])
    if hand.get("flowers"):
        parts.append(f"花 {hand['flowers']}")
    return " · ".join(p for p in parts if p)
