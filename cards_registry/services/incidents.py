"""Incidents (FR art. 40, LU art. 7): reported at once to the officer, closed by him.

Every route opens the same :class:`Incident` and quarantines the decks concerned: a
manual report (:func:`report_incident`), the examination of decks at their return
(:func:`~cards_registry.services.at_tables.return_decks`), a destruction finding a deck
marked or incomplete (:func:`~cards_registry.services.destructions.destroy_decks`), the
replay of a hand log (:func:`report_incident_from_replay`) and the inventory at an
opening demanded by an officer. An incident found by a route where the officer was not
told on the spot is reported afterwards (:func:`record_incident_report`); the delay is
measured against the depot's settings (``incident_report_minutes``).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy

import audit
from audit.actions import Action
from casino_ops import access, officers
from casino_ops.access import Act
from casino_ops.acts import OfficerGate, declare_act
from casino_ops.officers import OfficerSignature
from casino_ops.refusals import Refusal
from casino_ops.regulations import cite

from ..models import (
    BookKind,
    Deck,
    DeckStatus,
    Incident,
    IncidentClosure,
    IncidentKind,
    IncidentReport,
    IncidentRoute,
)
from ..rules import (
    check_closure,
    check_incident_facts,
    check_incident_kind,
    check_officer_told,
    check_transition,
)
from ..rules import tables as table_rules
from ..serializers import IncidentInSerializer
from ._shared import (
    _create,
    _lock_decks,
    _profile,
    _take_number,
)


def _open_incident(
    *,
    actor: User | None,
    kind: str,
    route: str,
    occurred_at: dt.datetime,
    day: dt.date,
    decks: Sequence[Deck],
    circumstances: str,
    profile: str,
    officer_informed: User | None = None,
    authority_informed: str = "",
    officer_informed_at: dt.datetime | None = None,
    table_number: int | None = None,
    shoe_reference: str = "",
    card: str = "",
    linked: Sequence[Deck] = (),
) -> Incident:
    """Open an incident on ``decks`` (already locked, checked by the caller) and quarantine them.

    ``linked``: decks concerned too but not moved (already quarantined by another incident, or
    destroyed). Runs in the caller's transaction; records ``depot.incident_reported``.
    """
    article = cite("depot.incident", profile)
    for deck in decks:
        check_transition(deck, DeckStatus.QUARANTINED, "incident", profile)
    book, number = _take_number(BookKind.INCIDENT, profile)
    incident = _create(
        Incident,
        article,
        book=book,
        number=number,
        kind=kind,
        route=route,
        card=card.strip(),
        occurred_at=occurred_at,
        table_number=table_number,
        day=day,
        shoe_reference=shoe_reference,
        officer_informed=officer_informed,
        authority_informed=authority_informed.strip() if officer_informed is None else "",
        officer_informed_at=officer_informed_at,
        circumstances=circumstances.strip(),
        reported_by=actor if getattr(actor, "is_authenticated", False) else None,
    )
    incident.decks.set([*decks, *linked])
    for deck in decks:
        Deck.objects.filter(pk=deck.pk).update(
            status=DeckStatus.QUARANTINED, status_before_quarantine=deck.status
        )
        deck.status = DeckStatus.QUARANTINED
    audit.record(
        actor=actor,
        action=Action.DEPOT_INCIDENT_REPORTED,
        obj=incident,
        payload={
            "number": number,
            "kind": kind,
            "route": route,
            "card": incident.card,
            "occurred_at": occurred_at,
            "table": table_number,
            "day": day,
            "shoe": shoe_reference,
            "decks": [[d.manufacturer.code, d.serial] for d in [*decks, *linked]],
            "officer_informed": officer_informed.get_username() if officer_informed else None,
            "authority_informed": incident.authority_informed,
            "officer_informed_at": officer_informed_at,
            "circumstances": incident.circumstances,
        },
    )
    return incident


def _told(
    officer_informed: User | None,
    authority_informed: str,
    officer_informed_at: dt.datetime | None,
    profile: str,
) -> None:
    check_officer_told(
        officer_informed=officer_informed,
        is_officer=access.may(officer_informed, Act.VISA),
        officer_informed_at=officer_informed_at,
        profile=profile,
        authority=authority_informed,
    )


@declare_act(
    act=Act.REPORT_INCIDENT,
    action=Action.DEPOT_INCIDENT_REPORTED,
    schema=IncidentInSerializer,
    article="depot.incident",
    refusals=(Refusal.OFFICER_NOT_TOLD,),
)
@transaction.atomic
def report_incident(
    *,
    actor: User,
    kind: str,
    occurred_at: dt.datetime,
    day: dt.date,
    decks: Sequence[Deck | int],
    officer_informed: User,
    officer_informed_at: dt.datetime | None,
    circumstances: str,
    table_number: int | None = None,
    shoe_reference: str = "",
    authority_informed: str = "",
    card: str = "",
) -> Incident:
    """A missing, extra, marked, damaged or foreign card, reported at once (FR art. 40, LU art. 7).

    Whom it was told to and when are required: an officer present or, under FR, the head
    of the territorial police judiciaire service (``authority_informed``, named). The
    decks concerned are quarantined: they can be neither issued nor destroyed until the
    officer closes the incident. A foreign card found outside any deck is recorded with
    no deck and its description (``card``).
    """
    profile = _profile()
    check_incident_kind(kind, profile)
    _told(officer_informed, authority_informed, officer_informed_at, profile)
    check_incident_facts(
        occurred_at=occurred_at,
        officer_informed_at=officer_informed_at,
        now=timezone.now(),
        circumstances=circumstances,
        decks=decks,
        profile=profile,
        kind=kind,
        card=card,
    )
    locked = _lock_decks(decks)
    return _open_incident(
        actor=actor,
        kind=kind,
        route=IncidentRoute.REPORT,
        occurred_at=occurred_at,
        day=day,
        decks=locked,
        circumstances=circumstances,
        profile=profile,
        officer_informed=officer_informed,
        authority_informed=authority_informed,
        officer_informed_at=officer_informed_at,
        table_number=table_number,
        shoe_reference=shoe_reference,
        card=card,
    )


@declare_act(
    act=Act.RECORD_INCIDENT_NOTICE,
    action=Action.DEPOT_INCIDENT_REPORT_RECORDED,
    article="depot.incident",
    refusals=(Refusal.INCIDENT_ALREADY_REPORTED,),
)
@transaction.atomic
def record_incident_report(
    *,
    actor: User,
    incident: Incident,
    informed_at: dt.datetime,
    officer_informed: User | None = None,
    authority_informed: str = "",
) -> IncidentReport:
    """Record whom an incident found by a return, a destruction or a replay was reported to, and when.

    Once per incident, and only for an incident not reported on the spot; the officer
    records it himself, or management for him.
    """
    profile = _profile()
    article = cite("depot.incident", profile)
    incident = Incident.objects.select_for_update().get(pk=incident.pk)
    table_rules.check_not_reported(
        incident.officer_informed_at is not None or IncidentReport.objects.filter(incident=incident).exists(),
        article,
    )
    _told(officer_informed, authority_informed, informed_at, profile)
    check_incident_facts(
        occurred_at=incident.occurred_at,
        officer_informed_at=informed_at,
        now=timezone.now(),
        circumstances=incident.circumstances or "-",
        decks=[0],
        profile=profile,
    )
    report = _create(
        IncidentReport,
        article,
        incident=incident,
        officer=officer_informed,
        authority=authority_informed.strip() if officer_informed is None else "",
        informed_at=informed_at,
        recorded_by=actor,
    )
    audit.record(
        actor=actor,
        action=Action.DEPOT_INCIDENT_REPORT_RECORDED,
        obj=incident,
        payload={
            "number": incident.number,
            "officer_informed": officer_informed.get_username() if officer_informed else None,
            "authority_informed": report.authority,
            "informed_at": informed_at,
            "delay_seconds": int((informed_at - incident.occurred_at).total_seconds()),
        },
    )
    return report


# The replay's discrepancy codes that are a card incident, and the kind each opens.
REPLAY_CODES = {"CARD_COUNT_EXCEEDED": IncidentKind.EXTRA, "INVALID_CARD": IncidentKind.FOREIGN}
#: Discrepancies whose explanation by the director opens an incident for the officer to close: a
#: log of a shoe the séance never filled, its cards from no recorded deck (FR art. 40, LU art. 7).
EXPLAINED_CODES = {"SHOE_UNKNOWN": IncidentKind.FOREIGN}


@transaction.atomic
def report_incident_from_replay(
    *,
    code: str,
    table_number: int,
    day: dt.date,
    shoe_reference: str,
    decks: Sequence[Deck | int],
    detail: str,
    occurred_at: dt.datetime | None = None,
    actor: User | None = None,
) -> Incident | None:
    """The replay of a hand log found a card too many or a card that is no card of the shoe:
    an incident is opened on the shoe's decks, quarantined, to be reported to the officer.

    ``code`` is the discrepancy code (:data:`REPLAY_CODES`, or :data:`EXPLAINED_CODES` when the
    director explains a log of an unknown shoe; any other: nothing, ``None``).
    Idempotent: a second replay of the same shoe finds the incident already opened for
    that code and returns it. ``actor`` is ``None`` when the replay task runs it.
    """
    kind = REPLAY_CODES.get(code) or EXPLAINED_CODES.get(code)
    if kind is None:
        return None
    profile = _profile()
    already = Incident.objects.filter(
        route=IncidentRoute.REPLAY,
        kind=kind,
        day=day,
        table_number=table_number,
        shoe_reference=shoe_reference,
    ).first()
    if already is not None:
        return already
    locked = [d for d in _lock_decks(decks) if d.status not in (DeckStatus.DESTROYED, DeckStatus.QUARANTINED)]
    return _open_incident(
        actor=actor,
        kind=kind,
        route=IncidentRoute.REPLAY,
        occurred_at=occurred_at or timezone.now(),
        day=day,
        decks=locked,
        circumstances=f"{code} : {detail}".strip(),
        profile=profile,
        table_number=table_number,
        shoe_reference=shoe_reference,
        card=detail[:150] if kind == IncidentKind.FOREIGN else "",
    )


def closure_fields(finding: str, fit: Sequence[str], out_of_use: Sequence[str]) -> dict[str, Any]:
    """What the officer signs when he closes an incident: his finding, the decks fit (serials)
    and those out of use."""
    return {"finding": finding, "fit": sorted(fit), "out_of_use": sorted(out_of_use)}


@declare_act(
    act=Act.CLOSE_INCIDENT,
    action=Action.DEPOT_INCIDENT_CLOSED,
    article="depot.incident",
    gate=OfficerGate("CLOSURE_OFFICER_ONLY", what=gettext_lazy("clore un incident")),
)
@transaction.atomic
def close_incident(
    *,
    actor: User,
    incident: Incident,
    finding: str,
    decks_fit: Sequence[Deck | int] = (),
    signature: OfficerSignature | None = None,
) -> IncidentClosure:
    """The officer closes the incident: the decks he finds fit go back to the cabinet, the others out of use."""
    profile = _profile()
    article = cite("depot.incident", profile)
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
    fit = sorted(d.serial for d in decks if d.pk in fit_ids)
    out_of_use = sorted(d.serial for d in decks if d.pk not in fit_ids)
    sealed = officers.seal(
        officer=actor,
        act=Action.DEPOT_INCIDENT_CLOSED,
        target=incident,
        fields=closure_fields(finding, fit, out_of_use),
        signature=signature,
        profile=profile,
    )
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
        action=Action.DEPOT_INCIDENT_CLOSED,
        obj=incident,
        payload={
            "number": incident.number,
            "finding": finding,
            "fit": fit,
            "out_of_use": out_of_use,
            officers.SIGNATURE_KEY: sealed,
        },
    )
    return closure
