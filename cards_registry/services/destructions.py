"""Destruction of decks out of use in front of an officer, and his visa."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypedDict

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

import audit
from audit.actions import Action
from casino_ops import access, act_checks
from casino_ops.access import Act
from casino_ops.acts import OfficerGate, declare_act
from casino_ops.officers import OfficerSignature
from casino_ops.refusals import Refusal
from casino_ops.regulations import cite
from casino_ops.validation import validate_fields

from ..models import (
    BookKind,
    Deck,
    DeckStatus,
    Destruction,
    DestructionLine,
    Incident,
    IncidentClosure,
    IncidentKind,
    IncidentRoute,
    OpeningPurpose,
    ReturnLine,
    ReturnResult,
    Visa,
)
from ..rules import check_destruction, check_transition
from ..rules import tables as table_rules
from ._shared import (
    _create,
    _lock_decks,
    _open_cabinet,
    _profile,
    _require_key_holder,
    _stamp,
    _take_number,
)
from .incidents import _open_incident


class DestructionCheck(TypedDict, total=False):
    deck: Deck
    complete: bool
    unmarked: bool
    remark: str


@declare_act(
    act=Act.DEPOT,
    action=Action.DEPOT_DESTRUCTION_RECORDED,
    article="depot.destruction",
    refusals=(Refusal.NOT_KEY_HOLDER, Refusal.DECK_QUARANTINED),
)
@transaction.atomic
def destroy_decks(
    *, actor: User, officer: User, checks: Sequence[DestructionCheck], method: str = "broyage"
) -> Destruction | None:
    """Destroy decks out of use in front of an officer, who checks each is complete and unmarked.

    Each deck must be out of use and not under an open incident; a destroyed deck can
    never return. A deck the officer finds incomplete, or marked when it was not known
    marked, is not destroyed: an incident is opened on it (reported to that officer, on
    the spot) and it is quarantined; the others are destroyed (``None`` when none is
    left). The officer then stamps the record (:func:`stamp_destruction`).
    """
    profile = _profile()
    article = cite("depot.destruction", profile)
    _require_key_holder(actor, profile)
    check_destruction(witnessed=access.may(officer, Act.VISA), checks=checks, profile=profile)
    act_checks.run(
        act_checks.Hook.DEPOT_DESTROY, day=timezone.localdate(), profile=profile, people={"actor": actor}
    )
    decks = _lock_decks([c["deck"] for c in checks])
    for deck in decks:
        check_transition(deck, DeckStatus.DESTROYED, "destroy", profile)
    open_incidents = Incident.objects.filter(decks__in=decks, closure__isnull=True)
    table_rules.check_no_open_incident(open_incidents.exists(), profile)
    # What the officer finds opens an incident (FR art. 40 §5, LU art. 7 §5): a card missing,
    # or a mark not already known (a deck put out of use as marked was found so before).
    known_marked = _known_marked(decks)
    findings: dict[str, list[tuple[Deck, str]]] = {}
    for deck, check in zip(decks, checks, strict=True):
        if not check.get("complete"):
            findings.setdefault(IncidentKind.MISSING, []).append((deck, check.get("remark", "")))
        elif not check.get("unmarked") and deck.pk not in known_marked:
            findings.setdefault(IncidentKind.MARKED, []).append((deck, check.get("remark", "")))
    held = {d.pk for found in findings.values() for d, _r in found}
    if findings:
        now = timezone.now()
        for kind, concerned in findings.items():
            _open_incident(
                actor=actor,
                kind=kind,
                route=IncidentRoute.DESTRUCTION,
                occurred_at=now,
                day=timezone.localdate(),
                decks=[d for d, _r in concerned],
                circumstances="; ".join(
                    f"{d.serial} : {IncidentKind(kind).label}" + (f" ({r})" if r else "")
                    for d, r in concerned
                )
                + " — constaté à la destruction",
                profile=profile,
                officer_informed=officer,
                officer_informed_at=now,
            )
        checks = [c for d, c in zip(decks, checks, strict=True) if d.pk not in held]
        decks = [d for d in decks if d.pk not in held]
        if not decks:
            return None
    book, number = _take_number(BookKind.DESTRUCTION, profile)
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
        action=Action.DEPOT_DESTRUCTION_RECORDED,
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


def _known_marked(decks: Sequence[Deck]) -> set[int]:
    """The decks already known marked: put out of use as marked at a return, or by a closed
    incident about a marked card."""
    ids = [d.pk for d in decks]
    returned = ReturnLine.objects.filter(issue_line__deck__in=ids, result=ReturnResult.MARKED).values_list(
        "issue_line__deck_id", flat=True
    )
    closed = IncidentClosure.objects.filter(incident__decks__in=ids, incident__kind=IncidentKind.MARKED)
    return set(returned) | set(closed.values_list("incident__decks", flat=True)) & set(ids)


@declare_act(
    act=Act.VISA,
    action=Action.DEPOT_DESTRUCTION_STAMPED,
    article="depot.destruction",
    refusals=(
        Refusal.ALREADY_STAMPED,
        Refusal.VISA_NOT_WITNESS,
    ),
    gate=OfficerGate("VISA_OFFICER_ONLY", what=gettext_lazy("viser une destruction")),
)
@transaction.atomic
def stamp_destruction(
    *, actor: User, destruction: Destruction, remark: str = "", signature: OfficerSignature | None = None
) -> Visa:
    """The witnessing officer's visa on the destruction record."""
    return _stamp(
        actor=actor,
        entry=destruction,
        signature=signature,
        remark=remark,
        rule="depot.destruction",
        already=_("Cette destruction est déjà visée."),
        witness_only=True,
    )
