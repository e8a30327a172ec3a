"""Card codes of `casino-hand-log/1` (hand-log.md §1).

A card is its rank ``A 2 … 9 T J Q K`` (``10`` accepted for ``T``) followed by
its suit ``S H D C``; codes are case-sensitive (§6). The tables below are built
once so that the replay looks a card up with a single dict access instead of
parsing a string per card (the replay handles tens of thousands of rounds a
second).

Blackjack is played with six 52-card decks (FR art. 55-4, LU art. 32); an
extra or foreign card is reported under FR art. 40 / LU art. 7.
"""

from __future__ import annotations

RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K")
SUITS: tuple[str, ...] = ("S", "H", "D", "C")

#: value of a rank: an ace counts 1 here (the totals add 10 for a soft ace).
RANK_VALUE: dict[str, int] = {r: min(i + 1, 10) for i, r in enumerate(RANKS)}

#: card code -> value (1 for an ace, 10 for T J Q K).
CARD_VALUE: dict[str, int] = {}
#: card code -> index 0..51 of the card (rank and suit), ``10H`` and ``TH`` alike.
CARD_INDEX: dict[str, int] = {}
#: card code -> rank letter (``T`` for ``10``), for ``split_identical_only``.
CARD_RANK: dict[str, str] = {}
#: index 0..51 -> canonical code written with ``T``.
CANONICAL: list[str] = []

for _ri, _rank in enumerate(RANKS):
    for _si, _suit in enumerate(SUITS):
        _idx = _ri * 4 + _si
        _code = _rank + _suit
        CANONICAL.append(_code)
        _spellings = (_code, "10" + _suit) if _rank == "T" else (_code,)
        for _sp in _spellings:
            CARD_VALUE[_sp] = RANK_VALUE[_rank]
            CARD_INDEX[_sp] = _idx
            CARD_RANK[_sp] = _rank

#: one full deck in maker's order, canonical codes.
DECK: tuple[str, ...] = tuple(CANONICAL)


def hand_total(hard: int, has_ace: bool) -> tuple[int, bool]:
    """Total of a hand from its hard sum (aces as 1) (hand-log.md §3.4).

    One ace counts 11 where that keeps the total at 21 or under; the total
    is then soft.
    """
    if has_ace and hard <= 11:
        return hard + 10, True
    return hard, False
