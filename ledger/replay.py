"""Replay a session: dealer rotation, winds, every payment, balances, settlement, audit."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import asdict, dataclass
from itertools import combinations
from typing import Any

from scoring.hand import HandError, hand_from_json
from scoring.ruleset import Ruleset, load
from scoring.scorer import dealer_items_for, points, score, win_payments
from scoring.tiles import WINDS

from .chains import Chain, ChainBook
from .policy import LedgerPolicy, ledger_policy
from .session import HandRecord, SessionError, Table


@dataclass(frozen=True)
class Payment:
    payer: str
    payee: str
    amount: int
    kind: str  # win, at_once (大雞), immediate, false_win, kick_half, chain_paid, cut, chain_end

    def to_json(self) -> dict[str, Any]:
        return {"from": self.payer, "to": self.payee, "amount": self.amount, "kind": self.kind}


@dataclass(frozen=True)
class HandResult:
    number: int
    type: str
    dealer: str
    streak: int
    round: str
    seats: dict[str, str]
    payments: tuple[Payment, ...]  # what changes hands now
    points: dict[str, int]  # winner -> hand value (without dealer items)
    set_aside: tuple[dict, ...] = ()  # 拉 chains open after this hand

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "type": self.type,
            "dealer": self.dealer,
            "streak": self.streak,
            "round": self.round,
            "seats": self.seats,
            "points": self.points,
            "payments": [p.to_json() for p in self.payments],
            "set_aside": list(self.set_aside),
        }


@dataclass(frozen=True)
class Difference:
    hand: int
    payer: str
    payee: str
    computed: int
    paid: int

    def to_json(self) -> dict[str, Any]:
        return {"hand": self.hand, "from": self.payer, "to": self.payee, "computed": self.computed, "paid": self.paid}


@dataclass(frozen=True)
class Position:
    """Where a night stands after its hands: all the next hand depends on. The store keeps
    one with each event, so adding a hand replays that hand only, not the whole night."""

    hands: int
    deal: dict  # _Deal's fields
    chains: tuple[dict, ...] = ()  # the open 拉 chains, Chain's fields

    def to_json(self) -> dict[str, Any]:
        return {"hands": self.hands, "deal": self.deal, "chains": list(self.chains)}

    @staticmethod
    def from_json(obj: dict[str, Any]) -> Position:
        return Position(obj["hands"], obj["deal"], tuple(obj["chains"]))


@dataclass(frozen=True)
class Statement:
    hands: tuple[HandResult, ...]
    balances: dict[str, int]
    transfers: tuple[tuple[str, str, int], ...]
    differences: tuple[Difference, ...]
    pending: tuple[dict, ...] = ()  # 拉 chains still open; the balances count them as paid at the end
    position: Position | None = None  # where the night stands after these hands

    def to_json(self) -> dict[str, Any]:
        return {
            "hands": [h.to_json() for h in self.hands],
            "pending": list(self.pending),
            "balances": self.balances,
            "transfers": [{"from": a, "to": b, "amount": n} for a, b, n in self.transfers],
            "differences": [d.to_json() for d in self.differences],
        }


@dataclass
class _Deal:
    """Who deals and in which wind round; moves as RULINGS 'Ledger' says, the streak as
    the rule set's ledger block declares."""

    chair: int
    first: int
    streak: int = 0
    round_index: int = 0

    def after(self, policy: LedgerPolicy, dealer_won: bool, draw: bool) -> None:
        if draw or dealer_won:
            if ("draw" if draw else "dealer_win") in policy.streak_up_on:
                self.streak += 1
        else:
            self.chair = (self.chair + 1) % 4
            self.streak = 0
            if self.chair == self.first:
                self.round_index += 1


def _win(table: Table, rs: Ruleset, policy: LedgerPolicy, w, seats: dict[str, str], rnd: str, streak: int, rec: HandRecord) -> tuple[int, list[Payment]]:
    """One winner's hand value and payments: from points (雙響 / 三響 included; the ledger
    adds the dealer items), or from a full hand that the scorer scores with what the ledger knows."""
    stakes = table.stakes or rs.stakes
    player_at = {wind: p for p, wind in seats.items()}
    discarder = seats[rec.discarder] if rec.discarder else None
    if w.hand is None:
        value, kind = w.points, "win"
        if w.points in policy.points_read_as:  # hk-taiwan: 1 番 is 大雞 10, paid at once
            item = rs.item(policy.points_read_as[w.points])
            value, kind = item.value, "at_once" if item.at_once else "win"
        dealer_value = points(dealer_items_for(rs, streak))
        paid = win_payments(seats[w.player], discarder, value, dealer_value, stakes, kind)
        return value, [Payment(player_at[p.payer], player_at[p.payee], p.amount, p.kind) for p in paid]
    filled = {
        "ruleset": table.ruleset,
        "options": table.options,
        "seat": seats[w.player],
        "round": rnd,
        "streak": streak,
        "self_drawn": rec.discarder is None,
        "stakes": {"base": stakes.base, "point": stakes.point},
    }
    if discarder is not None:
        filled["discarder"] = discarder
    for key, value in filled.items():
        if key in w.hand and w.hand[key] != value:
            raise SessionError(f"{w.player}'s hand says {key}={w.hand[key]!r} but the session gives {value!r}")
    events = list(w.hand.get("events", []))
    shared = policy.several_winners.get(len(rec.winners))
    wrong = sorted(set(events) & set(policy.several_winners.values()) - {shared})
    if wrong:
        raise SessionError(f"{w.player}'s hand says {', '.join(wrong)} but {len(rec.winners)} player(s) won on this discard")
    if shared and shared not in events:
        events.append(shared)
    try:
        s = score(hand_from_json({**w.hand, **filled, "events": events}))
    except HandError as e:
        raise SessionError(f"{w.player}'s hand: {e}") from None
    return s.total, [Payment(player_at[p.payer], player_at[p.payee], p.amount, p.kind) for p in s.payments]


def replay(table: Table, hands: list[HandRecord], start: Position | None = None) -> Statement:
    """From `start` (the position of an earlier replay of the same table) the hands extend
    that night, and the statement holds only them."""
    rs = load(table.ruleset)
    policy = ledger_policy(rs.id)
    options = rs.resolve_options(table.options)
    rounds = options["rounds"]
    false_win = policy.false_win.penalty(options).amount(table.stakes or rs.stakes)
    first = table.players.index(table.first_dealer) if table.first_dealer else 0
    deal = _Deal(**start.deal) if start else _Deal(first, first)
    book = ChainBook()
    book.chains = {(c["debtor"], c["creditor"]): Chain(**c) for c in start.chains} if start else {}
    done = start.hands if start else 0
    results, differences = [], []
    for number, rec in enumerate(hands, start=done + 1):
        if deal.round_index >= rounds:
            raise SessionError(f"hand {number}: the game ended after {rounds} wind rounds (house option rounds)")
        seats = {p: WINDS[(i - deal.chair) % 4] for i, p in enumerate(table.players)}
        dealer = table.players[deal.chair]
        rnd = WINDS[deal.round_index % 4]
        payments: list[Payment] = []
        points: dict[str, int] = {}
        if rec.type == "cut":
            if policy.chains is None:
                raise SessionError(f"hand {number}: 斬拉 (cut) needs a rule set with 拉 chains; {rs.id} pays every hand at once")
            t = book.cut(rec.payer, rec.payee, policy.chains.cut_counts(options))
            payments.append(Payment(t.payer, t.payee, t.amount, t.kind))
        if rec.type == "win":
            for w in rec.winners:
                points[w.player], paid_now = _win(table, rs, policy, w, seats, rnd, deal.streak, rec)
                payments += paid_now
            if policy.chains is not None:
                payments = _chain(book, payments, set(points))
        elif rec.type == "false_win":
            payments += [Payment(rec.offender, p, false_win, "false_win") for p in table.players if p != rec.offender]
        open_chains = tuple(c.to_json() for c in book.open())
        results.append(HandResult(number, rec.type, dealer, deal.streak, rnd, seats, tuple(payments), points, open_chains))
        if rec.paid is not None:
            differences += _differences(number, payments, rec.paid)
        if rec.type not in ("false_win", "cut"):  # a false win replays the hand, a cut is between hands: the deal stays
            deal.after(policy, dealer_won=dealer in points, draw=rec.type == "draw")
    position = Position(done + len(hands), asdict(deal), tuple(asdict(c) for c in book.open()))
    pending = tuple(c.to_json() for c in book.open())
    balances = {p: 0 for p in table.players}
    closing = [Payment(t.payer, t.payee, t.amount, t.kind) for t in book.close()]
    for pay in [p for h in results for p in h.payments] + closing:
        balances[pay.payer] -= pay.amount
        balances[pay.payee] += pay.amount
    return Statement(tuple(results), balances, settle(balances), tuple(differences), pending, position)


def _chain(book: ChainBook, payments: list[Payment], winners: set[str]) -> list[Payment]:
    """Win payments go into 拉 chains; what the chains release, and payments made at once
    (immediate, 大雞), change hands now."""
    owed = [(p.payer, p.payee, p.amount) for p in payments if p.kind == "win"]
    at_once = frozenset((p.payer, p.payee) for p in payments if p.kind == "at_once")
    now = [p for p in payments if p.kind != "win"]
    return now + [Payment(t.payer, t.payee, t.amount, t.kind) for t in book.win(owed, winners, at_once)]


def _differences(number: int, computed: list[Payment], paid) -> list[Difference]:
    want: dict[tuple[str, str], int] = defaultdict(int)
    got: dict[tuple[str, str], int] = defaultdict(int)
    for p in computed:
        want[(p.payer, p.payee)] += p.amount
    for p in paid:
        got[(p.payer, p.payee)] += p.amount
    return [Difference(number, a, b, want[(a, b)], got[(a, b)]) for a, b in sorted(set(want) | set(got)) if want[(a, b)] != got[(a, b)]]


def settle(balances: dict[str, int]) -> tuple[tuple[str, str, int], ...]:
    """The fewest transfers that settle the balances: split the players into as many
    zero-sum groups as possible (each group of k needs k-1 transfers)."""
    people = [p for p, v in balances.items() if v]
    groups = _zero_sum_groups(frozenset(people), balances)
    out = []
    for group in groups:
        owed = sorted(((balances[p], p) for p in group if balances[p] > 0), reverse=True)
        owing = sorted(((-balances[p], p) for p in group if balances[p] < 0), reverse=True)
        owed_l = [[v, p] for v, p in owed]
        owing_l = [[v, p] for v, p in owing]
        i = j = 0
        while i < len(owing_l) and j < len(owed_l):
            n = min(owing_l[i][0], owed_l[j][0])
            out.append((owing_l[i][1], owed_l[j][1], n))
            owing_l[i][0] -= n
            owed_l[j][0] -= n
            i += owing_l[i][0] == 0
            j += owed_l[j][0] == 0
    return tuple(out)


def _zero_sum_groups(people: frozenset[str], balances: dict[str, int]) -> list[frozenset[str]]:
    if not people:
        return []
    best: list[frozenset[str]] = [people]
    anchor = min(people)
    others = sorted(people - {anchor})
    for k in range(1, len(people)):
        for combo in combinations(others, k - 1):
            group = frozenset((anchor, *combo))
            if group != people and sum(balances[p] for p in group) == 0:
                rest = _zero_sum_groups(people - group, balances)
                if len(rest) + 1 > len(best):
                    best = [group] + rest
    return best
