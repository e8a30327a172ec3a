"""The simulator's shoe and hands, and the settlement it writes (hand-log.md §3.6)."""

from __future__ import annotations

from typing import Any

from ..cards import CARD_VALUE
from ..parse import cents, format_cents

#: the boxes of a round and their stakes: (box, [[player, cents], ...])
_Seats = list[tuple[int, list[list[Any]]]]


class _Hand:
    __slots__ = ("cards", "hard", "ace", "split", "split_aces", "doubled", "state", "stakes", "num")

    def __init__(self, num: int, stakes: list[list[Any]]) -> None:
        self.num = num
        self.cards: list[str] = []
        self.hard = 0
        self.ace = False
        self.split = False
        self.split_aces = False
        self.doubled = False
        self.state = "open"
        self.stakes = stakes

    def add(self, code: str) -> None:
        v = CARD_VALUE[code]
        self.cards.append(code)
        self.hard += v
        if v == 1:
            self.ace = True

    def total(self) -> tuple[int, bool]:
        if self.ace and self.hard <= 11:
            return self.hard + 10, True
        return self.hard, False


class _Shoe:
    """The cards in shoe order and the next one to leave."""

    def __init__(self, cards: list[str]) -> None:
        self.cards = cards
        self.pos = 0

    def draw(self) -> str:
        if self.pos >= len(self.cards):
            raise RuntimeError("shoe exhausted")
        c = self.cards[self.pos]
        self.pos += 1
        return c

    def rig(self, offset: int, pred: Any) -> None:
        """Swap into position ``pos + offset`` the first later card matching ``pred``."""
        i = self.pos + offset
        cards = self.cards
        for j in range(i, len(cards)):
            if pred(cards[j]):
                cards[i], cards[j] = cards[j], cards[i]
                return
        raise ValueError("no card to rig")


def _force_extra(shoe: _Shoe, counts: dict[str, int], decks: int) -> str:
    """Put copies of the most-seen card at the head of the shoe (an extra card, FR art. 40)."""
    x = max(sorted(counts), key=lambda c: counts[c])
    need = decks + 1 - counts[x]
    for k in range(need):
        shoe.cards[shoe.pos + k] = x
    return x


def settle(
    seats: _Seats,
    hands: list[list[_Hand]],
    dealer: _Hand,
    insurance: list[dict[str, Any]],
) -> list[dict[str, Any]]:
    """The settlement rows of a round (hand-log.md §3.6): hands in box and hand order, then insurance."""
    dt, _ = dealer.total()
    d_bj = len(dealer.cards) == 2 and dt == 21
    rows: list[dict[str, Any]] = []
    for (box, _sl), bh in zip(seats, hands, strict=True):
        for h in sorted(bh, key=lambda x: x.num):
            total, _ = h.total()
            for p, c in h.stakes:
                if h.state == "bust":
                    net = -c
                elif h.state == "surrender":
                    net = -_round_half(c)
                elif h.state == "blackjack":
                    net = 0 if d_bj else _round_half(3 * c)
                elif d_bj or (dt <= 21 and total < dt):
                    net = -c
                elif dt > 21 or total > dt:
                    net = c
                else:
                    net = 0
                rows.append({"box": box, "hand": h.num, "player": p, "net": format_cents(net)})
    ten = len(dealer.cards) > 1 and CARD_VALUE[dealer.cards[1]] == 10
    for ins in insurance:
        a = cents(ins["amount"]) or 0
        rows.append(
            {
                "box": ins["box"],
                "player": ins["player"],
                "insurance_net": format_cents(2 * a if ten else -a),
            }
        )
    return rows


def _round_half(k: int) -> int:
    """k / 2 to the cent, half away from zero."""
    q, r = divmod(abs(k), 2)
    q += r
    return q if k >= 0 else -q
