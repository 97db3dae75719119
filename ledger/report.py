"""Readable statements and CSV export."""

from __future__ import annotations

import csv
import io

from scoring.text import pad

from .replay import Statement

TYPE_NAMES = {"win": "胡 win", "draw": "流局 draw", "false_win": "詐胡 false win", "cut": "斬拉 cut"}
# Payment kinds (replay.Payment.kind) as the table calls them; the JSON and CSV keep the ids.
KIND_NAMES = {
    "win": "胡 win",
    "at_once": "大雞 paid at once",
    "immediate": "暗槓 / 一台花 / 一台草 paid at once",
    "false_win": "詐胡 false win",
    "kick_half": "踢半 kick half",
    "chain_paid": "拉 paid as it stands",
    "cut": "斬拉 cut",
    "chain_end": "拉 paid at the end",
}


def statement_text(s: Statement) -> str:
    lines = []
    before: list[dict] = []
    for h in s.hands:
        pts = ", ".join(f"{p} {v}" for p, v in h.points.items())
        lines.append(f"hand {h.number:>2}  {TYPE_NAMES[h.type]:<16} round {h.round}  dealer {h.dealer} (連{h.streak})  {pts}".rstrip())
        lines += [f"          {p.payer} -> {p.payee}: {p.amount} ({KIND_NAMES[p.kind]})" for p in h.payments]
        lines += [f"          {_chain(c)} set aside 拉" for c in h.set_aside if c not in before]
        before = list(h.set_aside)
    if s.pending:
        lines.append("open 拉 chains 拉莊中, payer -> winner (paid as they stand at the end; the balances count them):")
        lines += [f"  {_chain(c)}" for c in s.pending]
    lines.append("balances:")
    lines += [f"  {pad(p, 12)} {v:+d}" for p, v in s.balances.items()]
    lines.append("settle with:")
    lines += [f"  {a} pays {b} {n}" for a, b, n in s.transfers] or ["  nothing to settle"]
    if s.differences:
        lines.append("differences from what was paid:")
        lines += [f"  hand {d.hand}: {d.payer} -> {d.payee} computed {d.computed}, paid {d.paid}" for d in s.differences]
    return "\n".join(lines)


def _chain(c: dict) -> str:
    return f"{c['from']} -> {c['to']}: {c['amount']} ({c['mouths']} 口)"


def statement_csv(s: Statement) -> str:
    out = io.StringIO()
    w = csv.writer(out)
    w.writerow(["hand", "type", "round", "dealer", "streak", "from", "to", "amount", "kind"])
    for h in s.hands:
        for p in h.payments or [None]:
            w.writerow([h.number, h.type, h.round, h.dealer, h.streak, *((p.payer, p.payee, p.amount, p.kind) if p else ("", "", "", ""))])
    return out.getvalue()
