"""Incidents (FR art. 40, LU art. 7): reported at once to the officer, closed by him."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

import audit
from casino_ops import roles
from casino_ops.regulations import cite

from ..models import (
    BookKind,
    Deck,
    DeckStatus,
    Incident,
    IncidentClosure,
)
from ..rules import (
    check_closure,
    check_incident_facts,
    check_incident_kind,
    check_officer_told,
    check_transition,
)
from ._shared import (
    _create,
    _lock_decks,
    _profile,
    _require_officer,
    _take_number,
)


@transaction.atomic
def report_incident(
    *,
    actor: Any,
    kind: str,
    occurred_at: dt.datetime,
    day: dt.date,
    decks: Sequence[Deck | int],
    officer_informed: Any,
    officer_informed_at: dt.datetime | None,
    circumstances: str,
    table_number: int | None = None,
    shoe_reference: str = "",
) -> Incident:
    """A missing, extra, marked or foreign card, reported at once to the officer (FR art. 40, LU art. 7).

    The officer told and the time he was told are required. The decks concerned are
    quarantined: they can be neither issued nor destroyed until the officer closes
    the incident.
    """
    profile = _profile()
    article = cite("depot.incident", profile)
    if not (roles.has_role(actor, roles.CROUPIER) or roles.is_management(actor)):
        raise PermissionDenied(_("Un incident est signalé par le chef de table ou la direction."))
    check_incident_kind(kind, profile)
    informed_at = check_officer_told(
        officer_informed=officer_informed,
        is_officer=officer_informed is not None and roles.is_officer(officer_informed),
        officer_informed_at=officer_informed_at,
        profile=profile,
    )
    check_incident_facts(
        occurred_at=occurred_at,
        officer_informed_at=informed_at,
        now=timezone.now(),
        circumstances=circumstances,
        decks=decks,
        profile=profile,
    )
    locked = _lock_decks(decks)
    for deck in locked:
        check_transition(deck, DeckStatus.QUARANTINED, "incident", profile)
    book, number = _take_number(BookKind.INCIDENT)
    incident = _create(
        Incident,
        article,
        book=book,
        number=number,
        kind=kind,
        occurred_at=occurred_at,
        table_number=table_number,
        day=day,
        shoe_reference=shoe_reference,
        officer_informed=officer_informed,
        officer_informed_at=officer_informed_at,
        circumstances=circumstances.strip(),
        reported_by=actor,
    )
    incident.decks.set(locked)
    for deck in locked:
        Deck.objects.filter(pk=deck.pk).update(
            status=DeckStatus.QUARANTINED, status_before_quarantine=deck.status
        )
    audit.record(
        actor=actor,
        action="depot.incident_reported",
        obj=incident,
        payload={
            "number": number,
            "kind": kind,
            "occurred_at": occurred_at,
            "table": table_number,
            "day": day,
            "shoe": shoe_reference,
            "decks": [[d.manufacturer.code, d.serial] for d in locked],
            "officer_informed": officer_informed.get_username(),
            "officer_informed_at": officer_informed_at,
            "circumstances": incident.circumstances,
        },
    )
    return incident


@transaction.atomic
def close_incident(
    *, actor: Any, incident: Incident, finding: str, decks_fit: Sequence[Deck | int] = ()
) -> IncidentClosure:
    """The officer closes the incident: the decks he finds fit go back to the cabinet, the others out of use."""
    profile = _profile()
    article = cite("depot.incident", profile)
    _require_officer(actor, "CLOSURE_OFFICER_ONLY", _("clore un incident"), "depot.incident", profile)
    incident = Incident.objects.select_for_update().get(pk=incident.pk)
    decks = _lock_decks(incident.decks.all())
    fit_ids = {d.pk if isinstance(d, Deck) else int(d) for d in decks_fit}
    check_closure(
        closed=IncidentClosure.objects.filter(incident=incident).exists(),
        finding=finding,
        fit_ids=fit_ids,
        deck_ids={d.pk for d in decks},
        profile=profile,
    )
    for deck in decks:
        target = DeckStatus.IN_CABINET if deck.pk in fit_ids else DeckStatus.OUT_OF_USE
        check_transition(deck, target, "close_incident", profile)
    closure = _create(
        IncidentClosure, article, incident=incident, officer=actor, at=timezone.now(), finding=finding
    )
    closure.decks_fit.set([d for d in decks if d.pk in fit_ids])
    Deck.objects.filter(pk__in=[d.pk for d in decks if d.pk in fit_ids]).update(
        status=DeckStatus.IN_CABINET, status_before_quarantine=""
    )
    Deck.objects.filter(pk__in=[d.pk for d in decks if d.pk not in fit_ids]).update(
        status=DeckStatus.OUT_OF_USE, status_before_quarantine=""
    )
    audit.record(
        actor=actor,
        action="depot.incident_closed",
        obj=incident,
        payload={
            "number": incident.number,
            "finding": finding,
            "fit": sorted(d.serial for d in decks if d.pk in fit_ids),
            "out_of_use": sorted(d.serial for d in decks if d.pk not in fit_ids),
        },
    )
    return closure
