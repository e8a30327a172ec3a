"""Destruction of decks out of use in front of an officer, and his visa."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypedDict

from django.db import transaction
from django.utils.translation import gettext as _

import audit
from casino_ops import roles
from casino_ops.regulations import RegulationError, cite
from casino_ops.validation import validate_fields

from ..models import (
    BookKind,
    Deck,
    DeckStatus,
    Destruction,
    DestructionLine,
    Incident,
    OpeningPurpose,
    Visa,
)
from ..rules import check_deck_complete, check_destruction, check_transition
from ._shared import (
    _create,
    _lock_decks,
    _open_cabinet,
    _profile,
    _require_key_holder,
    _stamp,
    _take_number,
)


class DestructionCheck(TypedDict, total=False):
    deck: Deck
    complete: bool
    unmarked: bool
    remark: str


@transaction.atomic
def destroy_decks(
    *, actor: Any, officer: Any, checks: Sequence[DestructionCheck], method: str = "broyage"
) -> Destruction:
    """Destroy decks out of use in front of an officer, who checks each is complete and unmarked.

    Each deck must be out of use, complete and not under an open incident; a destroyed
    deck can never return. The officer then stamps the record (:func:`stamp_destruction`).
    """
    profile = _profile()
    article = cite("depot.destruction", profile)
    _require_key_holder(actor, profile)
    check_destruction(
        witnessed=officer is not None and roles.is_officer(officer), checks=checks, profile=profile
    )
    decks = _lock_decks([c["deck"] for c in checks])
    for deck, check in zip(decks, checks, strict=True):
        check_transition(deck, DeckStatus.DESTROYED, "destroy", profile)
        check_deck_complete(deck, bool(check.get("complete")), profile)
    open_incidents = Incident.objects.filter(decks__in=decks, closure__isnull=True)
    if open_incidents.exists():
        raise RegulationError(
            "DECK_QUARANTINED",
            _("Un jeu est concerné par un incident ouvert."),
            cite("depot.incident", profile),
            field="decks",
        )
    book, number = _take_number(BookKind.DESTRUCTION)
    opening = _open_cabinet(
        actor,
        OpeningPurpose.DESTRUCTION,
        demanded_by=officer,
        note=f"Destruction n° {number}",
        article=article,
    )
    destruction = _create(
        Destruction,
        article,
        book=book,
        number=number,
        at=opening.at,
        officer=officer,
        recorded_by=actor,
        opening=opening,
        method=method,
    )
    destruction_lines = [
        DestructionLine(
            destruction=destruction,
            deck=deck,
            complete=True,
            unmarked=bool(check.get("unmarked")),
            remark=check.get("remark", ""),
        )
        for deck, check in zip(decks, checks, strict=True)
    ]
    for destruction_line in destruction_lines:
        validate_fields(destruction_line, article, field="decks")
    DestructionLine.objects.bulk_create(destruction_lines)
    Deck.objects.filter(pk__in=[d.pk for d in decks]).update(status=DeckStatus.DESTROYED)
    audit.record(
        actor=actor,
        action="depot.destruction_recorded",
        obj=destruction,
        payload={
            "number": number,
            "officer": officer.get_username(),
            "method": method,
            "decks": [
                [d.manufacturer.code, d.serial, True, bool(c.get("unmarked")), c.get("remark", "")]
                for d, c in zip(decks, checks, strict=True)
            ],
        },
    )
    return destruction


@transaction.atomic
def stamp_destruction(*, actor: Any, destruction: Destruction, remark: str = "") -> Visa:
    """The witnessing officer's visa on the destruction record."""
    return _stamp(
        actor=actor,
        entry=destruction,
        remark=remark,
        what=_("viser une destruction"),
        rule="depot.destruction",
        already=_("Cette destruction est déjà visée."),
        witness_only=True,
    )
