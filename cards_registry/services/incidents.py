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
from casino_ops.regulations import RegulationError, cite

from ..models import (
    BookKind,
    Deck,
    DeckStatus,
    Incident,
    IncidentClosure,
    IncidentKind,
)
from ..rules import check_transition
from ._shared import (
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
    if kind not in IncidentKind.values:
        raise RegulationError("INCIDENT_KIND", _("Nature d'incident inconnue."), article, field="kind")
    if officer_informed is None:
        raise RegulationError(
            "OFFICER_NOT_TOLD",
            _("L'incident est signalé sur-le-champ à l'officier : indiquez son nom."),
            article,
            field="officer_informed",
        )
    if not roles.is_officer(officer_informed):
        raise RegulationError(
            "OFFICER_NOT_TOLD",
            _("%(name)s n'est pas un officier de police ou de contrôle.")
            % {"name": officer_informed.get_username()},
            article,
            field="officer_informed",
        )
    if officer_informed_at is None:
        raise RegulationError(
            "OFFICER_NOT_TOLD",
            _(
                "L'incident est signalé sur-le-champ à l'officier : indiquez l'heure à laquelle il a été avisé."
            ),
            article,
            field="officer_informed_at",
        )
    now = timezone.now()
    if occurred_at > now or officer_informed_at > now:
        raise RegulationError(
            "INCIDENT_IN_FUTURE",
            _("Une heure dans le futur ne peut pas être enregistrée."),
            article,
            field="occurred_at",
        )
    if officer_informed_at < occurred_at:
        raise RegulationError(
            "OFFICER_TOLD_BEFORE",
            _("L'officier ne peut pas avoir été avisé avant l'incident."),
            article,
            field="officer_informed_at",
        )
    if not circumstances.strip():
        raise RegulationError(
            "CIRCUMSTANCES_REQUIRED", _("Décrivez les circonstances."), article, field="circumstances"
        )
    if not decks:
        raise RegulationError("INCIDENT_DECKS", _("Indiquez les jeux concernés."), article, field="decks")
    locked = _lock_decks(decks)
    for deck in locked:
        check_transition(deck, DeckStatus.QUARANTINED, "incident", profile)
    book, number = _take_number(BookKind.INCIDENT)
    incident = Incident.objects.create(
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
    if IncidentClosure.objects.filter(incident=incident).exists():
        raise RegulationError("INCIDENT_CLOSED", _("Cet incident est déjà clos."), article, field="incident")
    if not finding.strip():
        raise RegulationError("FINDING_REQUIRED", _("Indiquez vos constatations."), article, field="finding")
    decks = _lock_decks(incident.decks.all())
    fit_ids = {d.pk if isinstance(d, Deck) else int(d) for d in decks_fit}
    if fit_ids - {d.pk for d in decks}:
        raise RegulationError(
            "DECK_NOT_IN_INCIDENT",
            _("Un jeu déclaré apte n'est pas concerné par l'incident."),
            article,
            field="decks_fit",
        )
    for deck in decks:
        target = DeckStatus.IN_CABINET if deck.pk in fit_ids else DeckStatus.OUT_OF_USE
        check_transition(deck, target, "close_incident", profile)
    closure = IncidentClosure.objects.create(
        incident=incident, officer=actor, at=timezone.now(), finding=finding
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
