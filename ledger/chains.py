"""拉 chains (hk-taiwan, RULINGS 'hk-taiwan' and 'Ledger'): win payments are set aside
between each payer A and winner B and only change hands when the chain ends.

- B wins off A again (or B self-draws): set-aside x1.5 rounded up, plus the new hand.
- A wins off B (or A self-draws): 踢半, A pays B half the set-aside rounded down, and
  B now owes A the new hand (or pays it at once when it is 大雞).
- B wins off someone else: the chain waits unchanged (it rides on B's run). A wins off
  someone other than B, or a third player wins, and B does not: the set-aside is paid
  as it stands. With several winners on one discard the one who is in the chain resolves it.
- 大雞 is paid at once but is still a win: B's 大雞 off A leaves the chain as it is, A's
  off B kicks half, anyone else's pays it as it stands.
- A draw or a false win carries every chain on. The payer may 斬拉 (settle at once) at
  the counts of 口 the rule set allows.
"""

from __future__ import annotations

from dataclasses import dataclass

from .policy import CutCounts
from .session import SessionError


@dataclass
class Chain:
    debtor: str
    creditor: str
    amount: int
    mouths: int = 1  # 口: hands in the chain

    def to_json(self) -> dict:
        return {"from": self.debtor, "to": self.creditor, "amount": self.amount, "mouths": self.mouths}


@dataclass(frozen=True)
class Transfer:
    payer: str
    payee: str
    amount: int
    kind: str


class ChainBook:
    def __init__(self) -> None:
        self.chains: dict[tuple[str, str], Chain] = {}

    def open(self) -> list[Chain]:
        return list(self.chains.values())

    def win(self, owed: list[tuple[str, str, int]], winners: set[str], at_once: frozenset[tuple[str, str]] = frozenset()) -> list[Transfer]:
        """Apply one hand's chained win payments (debtor, creditor, amount) and the
        (debtor, creditor) pairs of wins paid at once (大雞); returns what changes hands now."""
        paid: list[Transfer] = []
        touched: set[tuple[str, str]] = set()
        for debtor, creditor in sorted(at_once):
            if (creditor, debtor) in self.chains:
                paid += self._kick_half(creditor, debtor)
        for debtor, creditor, amount in owed:
            key, reverse = (debtor, creditor), (creditor, debtor)
            if key in self.chains:
                c = self.chains[key]
                c.amount = -(-c.amount * 3 // 2) + amount
                c.mouths += 1
            else:
                if reverse in self.chains:
                    paid += self._kick_half(*reverse)
                self.chains[key] = Chain(debtor, creditor, amount)
            touched.add(key)
        for key in list(self.chains):
            if key not in touched and self.chains[key].creditor not in winners:
                c = self.chains.pop(key)
                paid.append(Transfer(c.debtor, c.creditor, c.amount, "chain_paid"))
        return paid

    def _kick_half(self, debtor: str, creditor: str) -> list[Transfer]:
        """踢半: the chain's payer won off its winner; half the set-aside, rounded down, is paid."""
        half = self.chains.pop((debtor, creditor)).amount // 2
        return [Transfer(debtor, creditor, half, "kick_half")] if half else []

    def cut(self, debtor: str, creditor: str, counts: CutCounts) -> Transfer:
        """斬拉: the payer settles the chain at once, as it stands, at the counts of 口 allowed."""
        c = self.chains.get((debtor, creditor))
        if c is None:
            raise SessionError(f"斬拉: {debtor} has no open 拉 chain with {creditor}")
        if not counts.allows(c.mouths):
            raise SessionError(f"斬拉: the chain {debtor} -> {creditor} holds {c.mouths} 口; a chain can be cut at {counts}")
        del self.chains[(debtor, creditor)]
        return Transfer(debtor, creditor, c.amount, "cut")

    def close(self) -> list[Transfer]:
        """End of the session: every open chain is paid as it stands."""
        out = [Transfer(c.debtor, c.creditor, c.amount, "chain_end") for c in self.chains.values()]
        self.chains.clear()
        return out
