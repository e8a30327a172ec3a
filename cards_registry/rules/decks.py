"""A deck's life and what a deck or a sixain is (FR art. 40, 55-4; LU art. 7, 32)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

from casino_ops.refusals import Refusal
from casino_ops.regulations import cite

from ..models import DeckStatus

CARDS_PER_DECK = 52

# A deck's life: the only transitions, and the service (act) that makes each.
TRANSITIONS: dict[tuple[str, str], str] = {
    (DeckStatus.IN_CABINET, DeckStatus.ISSUED): "issue",
    (DeckStatus.ISSUED, DeckStatus.IN_PLAY): "check_at_table",
    (DeckStatus.ISSUED, DeckStatus.IN_CABINET): "return",
    (DeckStatus.IN_PLAY, DeckStatus.IN_CABINET): "return",
    (DeckStatus.ISSUED, DeckStatus.OUT_OF_USE): "return",
    (DeckStatus.IN_PLAY, DeckStatus.OUT_OF_USE): "return",
    (DeckStatus.IN_CABINET, DeckStatus.QUARANTINED): "incident",
    (DeckStatus.ISSUED, DeckStatus.QUARANTINED): "incident",
    (DeckStatus.IN_PLAY, DeckStatus.QUARANTINED): "incident",
    (DeckStatus.OUT_OF_USE, DeckStatus.QUARANTINED): "incident",
    (DeckStatus.QUARANTINED, DeckStatus.IN_CABINET): "close_incident",
    (DeckStatus.QUARANTINED, DeckStatus.OUT_OF_USE): "close_incident",
    (DeckStatus.OUT_OF_USE, DeckStatus.DESTROYED): "destroy",
    (DeckStatus.IN_CABINET, DeckStatus.OUT_OF_USE): "declare_out_of_use",
}

# The rule a transition towards each state applies (for the article of a refusal).
_RULE_OF_TARGET = {
    DeckStatus.ISSUED: "depot.issue_and_unseal",
    DeckStatus.IN_PLAY: "depot.issue_and_unseal",
    DeckStatus.IN_CABINET: "depot.issue_and_unseal",
    DeckStatus.OUT_OF_USE: "depot.issue_and_unseal",
    DeckStatus.QUARANTINED: "depot.incident",
    DeckStatus.DESTROYED: "depot.destruction",
}


def check_transition(deck: Any, target: str, act: str, profile: str) -> None:
    """Refuse any change of a deck's state that is not one of :data:`TRANSITIONS` made by ``act``."""
    current = deck.status
    rule = _RULE_OF_TARGET[DeckStatus(target)]
    if current == DeckStatus.DESTROYED:
        raise Refusal.DECK_DESTROYED.error(profile, serial=deck.serial)
    if current == DeckStatus.QUARANTINED and act != "close_incident":
        raise Refusal.DECK_QUARANTINED.error(profile, serial=deck.serial)
    if TRANSITIONS.get((current, target)) != act:
        raise Refusal.ILLEGAL_TRANSITION.error(
            article=cite(rule, profile),
            serial=deck.serial,
            current=DeckStatus(current).label,
            target=DeckStatus(target).label,
        )


def check_blackjack_sixain(decks: Iterable[Any], profile: str) -> None:
    """Six decks, three of one back colour and three of the other (FR art. 55-4, LU art. 32).

    ``decks`` are objects with a ``back_colour`` attribute (or plain colour strings).
    """
    colours = [getattr(deck, "back_colour", deck) for deck in decks]
    counts = Counter(str(colour).strip().lower() for colour in colours)
    if len(colours) != 6 or sorted(counts.values()) != [3, 3]:
        described = ", ".join(f"{n} × {colour}" for colour, n in sorted(counts.items())) or "aucun jeu"
        raise Refusal.SIXAIN_COMPOSITION.error(profile, described=described)


def check_cards_counted(count: int, profile: str) -> None:
    if count != CARDS_PER_DECK:
        raise Refusal.CARD_COUNT.error(profile, field="cards_counted", count=count)
