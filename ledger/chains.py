"""拉 chains (hk-taiwan, RULINGS 'hk-taiwan' and 'Ledger'): win payments are set aside
between each payer and winner and only change hands when the chain ends.

- B wins off A again (or B self-draws): set-aside x1.5 rounded up, plus the new hand.
- A wins off B (or A self-draws): 踢半, A pays B half the set-aside rounded down, and
  B now owes A the new hand.
- Anyone else wins (and B does not): the set-aside is paid as it stands. While B keeps
  winning off others, A's chain waits (it is B's run that it rides on).
- A draw or a false win carries every chain on. After three 口 the payer may 斬拉.
"""

from __future__ import annotations

from dataclasses import dataclass

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

    def win(self, owed: list[tuple[str, str, int]], winners: set[str]) -> list[Transfer]:
        """Apply one hand's chained win payments (debtor, creditor, amount); returns what
        changes hands now."""
        paid: list[Transfer] = []
        touched: set[tuple[str, str]] = set()
        for debtor, creditor, amount in owed:
            key, reverse = (debtor, creditor), (creditor, debtor)
            if key in self.chains:
                c = self.chains[key]
                c.amount = -(-c.amount * 3 // 2) + amount
                c.mouths += 1
            else:
                if reverse in self.chains:
                    old = self.chains.pop(reverse)
                    half = old.amount // 2
                    if half:
                        paid.append(Transfer(old.debtor, old.creditor, half, "kick_half"))
                self.chains[key] = Chain(debtor, creditor, amount)
            touched.add(key)
        for key in list(self.chains):
            if key not in touched and self.chains[key].creditor not in winners:
                c = self.chains.pop(key)
                paid.append(Transfer(c.debtor, c.creditor, c.amount, "chain_paid"))
        return paid

    def cut(self, debtor: str, creditor: str, at_least: int = 3) -> Transfer:
        """斬拉: the payer settles a chain of three 口 or more at once."""
        c = self.chains.get((debtor, creditor))
        if c is None:
            raise SessionError(f"斬拉: {debtor} has no open 拉 chain with {creditor}")
        if c.mouths < at_least:
            raise SessionError(f"斬拉: the chain {debtor} -> {creditor} has {c.mouths} 口; it can be cut after {at_least}")
        del self.chains[(debtor, creditor)]
        return Transfer(debtor, creditor, c.amount, "cut")

    def close(self) -> list[Transfer]:
        """End of the session: every open chain is paid as it stands."""
        out = [Transfer(c.debtor, c.creditor, c.amount, "chain_end") for c in self.chains.values()]
        self.chains.clear()
        return out
